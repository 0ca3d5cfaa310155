"""What several parts of the lowering share: cursor kinds they all treat alike, and the
span of a node that has no location of its own."""

from __future__ import annotations

from clang.cindex import CursorKind as CK

from cudalint import ir

LAUNCH_FUNCTIONS = (b"cudaLaunchKernel", b"cudaLaunchCooperativeKernel")
"""The runtime's launch calls (``cudaLaunchKernelEx`` among them): ``(kernel, grid, block,
args, shared bytes, stream)``, or ``(&config, kernel, arguments...)`` for the ``Ex`` form."""
TRANSPARENT_EXPRS = (CK.PAREN_EXPR,)
MEMBER_FUNCTIONS = (CK.CXX_METHOD, CK.CONVERSION_FUNCTION, CK.FUNCTION_TEMPLATE)
NOWHERE = ir.Span("", 0, 0, 0, 0)
"""Placeholder for nodes without a location until their parent anchors them."""

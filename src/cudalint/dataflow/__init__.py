"""Facts derived from the IR. Rules read these; they never re-derive them."""

from __future__ import annotations

from functools import cached_property

from cudalint import ir
from cudalint.dataflow.precision import Fp64Region, find_fp64_regions

__all__ = ["Facts", "Fp64Region"]


class Facts:
    """Everything the rules may ask about one translation unit, computed on first use."""

    def __init__(self, tu: ir.TranslationUnit):
        self.tu = tu

    @cached_property
    def fp64_regions(self) -> tuple[Fp64Region, ...]:
        return tuple(find_fp64_regions(self.tu))

    def source_text(self, span: ir.Span, limit: int = 60) -> str:
        """The source of a one-line span, shortened for messages."""
        if span.file != self.tu.path or span.line != span.end_line or not 0 < span.line <= len(self.tu.source_lines):
            return ""
        text = self.tu.source_lines[span.line - 1][span.column - 1 : span.end_column - 1].strip()
        return text if len(text) <= limit else text[: limit - 3] + "..."

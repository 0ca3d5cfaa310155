"""Where device code computes in double precision without having asked for it.

An *fp64 region* is a maximal tree of double-typed operations. Its leaves say why it is
double: a float or integer value promoted by the language (implicit), an unsuffixed
literal, or data the author declared as double (intentional). Regions with any
intentional leaf, or whose result is stored into a double destination, are the
author's choice and are not reported.

Whether the compiler removes the fp64 work follows what NVVM does: a single ``+ - * /``,
``sqrt`` or comparison between a promoted float and a constant exactly representable
in float, whose result goes straight back to float, is computed in fp32. Anything
else (an inexact constant, a chain of two or more double operations, an integer
promoted to double, a double math function) runs on the fp64 units.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass, field

from cudalint import ir
from cudalint.dataflow.symbolic import COMPARISONS

MATH_FUNCTIONS = frozenset(
    """sqrt cbrt rsqrt rcbrt pow exp exp2 exp10 expm1 log log2 log10 log1p logb ilogb sin cos
    tan asin acos atan atan2 sinh cosh tanh asinh acosh atanh sinpi cospi sincos sincospi fabs
    floor ceil round trunc rint nearbyint lround llround lrint llrint fmod remainder remquo fmin
    fmax fdim fma hypot rhypot norm3d rnorm3d norm4d rnorm4d erf erfc erfinv erfcinv erfcx tgamma
    lgamma normcdf normcdfinv copysign ldexp frexp modf scalbn scalbln nextafter j0 j1 jn y0 y1 yn
    cyl_bessel_i0 cyl_bessel_i1 min max""".split()
)
# CUDA's min/max have no f-suffixed twins; the others do (powf, sqrtf, fminf...).
WITHOUT_FLOAT_VARIANT = frozenset(("min", "max"))
_NARROWABLE_BINARY = frozenset("+-*/")

_COMPOUND_ARITHMETIC = frozenset(("+=", "-=", "*=", "/="))
_FLOAT_KINDS = (ir.TypeKind.FLOAT, ir.TypeKind.HALF)
_DOUBLE_KINDS = (ir.TypeKind.DOUBLE, ir.TypeKind.LONG_DOUBLE)


def is_double(expr: ir.Expr) -> bool:
    return expr.type.kind in _DOUBLE_KINDS


def exactly_float(value: float) -> bool:
    """True when ``value`` survives a round trip through IEEE binary32 unchanged."""
    if not math.isfinite(value):
        return True
    try:
        return struct.unpack("f", struct.pack("f", value))[0] == value
    except OverflowError:
        return False


@dataclass
class Fp64Region:
    """One tree of double-precision operations in device code."""

    root: ir.Expr
    function: ir.Function
    operations: list[ir.Expr] = field(default_factory=list)
    literals: list[ir.Expr] = field(default_factory=list)
    promoted: list[ir.Expr] = field(default_factory=list)
    """Float or integer values the language converted to double (the converted operand)."""
    math_calls: list[ir.Expr] = field(default_factory=list)
    """Double math functions called with float arguments (``pow(float, double)``), and
    ``pow(float, int)``, which nvcc's headers resolve to the double ``pow``."""
    branch_constants: list[ir.Expr] = field(default_factory=list)
    """Literals that form a whole arm of a ternary: NVVM folds them to float."""
    conversions: list[ir.Expr] = field(default_factory=list)
    """Run-time conversions of the double result to ``__half``/``__nv_bfloat16`` (their
    constructors and ``operator=`` take double)."""
    intentional: list[ir.Expr] = field(default_factory=list)
    """Values the author declared or cast as double."""
    consumer: str = "double"
    """Where the result goes: ``float`` (straight back to float: a conversion, a float store,
    a comparison), ``other`` (an integer or bool), or ``double`` (a double destination the
    author chose: a double variable, parameter or return value)."""

    @property
    def is_implicit(self) -> bool:
        """Double precision nobody asked for: no double data, no double destination."""
        if self.intentional or self.consumer == "double":
            return False
        return bool(self.operations) and bool(self.promoted or self.conversions)

    @property
    def operation_count(self) -> int:
        return len(self.operations) + len(self.conversions)

    @property
    def headers_pick_double(self) -> bool:
        """The first math call is float-typed (``pow(float, int)``): nvcc's headers, not a
        double argument, resolve it to the double-precision function."""
        return bool(self.math_calls) and not is_double(self.math_calls[0])

    @property
    def double_literal(self) -> ir.Expr | None:
        """The literal that makes the region double, as written: an unsuffixed floating
        literal, one not exact in float first. An integer literal beside it (``1 + x * 0.5``)
        is only converted, and a literal clang computed inside a macro has no text to quote."""
        doubles = [
            lit for lit in self.literals if lit.kind is ir.ExprKind.FLOAT_LITERAL and is_double(lit) and lit.text
        ]
        inexact = [lit for lit in doubles if not _exact_literal(lit)]
        return (inexact or doubles or [None])[0]

    @property
    def double_literal_is_exact(self) -> bool:
        """``double_literal`` survives a round trip through float: writing it with an ``f``
        suffix changes no value."""
        literal = self.double_literal
        return literal is not None and _exact_literal(literal)

    @property
    def calls_with_float_variant(self) -> list[ir.Expr]:
        """The math calls whose single-precision function is their name with an ``f``
        (``powf`` for ``pow``); ``min`` and ``max`` have none, they are overloaded."""
        return [call for call in self.math_calls if (call.name or "") not in WITHOUT_FLOAT_VARIANT]

    @property
    def compiler_narrows(self) -> bool:
        """NVVM computes this region in fp32: one simple op, a promoted float, a float-exact constant."""
        if len(self.operations) != 1 or self.consumer != "float" or self.math_calls or self.conversions:
            return False
        if len(self.promoted) != 1:
            return False
        operation = self.operations[0]
        if operation.op in COMPARISONS and self.promoted[0].type.kind is ir.TypeKind.INTEGER:
            # An integer compared with a constant becomes an integer comparison.
            return len(self.literals) == 1
        if self.promoted[0].type.kind not in _FLOAT_KINDS:
            return False
        if operation.kind is ir.ExprKind.CALL:
            return operation.name in ("sqrt", "std::sqrt") and not self.literals
        if len(self.literals) != 1 or not isinstance(self.literals[0].value, float):
            return False
        simple = (
            operation.op in _NARROWABLE_BINARY or operation.op in COMPARISONS or operation.op in _COMPOUND_ARITHMETIC
        )
        return simple and exactly_float(self.literals[0].value)

    @property
    def float_constants_keep_code(self) -> bool:
        """Whether writing its constants as float (``0.5f``) leaves the machine code as it is:
        the compiler already computes the operation in fp32 on a promoted float. An integer
        compared with a constant is compared as an integer; against a float constant it
        would be converted to float first (and above 2^24 rounded)."""
        return self.compiler_narrows and self.promoted[0].type.kind in _FLOAT_KINDS


def _exact_literal(literal: ir.Expr) -> bool:
    return isinstance(literal.value, float) and exactly_float(literal.value)


class _RegionFinder:
    def __init__(self, function: ir.Function):
        self.function = function
        self.regions: list[Fp64Region] = []

    # A region starts at a double-typed node whose consumer is not itself a double operation.
    def visit(self, expr: ir.Expr, consumer: str = "double") -> None:
        if self._starts_region(expr):
            region = Fp64Region(root=expr, function=self.function, consumer=consumer)
            if expr.kind is ir.ExprKind.BINARY and expr.op in COMPARISONS:
                region.consumer = "float"
                region.operations.append(expr)
                for operand in expr.children:
                    self._gather(operand, region)
            elif expr.kind is ir.ExprKind.ASSIGN:
                region.consumer = "float"
                region.operations.append(expr)
                target, value = expr.children
                self._leaf(target, region, promoted=target.type.kind not in _DOUBLE_KINDS)
                self._gather(value, region)
            else:
                self._gather(expr, region)
            self.regions.append(region)
            return
        if expr.kind is ir.ExprKind.CALL and _converts_to_low_precision(expr):
            self._low_precision_conversion(expr)
            return
        if expr.kind is ir.ExprKind.CALL and _is_pow_float_int(expr):
            region = Fp64Region(root=expr, function=self.function, consumer="float")
            region.operations.append(expr)
            region.math_calls.append(expr)
            region.promoted.extend(c for c in expr.children if c.type.kind in _FLOAT_KINDS)
            self.regions.append(region)
            for child in expr.children:
                self.visit(child)
            return
        consumer = "double"
        if expr.kind is ir.ExprKind.CAST and expr.children and is_double(expr.children[0]):
            if expr.type.kind in _FLOAT_KINDS:
                consumer = "float"
            elif expr.type.kind not in _DOUBLE_KINDS:
                consumer = "other"
        for child in expr.children:
            self.visit(child, consumer)

    def _low_precision_conversion(self, call: ir.Expr) -> None:
        """``__half h = x * 0.5`` / ``h = 0.5``: the double reaches ``__double2half`` at run time."""
        for argument in call.children:
            if not is_double(argument):
                self.visit(argument)
                continue
            if argument.kind is ir.ExprKind.FLOAT_LITERAL:
                region = Fp64Region(root=argument, function=self.function, consumer="other")
                region.literals.append(argument)
            elif self._starts_region(argument):
                region = Fp64Region(root=argument, function=self.function, consumer="other")
                self._gather(argument, region)
            else:
                self.visit(argument)
                continue
            region.conversions.append(call)
            if not region.operations:
                region.operations.append(call)
            self.regions.append(region)

    def _starts_region(self, expr: ir.Expr) -> bool:
        if expr.kind is ir.ExprKind.BINARY and expr.op in COMPARISONS:
            return any(is_double(c) for c in expr.children)
        if expr.kind is ir.ExprKind.ASSIGN and expr.op in _COMPOUND_ARITHMETIC and len(expr.children) == 2:
            target = expr.children[0].type.kind
            return is_double(expr.children[1]) and (target in _FLOAT_KINDS or target is ir.TypeKind.INTEGER)
        return is_double(expr) and self._is_operation(expr)

    @staticmethod
    def _is_operation(expr: ir.Expr) -> bool:
        if expr.kind is ir.ExprKind.BINARY:
            return expr.op in _NARROWABLE_BINARY
        if expr.kind is ir.ExprKind.CALL:
            return _math_name(expr) is not None
        if expr.kind is ir.ExprKind.UNARY:
            return expr.op in ("-", "+")
        return expr.kind is ir.ExprKind.CONDITIONAL

    def _gather(self, expr: ir.Expr, region: Fp64Region) -> None:
        kind = expr.kind
        if kind is ir.ExprKind.BINARY and expr.op in _NARROWABLE_BINARY and is_double(expr):
            region.operations.append(expr)
            for child in expr.children:
                self._gather(child, region)
        elif kind is ir.ExprKind.CALL and is_double(expr) and _math_name(expr) is not None:
            region.operations.append(expr)
            for argument in expr.children:
                if argument.type.kind in _FLOAT_KINDS:
                    region.promoted.append(argument)
                    if expr not in region.math_calls:
                        region.math_calls.append(expr)
                    self.visit(argument)
                else:
                    self._gather(argument, region)
        elif kind is ir.ExprKind.UNARY and expr.op in ("-", "+") and is_double(expr):
            for child in expr.children:
                self._gather(child, region)
        elif kind is ir.ExprKind.CONDITIONAL and is_double(expr):
            condition, *branches = expr.children
            self.visit(condition)
            for branch in branches:
                constant = _literal_operand(branch)
                if constant is not None:
                    region.branch_constants.append(constant)
                else:
                    self._gather(branch, region)
        else:
            self._leaf(expr, region, promoted=False)

    def _leaf(self, expr: ir.Expr, region: Fp64Region, promoted: bool) -> None:
        if promoted:
            region.promoted.append(expr)
            self.visit(expr)
        elif expr.kind is ir.ExprKind.FLOAT_LITERAL and is_double(expr):
            region.literals.append(expr)
        elif expr.kind is ir.ExprKind.CAST and expr.children and not is_double(expr.children[0]):
            operand = expr.children[0]
            if expr.cast is not ir.CastKind.IMPLICIT:
                region.intentional.append(expr)
            elif operand.kind in (ir.ExprKind.INT_LITERAL, ir.ExprKind.FLOAT_LITERAL, ir.ExprKind.BOOL_LITERAL):
                region.literals.append(operand)
            else:
                region.promoted.append(operand)
            self.visit(operand)
        else:
            if is_double(expr):
                region.intentional.append(expr)
            self.visit(expr)


_LOW_PRECISION_RECORD = re.compile(r"(?:const\s+)?(?:__)?(?:half|nv_bfloat16)2?")


def _converts_to_low_precision(call: ir.Expr) -> bool:
    """A ``__half``/``__nv_bfloat16`` constructor or assignment fed a double."""
    if call.op != "construct" and not (call.name or "").startswith("operator"):
        return False
    if call.type.kind is not ir.TypeKind.RECORD or not _LOW_PRECISION_RECORD.fullmatch(call.type.spelling):
        return False
    return any(is_double(argument) for argument in call.children)


def _is_pow_float_int(call: ir.Expr) -> bool:
    """nvcc's headers send ``pow(float, int)`` to the double ``pow`` (clang's pick the float one)."""
    if (
        (call.name or "").removeprefix("std::") != "pow"
        or call.type.kind not in _FLOAT_KINDS
        or len(call.children) != 2
    ):
        return False
    base, exponent = call.children
    return base.type.kind in _FLOAT_KINDS and exponent.type.kind is ir.TypeKind.INTEGER


def _literal_operand(expr: ir.Expr) -> ir.Expr | None:
    """The literal behind an expression that is only a literal (possibly converted)."""
    expr = expr.unconverted
    return expr if expr.kind in (ir.ExprKind.FLOAT_LITERAL, ir.ExprKind.INT_LITERAL) else None


def _math_name(call: ir.Expr) -> str | None:
    name = (call.name or "").removeprefix("std::")
    return name if name in MATH_FUNCTIONS else None


def _expressions(function: ir.Function):
    if function.body is None:
        return
    for statement in function.body.walk():
        yield from statement.expressions()


def find_fp64_regions(tu: ir.TranslationUnit) -> list[Fp64Region]:
    """Every fp64 region in the device code of ``tu``, implicit or intentional."""
    regions = []
    for function in tu.device_functions():
        finder = _RegionFinder(function)
        for expr in _expressions(function):
            finder.visit(expr)
        regions.extend(finder.regions)
    return regions

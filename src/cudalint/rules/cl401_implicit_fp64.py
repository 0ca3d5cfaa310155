"""CL401 implicit-fp64: double-precision arithmetic in device code that nobody asked for.

The rule's documentation is its class docstring (docs/rules/CL401.md is generated from
it); this module holds what the rule reads of the facts and how it words a finding.
"""

from __future__ import annotations

from cudalint import ir
from cudalint.dataflow import Facts, Fp64Region
from cudalint.diagnostics import Edit, Finding, Fix, Level, Safety
from cudalint.rules import wording
from cudalint.rules.base import FactRule


class ImplicitFp64(FactRule):
    """Double-precision arithmetic in device code that nobody asked for.

    ## What it does
    Flags float computations that C++'s promotion rules turn into double precision:
    an unsuffixed literal (`x * 0.1`), a double math function called on float data
    (`pow(x, 2.5)`), or a comparison against a double constant (`fabsf(v) < 1e-6`).
    Code that works on declared `double` data, or stores the result in a `double`, is
    the author's choice and is not flagged.

    The level follows what the compiler really emits. `warning`: fp64 instructions
    are executed (the constant is not exact in float, two or more double operations
    are chained, an integer is promoted, or a double math function is called).
    `note`: a single `+ - * /`, `sqrt` or comparison with a constant that is exact in
    float, rounded straight back to float; the compiler computes it in fp32, but the
    source still says double.

    ## Why is this bad?
    GPUs execute fp64 at a fraction of the fp32 rate: 1/2 on H100 and A100, 1/32 or
    1/64 on GeForce and most workstation parts. Each promoted value also costs two
    conversions and twice the registers. One stray `0.5` in an inner loop can make a
    kernel several times slower on consumer GPUs.

    ## Example
    ```cuda
    __global__ void scale(float* out, const float* in, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = in[i] * 0.1;
    }
    ```

    ## Use instead
    ```cuda
    __global__ void scale(float* out, const float* in, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = in[i] * 0.1f;
    }
    ```

    ## Fix safety
    The fix suffixes the literals (`0.1f`) and calls the float math function (`powf`).
    - Safe for a `note` on float data: nvcc already computes that operation in fp32, so
      the generated code does not change; `cudalint check --fix` applies it.
    - Unsafe for a `warning`: the result is then rounded as fp32 instead of fp64 and
      may differ in its last bits (a threshold like `1e-6` becomes the nearest float);
      applied only with `--unsafe-fixes`, after deciding that float precision is what
      the code meant.
    - Unsafe for a `note` on an integer compared with a constant (`i < 0.5`): nvcc
      compares integers there, and against `0.5f` it would convert `i` to float first
      (rounding it above 2^24).

    ## References
    - CUDA C++ Best Practices Guide, "Promotions to Doubles and Truncations to Floats"
    - CUDA C++ Programming Guide, "Arithmetic Instructions" (throughput table)
    """

    code = "CL401"
    name = "implicit-fp64"
    category = "precision"
    default_level = Level.WARNING
    precision = "very-high"
    tags = ("performance", "precision")

    def check(self, facts: Facts):
        for region in facts.fp64_regions:
            if region.is_implicit:
                yield self._finding(facts, region)

    def _finding(self, facts: Facts, region: Fp64Region) -> Finding:
        narrows = region.compiler_narrows
        count = region.operation_count
        fixes = _edits(region)
        suggestion = " and ".join(f"`{e.replacement}`" for e in fixes) if fixes else None
        cause, anchor = _cause(facts, region)
        code = wording.code(facts.source_text(region.root.span), "this expression")
        if narrows:
            message = (
                f"{code} is written in double precision ({cause}); the compiler narrows this single "
                f"operation to fp32, but the source should say float"
            )
        else:
            message = f"{code} runs in double precision: {wording.count(count, 'fp64 operation')} ({cause})"
        if suggestion:
            message += f"; write {suggestion}"
        # Elsewhere the result is rounded as fp32 instead of fp64, or an integer is converted: it may change.
        safety = Safety.SAFE if region.float_constants_keep_code else Safety.UNSAFE
        fix = Fix("use single-precision literals and functions", tuple(fixes), safety) if fixes else None
        return self.finding(
            message,
            anchor.span,
            level=Level.NOTE if narrows else Level.WARNING,
            fix=fix,
            function=region.function.display_name,
            properties={"fp64Operations": 0 if narrows else count, "compilerNarrows": narrows},
        )


def _cause(facts: Facts, region: Fp64Region) -> tuple[str, ir.Expr]:
    if region.math_calls:
        call = region.math_calls[0]
        name = call.name or "the math function"
        if region.headers_pick_double:
            return f"nvcc resolves `{name}(float, int)` to the double-precision `{name}`", call
        return f"`{name}` on float arguments returns double", call
    literal = region.double_literal
    if region.conversions:
        target = region.conversions[0].type.spelling.removeprefix("const ")
        what = f"literal `{literal.text}`" if literal is not None else "a double value"
        return f"{what} is converted to `{target}` from double at run time", literal or region.root
    if literal is not None:
        exactness = "" if region.double_literal_is_exact else ", not exact in float"
        return f"unsuffixed literal `{literal.text}` is a double{exactness}", literal
    if not region.promoted:
        return "a value promoted to double", region.root
    promoted = region.promoted[0]
    what = "an integer" if promoted.type.kind is ir.TypeKind.INTEGER else "a float"
    return f"{what} promoted to double", region.root


def _edits(region: Fp64Region) -> list[Edit]:
    edits = []
    for literal in region.literals + region.branch_constants:
        if literal.kind is ir.ExprKind.FLOAT_LITERAL and literal.text and not literal.span.from_macro:
            if literal.text[-1] not in "fFlL":
                edits.append(Edit(literal.span, literal.text + "f"))
    for call in region.calls_with_float_variant:
        name = call.name or ""
        if name.isidentifier() and not call.span.from_macro:
            span = call.span
            literal = ir.Span(span.file, span.line, span.column, span.line, span.column + len(name))
            edits.append(Edit(literal, name + "f"))
    return edits

"""Compile-time constants reach the IR, the interpreter and the register analyses: names
the language makes constant carry their value, whatever they are spelled through."""

from __future__ import annotations

import pytest

from conftest import HEADER_MODES
from cudalint import ir
from cudalint.dataflow import Facts

SOURCE = """
#include <mma.h>
using namespace nvcuda;

template <typename T> struct Traits { static const int kItems = 16 / sizeof(T); };
struct Shape { static constexpr int kRows = 3; enum { kCols = 5 }; };
__host__ __device__ constexpr int twice(int v) { return 2 * v; }
constexpr int kGlobal = 7;
__device__ int mutable_global = 9;
struct Base { float x[3]; };
struct Empty {};
struct Derived : Empty, Base { int tail; };

__global__ void k(float* out, const int n, int m) {
    const int local = 11;
    const int runtime = threadIdx.x;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    Derived d;
    out[0] = Traits<float>::kItems;
    out[1] = Traits<double>::kItems;
    out[2] = Shape::kRows * Shape::kCols;
    out[3] = twice(kGlobal);
    out[4] = twice(m);
    out[5] = local + runtime + n + mutable_global;
    out[6] = acc.num_elements + a.num_elements;
    out[7] = d.x[2];
}
"""


@pytest.fixture(scope="module", params=["embedded", "toolkit"])
def unit(request, snippets):
    if request.param not in HEADER_MODES:
        pytest.skip("no CUDA toolkit")
    return snippets.unit(SOURCE, "constants.cu", header_mode=request.param)


def _stores(tu: ir.TranslationUnit) -> dict[int, ir.Expr]:
    """The right-hand side of each ``out[i] = ...`` by i."""
    kernel = next(f for f in tu.functions if f.name == "k")
    found = {}
    for stmt in kernel.body.walk():
        expr = stmt.expr
        if expr is not None and expr.kind is ir.ExprKind.ASSIGN and expr.children[0].kind is ir.ExprKind.SUBSCRIPT:
            index = expr.children[0].children[1]
            found[index.value] = expr.children[1]
    return found


def _named(expr: ir.Expr) -> dict[str, int | None]:
    return {
        node.name: node.value
        for node in expr.walk()
        if node.kind in (ir.ExprKind.DECL_REF, ir.ExprKind.MEMBER, ir.ExprKind.CALL) and node.name
    }


def test_named_constants_carry_their_value(unit):
    assert not unit.errors, unit.errors
    stores = _stores(unit)
    assert _named(stores[0])["kItems"] == 4
    assert _named(stores[1])["kItems"] == 2
    assert _named(stores[2]) == {"kRows": 3, "kCols": 5}
    assert _named(stores[3]) == {"twice": 14, "kGlobal": 7}


def test_values_known_only_at_run_time_stay_unknown(unit):
    stores = _stores(unit)
    assert _named(stores[4])["twice"] is None  # twice(m): m is a parameter
    names = _named(stores[5])
    assert names["local"] == 11
    assert names["runtime"] is None and names["n"] is None and names["mutable_global"] is None


def test_fragment_element_counts(unit):
    counts = sorted(node.value for node in _stores(unit)[6].walk() if node.name == "num_elements")
    assert counts == [8, 16]  # accumulator: 8 floats; half matrix_a: 16 halves


def test_fields_of_base_classes_have_their_offsets(unit):
    derived = next(r for name, r in unit.records.items() if name.endswith("Derived"))
    assert [(f.name, f.offset) for f in derived.fields] == [("x", 0), ("tail", 12)]


def test_interpreter_and_registers_see_the_constants(unit):
    kernel = next(k for k in Facts(unit).kernels if k.function.name == "k")
    offsets = {str(a.location.offset) for a in kernel.trace.accesses if a.location.base == "out"}
    assert offsets == {str(4 * i) for i in range(8)}
    # No load of `acc` or `a` for their num_elements: a static member names no memory.
    assert not [a for a in kernel.trace.accesses if a.location.base in ("acc", "a")]
    contributors = {c.what.split()[-1]: c.registers for c in kernel.register_estimate.contributors}
    assert contributors["acc"] == 8 and contributors["a"] == 8  # two halves a register

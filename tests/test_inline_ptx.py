"""Inline PTX: the instruction text and operands read from the source, the memory
instructions decoded from the text, the ldmatrix bank model, and the forms of writing the
shared address that CL201 follows (the measured kernels are in tests/corpus/shared)."""

from __future__ import annotations

import re

import pytest

from cudalint.dataflow.banks import request_wavefronts, worst_collision
from cudalint.dataflow.ptx import memory_instructions
from cudalint.frontend.lower.statements import asm_parts


def tokens(text: str) -> list[str]:
    """The spellings libclang gives: string literals whole, `::` as one token."""
    return re.findall(r'"(?:\\.|[^"\\])*"|::|\w+|[^\s\w]', text)


def test_asm_parts_read_text_and_constraints():
    written = tokens(
        'asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "r"(addr));'
    )
    assert asm_parts(written) == ("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];", ["=r", "=r", "r"])
    # C++ lexes `::` as one token: no outputs, then the inputs.
    inputs_only = tokens('asm volatile ( "cp.async.cg.shared.global [%0], [%1], 16;\\n" :: "r" ( d ) , "l" ( s ) ) ;')
    assert asm_parts(inputs_only) == ("cp.async.cg.shared.global [%0], [%1], 16;\n", ["r", "l"])
    # Pieces of the text are joined; named operands and clobbers are skipped.
    named = tokens(
        '__asm__ ( "ld.shared.v2.u32 {%0, %1}, " "[%2];" : "=r" ( x ) , "=r" ( y ) : [ p ] "r" ( a ) : "memory" )'
    )
    assert asm_parts(named) == ("ld.shared.v2.u32 {%0, %1}, [%2];", ["=r", "=r", "r"])
    assert asm_parts(tokens("LDMATRIX_X4 ( a , b , c , d , addr )")) is None


@pytest.mark.parametrize(
    "text, constants, expected",
    [
        ("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];", {}, ("ldmatrix.x4", False, 4, 0, 16, 4)),
        (
            "ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 {%0, %1}, [%2];",
            {},
            ("ldmatrix.x2.trans", False, 2, 0, 16, 2),
        ),
        ("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};", {}, ("stmatrix.x1", True, 0, 0, 16, 1)),
        ("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;", {2: 16}, ("cp.async.cg", True, 0, 0, 16, 0)),
        ("cp.async.ca.shared::cta.global [%0], [%1], 8;", {}, ("cp.async.ca", True, 0, 0, 8, 0)),
        ("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4+16];", {}, ("ld.shared.v4", False, 4, 16, 16, 0)),
        ("st.shared.b16 [%0], %1;", {}, ("st.shared", True, 0, 0, 2, 0)),
    ],
)
def test_memory_instructions(text, constants, expected):
    (found,) = memory_instructions(text, constants)
    assert (found.name, found.store, found.address, found.displacement, found.bytes, found.matrices) == expected


def test_instructions_not_modelled():
    assert memory_instructions("cp.async.cg.shared.global [%0], [%1], %2;", {}) == []  # size unknown
    assert memory_instructions("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0, %1}, [%2];", {}) == []
    assert memory_instructions("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0}, {%1}, {%2}, {%3};", {}) == []
    (zero_filled,) = memory_instructions("cp.async.cg.shared.global [%0], [%1], 16, %2;", {})
    assert zero_filled.zero_fill and zero_filled.source == 1


def matrix_rows(row_bytes: int, matrices: int) -> list[int | None]:
    """The lanes' row addresses of ``&tile[lane % 16][(lane / 16) * 8]`` for a half tile with
    rows ``row_bytes`` long; lanes past the matrices' rows give none."""
    return [(lane % 16) * row_bytes + (lane // 16) * 16 if lane < 8 * matrices else None for lane in range(32)]


@pytest.mark.parametrize(
    "row_bytes, matrices, taken, ideal",
    [
        (64, 4, 16, 4),  # rows 0, 2, 4, 6 share a bank group: 4 per matrix
        (64, 2, 8, 2),
        (64, 1, 4, 1),
        (32, 4, 8, 4),  # rows r and r + 4
        (128, 4, 32, 4),  # every row in one bank group
        (16, 4, 4, 4),  # rows packed one after another
        (80, 4, 4, 4),  # padded by 16 bytes
    ],
)
def test_ldmatrix_wavefronts(row_bytes, matrices, taken, ideal):
    cost = request_wavefronts(matrix_rows(row_bytes, matrices), 16, matrix=True)
    assert (cost.taken, cost.ideal) == (taken, ideal)


def test_permuted_rows_are_conflict_free():
    request = [(lane % 16) * 64 + ((lane // 16 + (lane % 16 % 8) // 2) % 4) * 16 for lane in range(32)]
    cost = request_wavefronts(request, 16, matrix=True)
    assert (cost.taken, cost.ideal) == (4, 4)


def test_collision_names_the_rows():
    collision = worst_collision([matrix_rows(64, 4)], 16, matrix=True)
    assert (collision.lanes, collision.bank, collision.banks, collision.wavefronts) == ((0, 2, 4, 6), 0, 4, 4)
    assert worst_collision([matrix_rows(80, 4)], 16, matrix=True) is None


HELPER = """
    #include <cuda_fp16.h>
    #include <stdint.h>
    __device__ void ldsm_x4(uint32_t& r0, uint32_t& r1, uint32_t& r2, uint32_t& r3, uint32_t addr) {
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
    }
    __device__ uint32_t smem_address(const void* p) {
        uint32_t a;
        asm("{ .reg .u64 u; cvta.to.shared.u64 u, %1; cvt.u32.u64 %0, u; }" : "=r"(a) : "l"(p));
        return a;
    }
    __global__ void k(uint32_t* out) {
        __shared__ __align__(16) half tile[64][TILE_WIDTH];
        unsigned lane = threadIdx.x % 32;
        uint32_t r0, r1, r2, r3;
        uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[lane % 16][0]));
        ldsm_x4(r0, r1, r2, r3, base + (lane / 16) * 16);
        uint32_t s0, s1;
        asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(s0), "=r"(s1) : "r"(smem_address(&tile[lane][0])));
        out[threadIdx.x] = r0 + r1 + r2 + r3 + s0 + s1;
    }
    void go(uint32_t* out) { k<<<1, 32>>>(out); }
"""


def test_addresses_through_helpers_and_cvta(snippets):
    conflicting = snippets.findings("#define TILE_WIDTH 32\n" + HELPER, ["CL201"])
    ldmatrix, vector = (f.message for f in sorted(conflicting, key=lambda f: f.span.line))
    # ldmatrix in a helper, the address stepped by 16 bytes as an integer: 64-byte rows, 4x.
    assert "`ldmatrix.x4` reads 8 rows of 16 bytes per matrix; rows 0, 2, 4 and 6 share banks 0-3" in ldmatrix
    assert ldmatrix.startswith("4-way")
    # ld.shared.v2 through cvta.to.shared: lanes a 64-byte row apart, 8 bytes each: 8-way.
    assert "`ld.shared.v2` reads 8 bytes per lane, 16 lanes per wavefront" in vector and vector.startswith("8-way")
    # Rows padded to 80 bytes: the ldmatrix is conflict-free.
    padded = snippets.findings("#define TILE_WIDTH 40\n" + HELPER, ["CL201"])
    assert not [f for f in padded if "ldmatrix" in f.message]

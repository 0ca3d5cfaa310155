"""The shared-memory wavefront model against every figure the H100 measured for it.

Each row is one kernel of bench/realcode/probes/shared_widths.cu: the lanes' addresses
written out as a function of (threadIdx.x, threadIdx.y), the word size, the block, and
the wavefronts per request and the conflict-free ("ideal") wavefronts per request that
Nsight Compute counted on that line (its sums over all warps, divided by the warps). The
table is checked against the probe's sidecar, so it cannot drift from the measurement.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cudalint.dataflow import MemorySpace
from cudalint.dataflow.banks import Wavefronts, block_cost, request_wavefronts
from cudalint.dataflow.threads import BlockShape

PROBE = Path(__file__).resolve().parent.parent / "bench" / "realcode" / "probes" / "shared_widths.cu"
GRID = 8  # every probe kernel runs 8 blocks

# (probe line, word bytes, block, element index of lane (tx, ty), wavefronts/request, ideal/request)
MEASURED = [
    # 8-byte words (double)
    (19, 8, (128, 1), lambda x, y: x, 2, 2),  # contiguous
    (26, 8, (128, 1), lambda x, y: x + 1, 2, 2),  # offset by one
    (33, 8, (128, 1), lambda x, y: 2 * x, 4, 2),  # stride 2: 2-way
    (40, 8, (128, 1), lambda x, y: 3 * x, 2, 2),  # stride 3
    (47, 8, (128, 1), lambda x, y: 16 * x, 32, 2),  # stride 16: 16-way
    (54, 8, (128, 1), lambda x, y: 17 * x, 2, 2),  # stride 17
    (62, 8, (128, 1), lambda x, y: x // 2, 1, 1),  # two lanes per address
    (70, 8, (128, 1), lambda x, y: (x // 16) * 5, 1, 1),  # one address per half warp
    (78, 8, (128, 1), lambda x, y: x ^ 1, 2, 2),  # neighbours swapped
    (86, 8, (128, 1), lambda x, y: x % 16 + (x // 16) * 32, 2, 2),  # two runs of 16
    (94, 8, (16, 16), lambda x, y: y * 16 + x, 2, 2),  # [16][16] row
    (101, 8, (16, 16), lambda x, y: x * 16 + y, 32, 2),  # [16][16] column: 16 per half warp
    (108, 8, (16, 16), lambda x, y: x * 17 + y, 2, 2),  # [16][17] column
    (115, 8, (16, 16), lambda x, y: (y + 1) * 18 + x + 1, 2, 2),  # [18][18] halo
    (123, 8, (16, 16), lambda x, y: (y % 8) * 8 + x % 8, 2, 2),  # [8][8] read by 16x16
    (131, 8, (16, 16), lambda x, y: 256 + y * 16 + x, 2, 2),  # plane of [4][16][16]
    # 8-byte float2, 16-byte float4
    (140, 8, (128, 1), lambda x, y: 2 * x, 4, 2),
    (147, 16, (128, 1), lambda x, y: x, 4, 4),
    (154, 16, (128, 1), lambda x, y: x + 1, 4, 4),
    (161, 16, (128, 1), lambda x, y: 2 * x, 8, 4),
    (168, 16, (128, 1), lambda x, y: 8 * x, 32, 4),
    (175, 16, (128, 1), lambda x, y: (x // 8) * 3, 2, 2),  # one address per quarter warp
    # 4-byte words
    (184, 4, (128, 1), lambda x, y: 2 * x, 2, 1),
    (191, 4, (128, 1), lambda x, y: 32 * x, 32, 1),
    # 1- and 2-byte words
    (211, 1, (128, 1), lambda x, y: x, 1, 1),
    (218, 1, (128, 1), lambda x, y: 4 * x, 1, 1),
    (225, 1, (128, 1), lambda x, y: 8 * x, 2, 1),
    (232, 1, (128, 1), lambda x, y: 128 * x, 32, 1),
    (239, 2, (128, 1), lambda x, y: 2 * x, 1, 1),
    (246, 2, (128, 1), lambda x, y: 64 * x, 32, 1),
]


def _requests(block: tuple[int, int], element, size: int) -> list[list[int | None]]:
    shape = BlockShape(*block)
    return [[element(x, y) * size for x, y, _ in shape.lane_coordinates(warp)] for warp in range(shape.warps())]


@pytest.mark.parametrize("line, size, block, element, wavefronts, ideal", MEASURED, ids=[str(r[0]) for r in MEASURED])
def test_model_reproduces_the_measured_wavefronts(line, size, block, element, wavefronts, ideal):
    cost = block_cost(_requests(block, element, size), size)
    assert (cost.per_request, cost.ideal_per_request) == (wavefronts, ideal)


@pytest.mark.parametrize("line, size, block, element, wavefronts, ideal", MEASURED, ids=[str(r[0]) for r in MEASURED])
def test_table_is_what_the_probe_measured(line, size, block, element, wavefronts, ideal):
    sidecar = json.loads(PROBE.with_name(PROBE.name + ".lines.json").read_text())
    figures = dict(zip(sidecar["columns"], sidecar["lines"][str(line)], strict=False))
    warps = GRID * BlockShape(*block).warps()
    assert (figures["swf"] / warps, figures["sideal"] / warps) == (wavefronts, ideal)


def test_lanes_that_do_not_run_leave_their_phase_empty():
    # 8-byte words, lanes 0-7 and 16-23 running (an 8x8 tile written by a 16x16 block):
    # two half-warp phases of one wavefront each, for data that fills one.
    request = [8 * (lane % 16 + 8 * (lane // 16)) if lane % 16 < 8 else None for lane in range(32)]
    assert request_wavefronts(request, 8) == Wavefronts(2, 1, 1)
    assert request_wavefronts([None] * 32, 8) == Wavefronts()


def test_widened_phases_that_run_are_one_wavefront_each():
    # 16-byte words, lanes 0-7 reading one address and lanes 16-23 another, a row of 128
    # bytes further (one bank group): two half-warp phases, two wavefronts, and the H100
    # counts them as the ideal (a real program's LDS.128 of this shape measured 1x).
    request = [0 if lane < 8 else 128 if 16 <= lane < 24 else None for lane in range(32)]
    assert request_wavefronts(request, 16) == Wavefronts(2, 2, 1)


def test_a_conflict_in_some_warps_is_averaged_over_the_block():
    # Warp 0 reads a column of a [32][32] float tile (32-way), warp 1 a row (conflict-free).
    column = [4 * 32 * lane for lane in range(32)]
    row = [4 * lane for lane in range(32)]
    cost = block_cost([column, row], 4)
    assert (cost.taken, cost.ideal, cost.ratio) == (33, 2, 16.5)


# A 3-D stencil (float [16][16][16], 8x8x8 blocks): rows y and y + 2 of a warp share banks.
# Threads past the domain's edge exit before the read; the launch gives the edge.
EDGE_STENCIL = """
__global__ void stencil(float* v, const float* u, int edge) {
    __shared__ float s[16][16][16];
    int ti = threadIdx.z, tj = threadIdx.y, tk = threadIdx.x;
    int i = blockIdx.z * 8 + ti, j = blockIdx.y * 8 + tj, k = blockIdx.x * 8 + tk;
    s[ti + 4][tj + 4][tk + 4] = u[(i * 16 + j) * 16 + k];
    __syncthreads();
    if (i >= edge || j >= edge || k >= edge) return;
    v[(i * 16 + j) * 16 + k] = s[ti + 4][tj + 4][tk + 4];
}
void run(float* v, const float* u) { stencil<<<dim3(GRID, GRID, GRID), dim3(8, 8, 8)>>>(v, u, EDGE); }
"""


def _stencil_read(snippets, grid: int, edge: int):
    source = EDGE_STENCIL.replace("GRID", str(grid)).replace("EDGE", str(edge))
    facts = snippets.facts(source, f"stencil_{grid}_{edge}.cu")
    (kernel,) = facts.kernels
    return next(p for a, p in kernel.accesses if a.space is MemorySpace.SHARED and a.span.line == 8)


@pytest.mark.parametrize(
    "grid, edge, wavefronts",
    [
        (2, 16, 2.0),  # every warp runs whole: 2-way everywhere
        (2, 10, round(100 / 60, 2)),  # 40 warps of whole rows (2 each), 20 of rows y < 2 (1 each)
        # 6 blocks an axis, the last with rows y < 2: per plane, 10 warps of whole rows and 1 of two rows
        (6, 42, round((10 * 2 + 1) / 11, 2)),
    ],
)
def test_edge_blocks_of_the_launch_are_costed_with_the_rest(snippets, grid, edge, wavefronts):
    pattern = _stencil_read(snippets, grid, edge)
    assert round(pattern.wavefronts, 2) == wavefronts
    assert pattern.ideal_wavefronts == 1


# The last merge of a bitonic sort: trips j = 1 .. 16 are 2-way, j = 32 .. 128 conflict-free.
MERGE = """
__global__ void merge(unsigned* out, const unsigned* in) {
    __shared__ unsigned s[256];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    s[t + 128] = in[t + 128];
    __syncthreads();
    PRAGMA
    for (unsigned j = 128; j > 0; j >>= 1) {
        unsigned pos = 2 * t - (t & (j - 1));
        unsigned a = s[pos];
        __syncthreads();
        s[pos + j] = a;
        __syncthreads();
    }
    out[t] = s[t];
}
void run(unsigned* out, const unsigned* in) { merge<<<64, 128>>>(out, in); }
"""


@pytest.mark.parametrize(
    "pragma, wavefronts, trips",
    [
        ("", 2.0, (1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0)),  # unrolled: a trip is an instruction
        ("#pragma unroll 1", 13 / 8, ()),  # rolled: one instruction sums every trip
    ],
)
def test_trips_of_an_unrolled_loop_are_judged_apart(snippets, pragma, wavefronts, trips):
    facts = snippets.facts(MERGE.replace("PRAGMA", pragma), "merge_unrolled.cu" if not pragma else "merge_rolled.cu")
    (kernel,) = facts.kernels
    pattern = next(p for a, p in kernel.accesses if a.space is MemorySpace.SHARED and a.span.line == 10)
    assert (pattern.wavefronts, pattern.ideal_wavefronts) == (wavefronts, 1)
    assert sorted(pattern.trip_degrees) == sorted(trips)

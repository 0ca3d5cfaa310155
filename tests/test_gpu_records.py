"""The access corpus's hardware records are present, well-formed and say what the hardware did.

Every kernel launch in tests/corpus/access has a ``// launch:`` line and, right under it,
a ``// measured:`` line that scripts/measure_gpu.py wrote from an Nsight Compute run
(CI has no GPU: these tests read the recorded numbers only). The expected verdicts
below are the ones the Hopper GPU gave; a record that is missing, mangled, copied to
the wrong kernel or taken from a different access pattern fails here. Tests that
compare cudalint's own predictions with these records live elsewhere.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from conftest import load_script

ROOT = Path(__file__).resolve().parent.parent
ACCESS = ROOT / "tests" / "corpus" / "access"
MIN_LAUNCHES = 40


measure = load_script("measure_gpu")

FILES = sorted(ACCESS.glob("*.cu"))


@cache
def launches_of(path: Path):
    return tuple(measure.collect(path, use_frontend=False))


def all_launches():
    return [launch for path in FILES for launch in launches_of(path)]


def _id(launch) -> str:
    return f"{launch.path.stem}:{launch.kernel}"


# Kernels written for the hardware whose "measured:" lines scripts/measure_gpu.py --write
# has not added yet. Their expectations below say what the hardware should show; once a
# record is written, its kernel leaves this set and every check applies to it.
PENDING: set[str] = set()
ALL_LAUNCHES = all_launches()
LAUNCHES = [launch for launch in ALL_LAUNCHES if launch.kernel not in PENDING]

# --------------------------------------------------------------------------- verdicts
# What the hardware measured (ncu 2025.3.1, Hopper): a value per key; keys left out
# take DEFAULTS. None: the kernel has no access of that class ("-"). A (low, high)
# pair: a range, where the figure depends on nvcc's code around the access (loops,
# predicated-off instructions) rather than on the access pattern.
DEFAULTS = {
    "gst_sectors_per_request": 4.0,
    "shld_wavefronts_per_request": None,
    "shst_wavefronts_per_request": None,
    "gld_requests_per_warp": 1.0,
    "gst_requests_per_warp": 1.0,
    "branch_divergent_targets": 0,
    "pred_on_ratio": 32.0,
}
SHARED_DEFAULTS = {"shld_requests_per_warp": 1.0, "shst_requests_per_warp": 1.0, "gld_sectors_per_request": 4.0}
CF_DIVERGENT = {"gld_sectors_per_request": 4.0, "pred_on_ratio": (16.0, 29.0), "branch_divergent_targets": (1, 1 << 30)}
CF_UNIFORM = {"gld_sectors_per_request": 4.0, "pred_on_ratio": (29.0, 32.0)}
LOOP = (28.0, 32.0)

EXPECTED: dict[str, dict[str, float | None]] = {
    # global loads, 4-byte elements
    "gl_contiguous": {"gld_sectors_per_request": 4},
    "gl_misaligned": {"gld_sectors_per_request": 5},
    "gl_stride2": {"gld_sectors_per_request": 8},
    "gl_stride32": {"gld_sectors_per_request": 32},
    "gl_stride_param": {"gld_sectors_per_request": 4},
    "gl_stride_param4": {"gld_sectors_per_request": 16},
    "gl_broadcast": {"gld_sectors_per_request": 1},
    "gl_half_index": {"gld_sectors_per_request": 2},
    "gl_ptr_block": {"gld_sectors_per_request": 4},
    "gl_ptr_offset": {"gld_sectors_per_request": 5},
    "gl_ptr_offset32": {"gld_sectors_per_request": 4},
    # global stores
    "gs_misaligned": {"gld_sectors_per_request": 4, "gst_sectors_per_request": 5},
    "gs_stride2": {"gld_sectors_per_request": 4, "gst_sectors_per_request": 8},
    "gs_stride32": {"gld_sectors_per_request": 4, "gst_sectors_per_request": 32},
    "gs_stride_param": {"gld_sectors_per_request": 4, "gst_sectors_per_request": 16},
    # 2-D, lane/warp, loops
    "g2_transposed": {"gld_sectors_per_request": 32},
    "g2_row_major": {"gld_sectors_per_request": 4},
    "g2_lane_warp": {"gld_sectors_per_request": 4},
    "g2_lane_warp_transposed": {"gld_sectors_per_request": 32},
    "g2_grid_stride": {
        "gld_sectors_per_request": 4,
        "gld_requests_per_warp": 8,
        "gst_requests_per_warp": 8,
        "pred_on_ratio": LOOP,
    },
    "g2_chunk": {"gld_sectors_per_request": 32, "gld_requests_per_warp": 8, "pred_on_ratio": LOOP},
    # helpers, macros, template constants
    "gi_helper": {"gld_sectors_per_request": 8},
    "gi_macro": {"gld_sectors_per_request": 16},
    "gi_template_stride<1>": {"gld_sectors_per_request": 4},
    "gi_template_stride<8>": {"gld_sectors_per_request": 32},
    # element types and AoS fields
    "gt_float2": {"gld_sectors_per_request": 8},
    "gt_float4": {"gld_sectors_per_request": 16},
    "gt_float4_x": {"gld_sectors_per_request": 16},
    "gt_struct3_y": {"gld_sectors_per_request": 12},
    "gt_double": {"gld_sectors_per_request": 8},
    "gt_char": {"gld_sectors_per_request": 1},
    # shared memory: wavefronts per request
    "sm_contiguous": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 1, "shst_wavefronts_per_request": 1},
    "sm_stride2": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 2, "shst_wavefronts_per_request": 2},
    "sm_stride32": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 32, "shst_wavefronts_per_request": 32},
    "sm_stride33": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 1, "shst_wavefronts_per_request": 1},
    "sm_broadcast": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 1, "shst_wavefronts_per_request": 1},
    "sm_tile32": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 32, "shst_wavefronts_per_request": 1},
    "sm_tile33": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 1, "shst_wavefronts_per_request": 1},
    # 8-byte and 16-byte lanes: 256 and 512 bytes take 2 and 4 wavefronts, no conflict counted
    "sm_double": {
        **SHARED_DEFAULTS,
        "gld_sectors_per_request": 8,
        "shld_wavefronts_per_request": 2,
        "shst_wavefronts_per_request": 2,
        "bank_conflicts_ld": 0,
        "bank_conflicts_st": 0,
    },
    "sm_char": {
        **SHARED_DEFAULTS,
        "gld_sectors_per_request": 1,
        "shld_wavefronts_per_request": 1,
        "shst_wavefronts_per_request": 1,
    },
    "sm_float4": {
        **SHARED_DEFAULTS,
        "gld_sectors_per_request": 16,
        "shld_wavefronts_per_request": 4,
        "shst_wavefronts_per_request": 4,
        "bank_conflicts_ld": 0,
        "bank_conflicts_st": 0,
    },
    "sm_aos3": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 1, "shst_wavefronts_per_request": 1},
    "sm_aos4": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 4, "shst_wavefronts_per_request": 4},
    # The reduction mixes strides; only thread 0 of the block's first warp stores to global.
    "sm_reduce_interleaved": {
        "gld_sectors_per_request": 4,
        "gst_sectors_per_request": 1,
        "gst_requests_per_warp": 0.25,
    },
    # control flow
    "cf_odd_lanes": CF_DIVERGENT,
    "cf_half_warp": CF_DIVERGENT,
    "cf_warp_uniform": CF_UNIFORM,
    "cf_row_parity_16x16": CF_DIVERGENT,
    "cf_row_parity_32x8": CF_UNIFORM,
}
# Branches that part a warp's threads: divergent targets recorded; warp-uniform ones: none.
DIVERGENT = {"cf_odd_lanes", "cf_half_warp", "cf_row_parity_16x16"}
UNIFORM = {"cf_warp_uniform", "cf_row_parity_32x8"}
# Kernels whose expected values above are partial (their shared figures average over
# several access patterns).
MIXED = {"sm_reduce_interleaved"}

# Everyday kernels (realworld_global.cu, more_shared.cu, more_control.cu).
EXPECTED.update(
    {
        # matrix-vector: the A load and the warp-uniform x[j] (1 sector) average per iteration
        "rw_mv_thread_per_row": {"gld_sectors_per_request": 16.5, "gld_requests_per_warp": 128, "pred_on_ratio": LOOP},
        "rw_mv_warp_per_row": {"gld_sectors_per_request": 4, "gld_requests_per_warp": 16, "pred_on_ratio": LOOP},
        "rw_mv_thread_per_column": {
            "gld_sectors_per_request": 2.5,
            "gld_requests_per_warp": 128,
            "pred_on_ratio": LOOP,
        },
        "rw_transpose_naive": {"gld_sectors_per_request": 4, "gst_sectors_per_request": 32},
        "rw_transpose_read_strided": {"gld_sectors_per_request": 32},
        # stencils: the shifted loads straddle one more sector
        "rw_stencil_1d": {"gld_sectors_per_request": 4.67, "gld_requests_per_warp": 3},
        "rw_stencil_2d": {"gld_sectors_per_request": 4.8, "gld_requests_per_warp": 5},
        # the RED of atomicAdd is in neither gld nor gst
        "rw_histogram_atomic": {"gld_sectors_per_request": 4},
        "rw_particles_aos_x": {"gld_sectors_per_request": 24},
        "rw_particles_soa_x": {"gld_sectors_per_request": 4},
        "rw_float2_y": {"gld_sectors_per_request": 8},
        "rw_double2": {"gld_sectors_per_request": 16},
        # zero-filled idx: a[idx[i]] is a broadcast (1 sector) next to the coalesced idx[i] (4)
        "rw_gather_identity": {"gld_sectors_per_request": 2.5, "gld_requests_per_warp": 2},
        # reductions: nvcc predicates the loop body, so every warp issues every LDS/STS
        # (17 and 9 a warp) and most move nothing: per-instruction wavefronts fall below 1
        "ms_reduce_sequential": {
            "gld_sectors_per_request": 4,
            "gst_sectors_per_request": 4,
            "shld_wavefronts_per_request": 0.24,
            "shst_wavefronts_per_request": 0.28,
            "shld_requests_per_warp": 17,
            "shst_requests_per_warp": 9,
            "bank_conflicts_ld": 0,
            "bank_conflicts_st": 0,
            "branch_divergent_targets": 0,
        },
        "ms_reduce_interleaved_guarded": {
            "gld_sectors_per_request": 4,
            "gst_sectors_per_request": 4,
            "shld_wavefronts_per_request": 0.75,
            "shst_wavefronts_per_request": 0.76,
            "shld_requests_per_warp": 17,
            "shst_requests_per_warp": 9,
            "bank_conflicts_ld": 17920,
            "bank_conflicts_st": 8960,
            "branch_divergent_targets": 0,
        },
        "ms_transpose_tile32": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 32, "shst_wavefronts_per_request": 1},
        "ms_transpose_tile33": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 1, "shst_wavefronts_per_request": 1},
        "ms_dynamic_stride2": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 2, "shst_wavefronts_per_request": 2},
        "ms_struct2_x": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 2, "shst_wavefronts_per_request": 2},
        "ms_stride4_block64": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 4, "shst_wavefronts_per_request": 4},
        # control flow
        "mc_thread_trip_count": CF_DIVERGENT,
        # four ways a warp: 3 divergent targets a warp, about 10 of 32 lanes on
        "mc_switch_lane": {**CF_DIVERGENT, "pred_on_ratio": (8.0, 16.0)},
        # zero-filled data: the data-dependent branch is never taken
        "mc_data_branch": CF_UNIFORM,
        "mc_guard_exact": CF_UNIFORM,
        # the tail guard is a predicated EXIT: no divergent branch target
        "mc_guard_tail": CF_UNIFORM,
        "mc_select": CF_UNIFORM,
        "mc_block_uniform_loop": {"gld_sectors_per_request": 4.0, "pred_on_ratio": LOOP},
    }
)

# Warp shapes (warp_shapes.cu): a row's broadcast costs a sector per row the warp spans;
# channel-by-channel stores cost a sector per lane's element; 16-bank paddings conflict.
EXPECTED.update(
    {
        "ws_row_broadcast_16x16": {"gld_sectors_per_request": 2, "gld_requests_per_warp": 128, "pred_on_ratio": LOOP},
        "ws_row_broadcast_8x32": {"gld_sectors_per_request": 4, "gld_requests_per_warp": 128, "pred_on_ratio": LOOP},
        "ws_row_broadcast_4x64": {
            "gld_sectors_per_request": 8,
            "gst_sectors_per_request": 8,
            "gld_requests_per_warp": 128,
            "pred_on_ratio": LOOP,
        },
        "ws_rgba_channel_stores": {
            "gld_sectors_per_request": 4,
            "gst_sectors_per_request": 16,
            "gst_requests_per_warp": 4,
        },
        "ws_rgb8_channel_loop": {
            "gld_sectors_per_request": 1,
            "gst_sectors_per_request": 3,
            "gst_requests_per_warp": 3,
        },
        "ws_two_of_four_channels": {
            "gld_sectors_per_request": 4,
            "gst_sectors_per_request": 16,
            "gld_requests_per_warp": (1, 2),
            "gst_requests_per_warp": 2,
        },
        "ws_tile16_padded_17": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 2, "shst_wavefronts_per_request": 2},
        "ws_tile16_padded_18": {**SHARED_DEFAULTS, "shld_wavefronts_per_request": 1, "shst_wavefronts_per_request": 2},
        "ws_double_tile_padded_33": {
            "gld_sectors_per_request": 8,
            "gst_sectors_per_request": 8,
            "shld_wavefronts_per_request": 2,
            "shst_wavefronts_per_request": 2,
            "shld_requests_per_warp": 4,
            "shst_requests_per_warp": 4,
            "gld_requests_per_warp": 4,
            "gst_requests_per_warp": 4,
            "bank_conflicts_ld": 0,
            "bank_conflicts_st": 0,
        },
    }
)
# Index arithmetic (index_arithmetic.cu): a flat index decomposed with `/` and `%` (by a
# constant, a run-time row length, a fast-division helper, a layout functor) keeps the lanes
# consecutive along a row; written to a transposed layout each lane's store is its own
# sector. Tail guards and the block-stride loop's bound are predicated: pred_on below 32.
GUARDED = (26.0, 32.0)
EXPECTED.update(
    {
        "ia_flat_constant": {"gld_sectors_per_request": 4},
        "ia_flat_pitched": {"gld_sectors_per_request": 4, "pred_on_ratio": GUARDED},
        "ia_flat_transposed": {"gld_sectors_per_request": 4, "gst_sectors_per_request": 32, "pred_on_ratio": GUARDED},
        "ia_fast_division": {"gld_sectors_per_request": 4, "pred_on_ratio": GUARDED},
        "ia_layout_functor": {"gld_sectors_per_request": 4, "pred_on_ratio": GUARDED},
        "ia_block_stride": {
            "gld_sectors_per_request": 4,
            "gld_requests_per_warp": 48,
            "gst_requests_per_warp": 32,
            "pred_on_ratio": LOOP,
        },
        "ia_asserted_unit_stride": {"gld_sectors_per_request": 4, "pred_on_ratio": GUARDED},
    }
)
# Element widths (element_widths.cu): narrow elements converted to float are 2-byte loads;
# aligned 16-byte structs and reinterpret_cast float4 move whole; a struct of __half2 moves
# member by member (from the SASS: LDG.E/STG.E of 4 bytes).
EXPECTED.update(
    {
        "ew_bf16_chunk": {"gld_sectors_per_request": 8, "gld_requests_per_warp": 4},
        "ew_half_every_other": {"gld_sectors_per_request": 4},
        "ew_bf16_coalesced": {"gld_sectors_per_request": 2},
        "ew_aligned_bf16x8": {"gld_sectors_per_request": 16, "gst_sectors_per_request": 16},
        "ew_float4_reinterpret": {"gld_sectors_per_request": 16},
        "ew_particle_x": {"gld_sectors_per_request": 24},
        "ew_half2x4_assign": {
            "gld_sectors_per_request": 16,
            "gst_sectors_per_request": 16,
            "gld_requests_per_warp": 4,
            "gst_requests_per_warp": 4,
        },
        "ew_half2x4_staged": {
            "gld_sectors_per_request": 16,
            "gst_sectors_per_request": 16,
            "gld_requests_per_warp": 4,
            "gst_requests_per_warp": 4,
        },
        "ew_stepped": {
            "gld_sectors_per_request": 4,
            "gld_requests_per_warp": (5, 10),
            "gst_requests_per_warp": (5, 10),
            "pred_on_ratio": LOOP,
        },
    }
)
UNIFORM |= {"ws_row_broadcast_16x16", "ws_row_broadcast_8x32", "ws_row_broadcast_4x64"}
DIVERGENT |= {"mc_thread_trip_count", "mc_switch_lane"}
UNIFORM |= {"mc_data_branch", "mc_guard_exact", "mc_guard_tail", "mc_select", "mc_block_uniform_loop"}
MIXED |= {"ms_reduce_sequential", "ms_reduce_interleaved_guarded"}


def expected_for(kernel: str) -> dict[str, float | None]:
    values = dict(DEFAULTS)
    values.update(EXPECTED[kernel])
    return values


def close(recorded: float | None, expected) -> bool:
    if isinstance(expected, tuple):
        return recorded is not None and expected[0] <= recorded <= expected[1]
    if expected is None or recorded is None:
        return expected is None and recorded is None
    return abs(recorded - expected) <= max(0.05, 0.01 * abs(expected))


# --------------------------------------------------------------------------- tests


def test_corpus_size():
    assert len(FILES) >= 5
    assert len(LAUNCHES) >= MIN_LAUNCHES
    for path in FILES:
        assert launches_of(path), f"{path.name} launches nothing"


def test_every_kernel_is_launched():
    """Every __global__ definition of the corpus has at least one launch line."""
    for path in FILES:
        lines = path.read_text(encoding="utf-8").splitlines()
        defined = {name for _, name, _ in measure._kernel_definitions(lines)}
        launched = {launch.base for launch in launches_of(path)}
        assert defined == launched, f"{path.name}: not launched: {sorted(defined - launched)}"


def test_pending_kernels_are_the_unmeasured_ones():
    assert {launch.kernel for launch in ALL_LAUNCHES if launch.measured is None} == PENDING


def test_expectations_cover_the_corpus():
    kernels = {launch.kernel for launch in ALL_LAUNCHES}
    assert kernels == set(EXPECTED), (
        f"no expectation for {sorted(kernels - set(EXPECTED))}; "
        f"expectation without a kernel: {sorted(set(EXPECTED) - kernels)}"
    )
    assert DIVERGENT | UNIFORM <= kernels


@pytest.mark.parametrize("launch", ALL_LAUNCHES, ids=_id)
def test_launch_geometry(launch):
    """Whole warps only (no tail warps), within the hardware's block limit."""
    threads_per_block = launch.block[0] * launch.block[1] * launch.block[2]
    assert threads_per_block % 32 == 0
    assert threads_per_block <= 1024
    assert launch.bytes >= 1 << 20
    pointers = [p for p in launch.params if p.is_pointer]
    assert pointers, "every corpus kernel reads or writes global memory"
    for param in launch.params:
        if not param.is_pointer:
            assert param.name in launch.args, f"scalar {param.name} has no value"


@pytest.mark.parametrize("launch", LAUNCHES, ids=_id)
def test_record_is_well_formed(launch):
    assert launch.measured is not None, "no '// measured:' line under the launch line"
    assert list(launch.measured) == list(measure.KEYS)
    assert launch.provenance, "no (ncu <version>, <GPU>) suffix"
    assert re.fullmatch(r"ncu \d{4}\.\d+(\.\d+)*, NVIDIA H(100|200)\b.*", launch.provenance), launch.provenance


@pytest.mark.parametrize("launch", LAUNCHES, ids=_id)
def test_record_is_plausible(launch):
    m = launch.measured
    assert m is not None
    # Every kernel loads and stores global memory.
    for key in ("gld_sectors_per_request", "gst_sectors_per_request"):
        assert m[key] is not None and 1.0 <= m[key] <= 32.0, key
    for key in ("shld_wavefronts_per_request", "shst_wavefronts_per_request"):
        if m[key] is not None:
            assert 0.0 < m[key] <= 32.5, key
    for key in measure.COUNT_KEYS:
        assert m[key] is not None and m[key] >= 0 and m[key] == int(m[key]), key
    assert m["pred_on_ratio"] is not None and 1.0 <= m["pred_on_ratio"] <= 32.0
    for key in ("gld_requests_per_warp", "gst_requests_per_warp"):
        assert m[key] is not None and m[key] > 0, key
    # A class of shared access has both its wavefronts and its request count, or neither.
    for kind in ("shld", "shst"):
        assert (m[f"{kind}_wavefronts_per_request"] is None) == (m[f"{kind}_requests_per_warp"] is None)
    if m["shld_wavefronts_per_request"] is None:
        assert m["bank_conflicts_ld"] == 0
    if m["shst_wavefronts_per_request"] is None:
        assert m["bank_conflicts_st"] == 0


@pytest.mark.parametrize("launch", LAUNCHES, ids=_id)
def test_record_matches_hardware_verdict(launch):
    m = launch.measured
    assert m is not None
    expected = expected_for(launch.kernel)
    keys = expected if launch.kernel not in MIXED else EXPECTED[launch.kernel]
    wrong = {key: (m[key], value) for key, value in expected.items() if key in keys and not close(m[key], value)}
    assert not wrong, f"recorded vs expected: {wrong}"


@pytest.mark.parametrize(
    "launch", [launch for launch in LAUNCHES if launch.base.startswith("sm_") and launch.kernel not in MIXED], ids=_id
)
def test_bank_conflicts_agree_with_wavefronts(launch):
    """For 4-byte lanes, conflicts = extra wavefronts: (wavefronts/request - 1) x requests.

    8- and 16-byte lanes need 2 and 4 wavefronts without a conflict counted.
    """
    m = launch.measured
    lane_wavefronts = {"sm_double": 2.0, "sm_float4": 4.0}.get(launch.kernel, 1.0)
    for kind in ("ld", "st"):
        wavefronts = m[f"sh{kind}_wavefronts_per_request"]
        requests = m[f"sh{kind}_requests_per_warp"] * launch.warps
        extra = (wavefronts - lane_wavefronts) * requests
        # Wavefronts per request are recorded to 2 decimals: 0.005 per request.
        assert abs(m[f"bank_conflicts_{kind}"] - extra) <= 0.005 * requests + 1, kind


@pytest.mark.parametrize("launch", LAUNCHES, ids=_id)
def test_divergence_records(launch):
    m = launch.measured
    if launch.kernel in DIVERGENT:
        assert m["branch_divergent_targets"] > 0
        assert m["pred_on_ratio"] < 29.0
    else:
        assert m["branch_divergent_targets"] == 0


def test_divergence_follows_block_shape():
    """threadIdx.y % 2 diverges under 16x16 (two rows a warp), not under 32x8."""
    by_kernel = {launch.kernel: launch.measured for launch in LAUNCHES}
    assert by_kernel["cf_row_parity_16x16"]["branch_divergent_targets"] > 0
    assert by_kernel["cf_row_parity_32x8"]["branch_divergent_targets"] == 0
    assert by_kernel["cf_row_parity_16x16"]["pred_on_ratio"] < by_kernel["cf_row_parity_32x8"]["pred_on_ratio"]
    # One divergent branch a warp for odd lanes; only warp 0 of each block for threadIdx.x < 16.
    odd = next(launch for launch in LAUNCHES if launch.kernel == "cf_odd_lanes")
    half = next(launch for launch in LAUNCHES if launch.kernel == "cf_half_warp")
    assert odd.measured["branch_divergent_targets"] == odd.warps
    assert half.measured["branch_divergent_targets"] == half.grid[0] * half.grid[1] * half.grid[2]


def test_records_round_trip():
    """The measured line the script writes reads back as the same values."""
    for launch in LAUNCHES[:5]:
        body = (
            " ".join(f"{key}={measure.format_value(key, launch.measured[key])}" for key in measure.KEYS)
            + f" ({launch.provenance})"
        )
        values, provenance = measure.parse_measured(body)
        assert values == launch.measured and provenance == launch.provenance


def test_cudalint_frontend_sees_every_launched_kernel():
    """The harness's kernel and parameter reading agrees with cudalint's frontend."""
    pytest.importorskip("clang")
    for path in FILES:
        with_frontend = measure.collect(path, use_frontend=True)
        without = launches_of(path)
        assert [launch.kernel for launch in with_frontend] == [launch.kernel for launch in without]
        for a, b in zip(with_frontend, without, strict=True):
            assert [(p.name, p.is_pointer) for p in a.params] == [(p.name, p.is_pointer) for p in b.params]


def test_driver_generation():
    """The host driver launches every kernel of a file, with its geometry and arguments."""
    for path in FILES:
        launches = list(launches_of(path))
        source = measure.driver_source(path, launches)
        assert f'#include "{path.resolve().as_posix()}"' in source
        for launch in launches:
            assert f"(const void*)&{launch.kernel}," in source
            grid = ", ".join(map(str, launch.grid))
            assert f"dim3({grid})" in source
        for number in range(len(launches)):
            assert f"mg_launch_{number}();" in source


# --------------------------------------------------------------------------- more corpus


@pytest.mark.parametrize(
    "launch", [launch for launch in LAUNCHES if launch.base.startswith("ms_") and launch.kernel not in MIXED], ids=_id
)
def test_more_shared_conflicts_agree_with_wavefronts(launch):
    """The same bookkeeping as for sm_*: conflicts = (wavefronts/request - 1) x requests."""
    m = launch.measured
    for kind in ("ld", "st"):
        requests = m[f"sh{kind}_requests_per_warp"] * launch.warps
        extra = (m[f"sh{kind}_wavefronts_per_request"] - 1.0) * requests
        assert abs(m[f"bank_conflicts_{kind}"] - extra) <= 0.005 * requests + 1, kind


def test_more_control_divergence_counts():
    """Per warp: 2 divergent targets for the thread-dependent trip count, 3 for the 4-way switch."""
    by_kernel = {launch.kernel: launch for launch in LAUNCHES}
    trip, switch = by_kernel["mc_thread_trip_count"], by_kernel["mc_switch_lane"]
    assert trip.measured["branch_divergent_targets"] == 2 * trip.warps
    assert switch.measured["branch_divergent_targets"] == 3 * switch.warps
    # A bounds guard with a tail compiles to a predicated exit: no divergent target either way.
    for name in ("mc_guard_exact", "mc_guard_tail"):
        assert by_kernel[name].measured["branch_divergent_targets"] == 0
    assert by_kernel["mc_guard_tail"].args["n"] != str(by_kernel["mc_guard_tail"].threads)
    assert by_kernel["mc_guard_exact"].args["n"] == str(by_kernel["mc_guard_exact"].threads)


def test_dynamic_shared_memory_launch():
    """shmem= reaches the launch; a kernel with extern __shared__ gets some."""
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        for launch in launches_of(path):
            source = measure.driver_source(path, [launch])
            assert f"mg_args, {launch.shmem}, 0));" in source
        if "extern __shared__" in text:
            assert any(launch.shmem > 0 for launch in launches_of(path)), path.name
    dynamic = next(launch for launch in LAUNCHES if launch.kernel == "ms_dynamic_stride2")
    assert dynamic.shmem == 2 * 4 * dynamic.block[0]
    assert measure.parse_launch("grid=1 block=32 shmem=64")["shmem"] == 64
    with pytest.raises(measure.HarnessError):
        measure.parse_launch("grid=1 block=32 shmem=lots")


# --------------------------------------------------------------------------- barriers
# tests/corpus/barriers: kernels with __syncthreads() under thread-varying control flow
# and their correct counterparts, run under compute-sanitizer --tool synccheck
# (scripts/measure_gpu.py --synccheck --write). Errors recorded by compute-sanitizer
# 2025.3.1 on an H200: only a barrier reached by part of a warp's threads is reported;
# exited threads (early returns) and whole warps skipping a barrier are not.

BARRIERS = ROOT / "tests" / "corpus" / "barriers"
BARRIER_FILES = sorted(BARRIERS.glob("*.cu"))
BARRIER_LAUNCHES = [launch for path in BARRIER_FILES for launch in launches_of(path)]
SYNCCHECK_ERRORS = {  # True: errors reported (about one per offending thread), False: 0 errors
    "bar_bad_lane_branch": True,
    "bar_bad_lane_return": False,
    "bar_bad_tail_return": False,
    "bar_bad_thread_trip_loop": False,
    "bar_bad_warp_branch": False,
    "bar_bad_both_arms": True,
    "bar_ok_block_return": False,
    "bar_ok_outside_branch": False,
    "bar_ok_guarded_work": False,
    "bar_ok_uniform_loop": False,
    "bar_bad_data_loop_then_exit": False,
    "bar_bad_warp_branch_then_barrier": True,
    "bar_ok_warp_reduced_flag": False,
    "bar_ok_warp_stack_walk": False,
    # barrier_trips.cu: barriers in loops whose trips are written per thread. Equal counts,
    # and lanes of one warp leaving early, report nothing; whole warps leaving early do
    # ("Divergent thread(s) in block" at the loop's first barrier).
    "bar_ok_block_stride_whole": False,
    "bar_ok_block_stride_launch": False,
    "bar_bad_ragged_then_exit": False,
    "bar_bad_warp_trips_then_exit": True,
    "bar_bad_warp_trips_then_shared": True,
    "bar_bad_ragged_then_shared": False,
}


def test_barrier_corpus_covered():
    assert BARRIER_FILES
    kernels = {launch.kernel for launch in BARRIER_LAUNCHES}
    assert kernels == set(SYNCCHECK_ERRORS)
    assert any(k.startswith("bar_bad_") for k in kernels) and any(k.startswith("bar_ok_") for k in kernels)
    for path in BARRIER_FILES:
        lines = path.read_text(encoding="utf-8").splitlines()
        defined = {name for _, name, _ in measure._kernel_definitions(lines)}
        assert defined == {launch.base for launch in launches_of(path)}, path.name


@pytest.mark.parametrize("launch", BARRIER_LAUNCHES, ids=_id)
def test_barrier_kernel_has_synccheck_record(launch):
    assert launch.synccheck is not None, "no '// synccheck:' line under the launch line"
    assert launch.synccheck == "hang" or (isinstance(launch.synccheck, int) and launch.synccheck >= 0)
    assert re.fullmatch(
        r"compute-sanitizer \d{4}\.\d+(\.\d+)*, NVIDIA H(100|200)\b.*", launch.synccheck_provenance or ""
    ), launch.synccheck_provenance
    # The kernel follows its records directly: launch, synccheck, __global__.
    lines = launch.path.read_text(encoding="utf-8").splitlines()
    assert measure.SYNCCHECK.match(lines[launch.line + 1])
    assert "__global__" in lines[launch.line + 2]
    threads_per_block = launch.block[0] * launch.block[1] * launch.block[2]
    assert threads_per_block % 32 == 0 and threads_per_block <= 1024
    for param in launch.params:
        if not param.is_pointer:
            assert param.name in launch.args, f"scalar {param.name} has no value"


@pytest.mark.parametrize("launch", BARRIER_LAUNCHES, ids=_id)
def test_synccheck_verdict(launch):
    assert launch.synccheck != "hang", "no barrier kernel hung on the H200"
    assert (launch.synccheck > 0) == SYNCCHECK_ERRORS[launch.kernel]
    if launch.kernel.startswith("bar_ok_"):
        assert launch.synccheck == 0


def test_synccheck_line_round_trip():
    result = measure.SyncResult(12, "ok", "compute-sanitizer 2025.3.1.0, NVIDIA H200")
    match = measure.SYNCCHECK.match("    " + measure.synccheck_line(result))
    assert match and match.group("errors") == "12" and match.group("prov") == result.provenance
    hang = measure.SyncResult("hang", "hang", "compute-sanitizer 2025.3.1.0, NVIDIA H200")
    assert measure.SYNCCHECK.match(measure.synccheck_line(hang)).group("hang") == "hang"


def test_synccheck_driver_runs_one_launch():
    """With an argument the driver runs only that launch, once (no warm-up round)."""
    for path in BARRIER_FILES:
        launches = list(launches_of(path))
        source = measure.driver_source(path, launches)
        assert "int mg_only = argc > 1 ? atoi(argv[1]) : -1;" in source
        for number in range(len(launches)):
            assert f"if (mg_only < 0 || mg_only == {number}) mg_launch_{number}();" in source


def test_cudalint_frontend_sees_every_barrier_kernel():
    pytest.importorskip("clang")
    for path in BARRIER_FILES:
        with_frontend = measure.collect(path, use_frontend=True)
        assert [launch.kernel for launch in with_frontend] == [launch.kernel for launch in launches_of(path)]

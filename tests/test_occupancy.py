"""Theoretical occupancy (dataflow/occupancy.py) and CL503, against the CUDA Occupancy
Calculator's arithmetic and against what Nsight Compute measured for the occupancy corpus
(tests/gpu/occupancy_ncu.csv, recorded by scripts/occupancy_job/run.sh on an H200)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from conftest import CORPUS
from cudalint.dataflow import BuildContext, Facts, Limiter
from cudalint.dataflow.occupancy import (
    MIN_REGISTERS,
    next_step,
    register_headroom,
    sm_limits,
    theoretical_occupancy,
)
from cudalint.diagnostics import Level
from cudalint.ptxas import parse_verbose
from cudalint.rules import implemented

OCCUPANCY = CORPUS / "occupancy" / "occupancy_limits.cu"
PTXAS = Path(__file__).parent / "fixtures" / "ptxas"
NCU = Path(__file__).parent / "gpu" / "occupancy_ncu.csv"


# ---------------------------------------------------------------- the calculator's arithmetic


@pytest.mark.parametrize(
    "arch, threads, registers, shared, blocks, limiters",
    [
        # 64 registers: 2048 per warp, 8 warps per sub-partition, 32 per SM.
        (90, 256, 64, 0, 4, {Limiter.REGISTERS}),
        # One register more: 2304 per warp, 7 warps per sub-partition, 28 per SM, 3 blocks.
        (90, 256, 65, 0, 3, {Limiter.REGISTERS}),
        (90, 256, 32, 0, 8, {Limiter.WARPS, Limiter.REGISTERS}),
        # 1024 threads at 72 registers need 73728 of a block's 65536: no launch.
        (90, 1024, 72, 0, 0, {Limiter.REGISTERS}),
        (90, 1024, 64, 0, 1, {Limiter.REGISTERS}),
        (90, 32, 16, 0, 32, {Limiter.BLOCKS}),
        (90, 640, 16, 0, 3, {Limiter.WARPS}),
        # 48 KiB + the 1 KiB reserve: 4 blocks in 228 KiB.
        (90, 256, 16, 49152, 4, {Limiter.SHARED_MEMORY}),
        # 30000 + 1024 rounded up to 128 B is 31104: 7 blocks on sm_90, 5 on sm_80's 164 KiB.
        (90, 128, 16, 30000, 7, {Limiter.SHARED_MEMORY}),
        (80, 128, 16, 30000, 5, {Limiter.SHARED_MEMORY}),
        # Above 48 KiB a block needs the opt-in; above the opt-in limit it cannot launch.
        (90, 1024, 16, 227 * 1024, 1, {Limiter.SHARED_MEMORY}),
        (90, 1024, 16, 227 * 1024 + 1, 0, {Limiter.SHARED_MEMORY}),
        # Volta: no reserve, 256-byte units, 96 KiB.
        (70, 256, 16, 24576, 4, {Limiter.SHARED_MEMORY}),
        (86, 128, 72, 0, 7, {Limiter.REGISTERS}),
        (89, 64, 16, 0, 24, {Limiter.WARPS, Limiter.BLOCKS}),
        (75, 1024, 24, 0, 1, {Limiter.WARPS}),
    ],
)
def test_theoretical_occupancy(arch, threads, registers, shared, blocks, limiters):
    occupancy = theoretical_occupancy(arch, threads, registers, shared)
    assert occupancy.blocks == blocks
    assert set(occupancy.limiters) == limiters


def test_named_barriers_share_the_sm():
    # sm_90: 2 barriers per block slot (64); a kernel using 16 named barriers fits 4 blocks.
    assert theoretical_occupancy(90, 64, 16, 0, barriers=16).blocks == 4
    assert theoretical_occupancy(90, 64, 16, 0, barriers=1).blocks == 32


def test_register_cliff_and_headroom():
    occupancy = theoretical_occupancy(90, 256, 72, 0)
    step = next_step(occupancy)
    assert (step.limiter, step.target, step.occupancy.warps) == (Limiter.REGISTERS, 64, 32)
    assert register_headroom(occupancy) == 80
    assert register_headroom(step.occupancy) == 64


def test_shared_memory_cliff():
    occupancy = theoretical_occupancy(90, 256, 16, 49152)
    step = next_step(occupancy)
    # 5 blocks need at most 233472 / 5 = 46694 B each, 46592 in 128-byte units, less the reserve.
    assert (step.limiter, step.target, step.occupancy.blocks) == (Limiter.SHARED_MEMORY, 45568, 5)
    assert theoretical_occupancy(90, 256, 16, step.target).blocks == 5
    assert theoretical_occupancy(90, 256, 16, step.target + 1).blocks == 4


def test_no_step_where_block_size_limits():
    assert next_step(theoretical_occupancy(90, 32, 16, 0)) is None
    assert next_step(theoretical_occupancy(90, 256, 32, 0)) is None


def test_unknown_architectures_take_the_closest_older_one():
    assert sm_limits(91).arch == 90 and sm_limits(121).arch == 120 and sm_limits(60).arch == 70


# ---------------------------------------------------------------- the corpus, with ptxas's figures


def _facts(corpus_results, header_mode: str, fixture: str, max_registers: int | None = None) -> Facts:
    resources = {k.label: k for k in parse_verbose((PTXAS / fixture).read_text())}
    tu = corpus_results.unit(OCCUPANCY, header_mode)
    return Facts(tu, build=BuildContext(90, max_registers, resources))


def test_static_shared_from_source_matches_ptxas(corpus_results, header_mode):
    compiled = _facts(corpus_results, header_mode, "sm90_occupancy_limits.txt")
    source = Facts(corpus_results.unit(OCCUPANCY, header_mode))
    by_label = {k.label: k.static_shared for k in source.kernels}
    assert {k.label: k.static_shared for k in compiled.kernels} == by_label
    assert by_label["staged<40960>"] == (40960, False) and by_label["staged_dynamic"] == (0, True)


def test_cl503_warns_only_for_small_steps_of_latency_bound_kernels(corpus_results, header_mode):
    facts = _facts(corpus_results, header_mode, "sm90_occupancy_limits.txt")
    findings = list(implemented()["CL503"]().check(facts))
    warned = sorted(f.span.line for f in findings if f.level is Level.WARNING)
    # 49152 B blocks of 256 threads: 32 warps; 3584 B fewer give 40. Line 112 cannot
    # launch: 512 threads of 254 registers. The register-limited launches keep arrays of
    # 16 to 112 products per thread: notes.
    assert warned == [112, 121, 127]
    noted = {f.span.line for f in findings if f.level is Level.NOTE}
    assert {107, 109, 113} <= noted


# ---------------------------------------------------------------- Nsight Compute


def _reproduces(row: dict[str, str]):
    """The model's occupancy of one launch ncu measured, with ncu's registers and shared
    bytes, after checking that its warps per SM and its register, warp and block limits
    are ncu's."""
    occupancy = theoretical_occupancy(
        90,
        int(row["block_threads"]),
        int(row["registers"]),
        int(row["static_shared"]) + int(row["dynamic_shared"]),
        int(row["barriers"]),
    )
    where = f"{row['build']} {row['kernel']} block {row['block_threads']}"
    assert occupancy.warps == int(row["theoretical_warps"]), where
    assert occupancy.allowed_by(Limiter.REGISTERS) == int(row["limit_registers"]), where
    assert occupancy.allowed_by(Limiter.WARPS) == int(row["limit_warps"]), where
    assert occupancy.allowed_by(Limiter.BLOCKS) == int(row["limit_blocks"]), where
    return occupancy


def _measured() -> list[dict[str, str]]:
    with NCU.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_model_reproduces_nsight_compute():
    """Each measured launch, with ncu's own registers and shared bytes: the same warps per
    SM, and the same block limits for registers, warps and blocks. ncu's shared-memory
    limit counts the carve-out the driver configured for the launch (often less than the
    largest, never so little that it costs occupancy): the model's counts the largest,
    as cudaOccupancyMaxActiveBlocksPerMultiprocessor does by default."""
    rows = _measured()
    assert len(rows) == 42
    for row in rows:
        occupancy = _reproduces(row)
        where = f"{row['build']} {row['kernel']} block {row['block_threads']}"
        assert occupancy.allowed_by(Limiter.SHARED_MEMORY) >= int(row["limit_shared_mem"]), where


@pytest.mark.parametrize(
    "build, fixture, cap",
    [("default", "sm90_occupancy_limits.txt", None), ("maxrreg48", "sm90_occupancy_limits_maxrreg48.txt", 48)],
)
def test_facts_with_ptxas_equal_nsight_compute(corpus_results, header_mode, build, fixture, cap):
    """The whole chain: launches read from the source, ptxas's registers and shared bytes,
    the model; every measured launch's occupancy as ncu measured it. The launch the model
    says cannot run (512 threads of 254 registers) ended ncu's run of the default build:
    the launches after it were not measured there."""
    facts = _facts(corpus_results, header_mode, fixture, cap)
    ours = {}
    for kernel in facts.kernels:
        for row in facts.occupancies(kernel):
            ours[kernel.label, row.block_threads, row.dynamic_shared] = row
    measured = [row for row in _measured() if row["build"] == build]
    assert len(measured) == {"default": 14, "maxrreg48": 28}[build]
    for row in measured:
        key = (row["kernel"], int(row["block_threads"]), int(row["dynamic_shared"]))
        mine = ours[key]
        assert mine.exact, key
        assert max(mine.registers, MIN_REGISTERS) == int(row["registers"]), key
        assert mine.static_shared == int(row["static_shared"]), key
        assert mine.occupancy.warps == int(row["theoretical_warps"]), key
    unlaunched = [key for key, row in ours.items() if row.occupancy.blocks == 0]
    assert unlaunched == ([("products<112>", 512, 0)] if build == "default" else [])


def test_model_reproduces_nsight_compute_on_real_programs():
    """107 launches of 25 real programs (bench/realcode/occupancy_ncu.csv), with ncu's
    registers and shared bytes: the same warps per SM, register, warp and block limits."""
    with (Path(__file__).parent.parent / "bench" / "realcode" / "occupancy_ncu.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 107 and len({row["build"] for row in rows}) == 25
    for row in rows:
        _reproduces(row)

"""cudalint's predictions against Nsight Compute measurements recorded in tests/corpus/access.

Each corpus kernel carries the launch the measuring harness used and the counters it
read (scripts/measure_gpu.py). Here the same kernel is analyzed with that block shape
and those argument values, and the predicted cost of each memory class must match the
recorded average: sectors per request for global loads and stores, wavefronts per
request for shared loads and stores. Branch divergence must match too.
"""

from __future__ import annotations

import statistics

import pytest

from cudalint.dataflow import KernelFacts, MemorySpace
from cudalint.dataflow.divergence import branch_pattern
from cudalint.dataflow.facts import AccessKind
from cudalint.dataflow.interpret import trace_kernel
from cudalint.dataflow.symbolic import Variance
from cudalint.dataflow.threads import BlockShape
from test_gpu_records import FILES, all_launches, launches_of
from test_rule_accuracy import PREDICATION_IDLE

# How far a prediction may be from the recorded average: run-to-run noise in the 32x32
# tile kernels is 0.01, a whole sector or wavefront is 1.
TOLERANCE = 0.25

# Counters that depend on more than one warp request's addresses.
NOT_COMPARABLE = {
    # Lanes predicated off on later iterations still issue the instruction but move no
    # data, so the recorded wavefronts per instruction fall below one; the prediction is
    # per executed request.
    ("sm_reduce_interleaved", "shld_wavefronts_per_request"),
    ("sm_reduce_interleaved", "shst_wavefronts_per_request"),
    ("sm_reduce_interleaved", "gst_sectors_per_request"),
    ("ms_reduce_sequential", "shld_wavefronts_per_request"),
    ("ms_reduce_sequential", "shst_wavefronts_per_request"),
    ("ms_reduce_interleaved_guarded", "shld_wavefronts_per_request"),
    ("ms_reduce_interleaved_guarded", "shst_wavefronts_per_request"),
    # The index array is zero-filled by the harness, so the gather measured a broadcast;
    # the prediction is, rightly, "depends on data".
    ("rw_gather_identity", "gld_sectors_per_request"),
}

CLASSES = {
    "gld_sectors_per_request": (MemorySpace.GLOBAL, AccessKind.LOAD, "sectors"),
    "gst_sectors_per_request": (MemorySpace.GLOBAL, AccessKind.STORE, "sectors"),
    "shld_wavefronts_per_request": (MemorySpace.SHARED, AccessKind.LOAD, "wavefronts"),
    "shst_wavefronts_per_request": (MemorySpace.SHARED, AccessKind.STORE, "wavefronts"),
}


def analyzed(launch, corpus_results) -> tuple[KernelFacts, dict[str, int]]:
    tu = corpus_results.unit(launch.path)
    bindings = {name: int(value) for name, value in launch.args.items() if value.lstrip("-").isdigit()}
    function = next(
        (
            f
            for f in tu.device_functions()
            if launch.kernel in (f.name, f.display_name.replace(", ", ",")) and not f.is_template_pattern
        ),
        None,
    )
    if function is None:
        # An explicit instantiation (`template __global__ void k<8>(...);`) has no body of its
        # own in libclang: analyze the pattern with its constants bound.
        name, _, arguments = launch.kernel.partition("<")
        function = next(f for f in tu.device_functions() if f.is_template_pattern and f.name == name)
        values = [a.strip() for a in arguments.rstrip(">").split(",")]
        bindings.update(
            {p: int(v) for p, v in zip(function.template_parameters, values, strict=False) if v.lstrip("-").isdigit()}
        )
    shape = BlockShape(*launch.block, source="corpus launch")
    return KernelFacts(function, shape, trace_kernel(tu, function, shape)), bindings


def predicted(kernel: KernelFacts, bindings: dict[str, int], metric: str) -> float | None:
    space, kind, measure = CLASSES[metric]
    values = []
    for access in kernel.trace.accesses:
        if access.space is not space or access.kind is not kind:
            continue
        pattern = kernel.pattern_with(access, bindings)
        values.append(pattern.sectors if measure == "sectors" else pattern.wavefronts)
    if not values or None in values:
        return None
    return statistics.fmean(values)


LAUNCHES = [launch for launch in all_launches() if launch.measured]


@pytest.mark.parametrize("launch", LAUNCHES, ids=lambda launch: f"{launch.path.stem}:{launch.kernel}")
def test_memory_cost_matches_nsight(launch, corpus_results):
    kernel, bindings = analyzed(launch, corpus_results)
    checked = 0
    for metric in CLASSES:
        recorded = launch.measured.get(metric)
        if recorded is None or (launch.base, metric) in NOT_COMPARABLE:
            continue
        prediction = predicted(kernel, bindings, metric)
        assert prediction is not None, f"{metric}: Nsight measured {recorded}, cudalint has no prediction"
        assert abs(prediction - recorded) <= TOLERANCE, f"{metric}: predicted {prediction}, measured {recorded}"
        checked += 1
    assert checked, "nothing compared"


@pytest.mark.parametrize("launch", LAUNCHES, ids=lambda launch: f"{launch.path.stem}:{launch.kernel}")
def test_divergence_matches_nsight(launch, corpus_results):
    kernel, bindings = analyzed(launch, corpus_results)
    # A branch taken by one lane (`if (threadIdx.x == 0) ...`) is short and is predicated
    # by the compiler: its lanes idle, but no divergent branch target is counted. Whether
    # a data-dependent branch splits a warp depends on the data, not on the code.
    divergent = [
        b
        for b in kernel.trace.branches
        if (pattern := branch_pattern(b, kernel.shape, bindings)).variance is Variance.THREAD
        and not pattern.bounds_guard
        and pattern.taken_lanes not in (0, 1, pattern.active_lanes)
    ]
    targets = launch.measured.get("branch_divergent_targets") or 0
    # Compilers predicate short divergent code: no branch target, but lanes sit idle.
    idle = (launch.measured.get("pred_on_ratio") or 32.0) < PREDICATION_IDLE
    assert bool(divergent) == (targets > 0 or idle), (
        f"Nsight counted {targets} divergent branch targets, predicated-on ratio "
        f"{launch.measured.get('pred_on_ratio')}; cudalint predicts {[str(b.condition) for b in divergent]}"
    )


def test_every_corpus_file_is_compared():
    assert FILES and all(launches_of(path) for path in FILES)
    assert len(LAUNCHES) >= 40

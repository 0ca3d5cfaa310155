"""CL501/CL502 against ptxas: the register budget, the estimate, and exact mode.

The truth is the ``// ptxas:`` line above each kernel of tests/corpus/registers
(scripts/measure_ptxas.py): a kernel *spills* when ptxas reports spill stores or loads;
it *keeps an array in local memory* when, with nothing spilled, its stack frame is
larger than what the math library's argument reduction may take.
"""

from __future__ import annotations

import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import CORPUS, analyze, build_config, expectations, load_script, run_cli
from cudalint import engine
from cudalint.dataflow import BuildContext, Facts
from cudalint.dataflow.local_arrays import math_library_stack
from cudalint.dataflow.registers import register_budget
from cudalint.ir import CType, Function, FunctionKind, LaunchBounds, Span, TypeKind
from cudalint.profile import source_lines
from cudalint.ptxas import KernelResources, parse_verbose
from cudalint.rules import implemented

FIXTURES = Path(__file__).parent / "fixtures" / "ptxas"
REGISTERS = sorted((CORPUS / "registers").glob("*.cu")) + sorted((CORPUS / "constants").glob("*.cu"))
measure = load_script("measure_ptxas")
records = load_script("kernel_records")
NVCC = shutil.which("nvcc")
SOURCE_LEVEL_TARGET = 0.9


# ---------------------------------------------------------------- ptxas output


def test_verbose_output_of_sm80_with_maxrregcount():
    kernels = {k.label: k for k in parse_verbose((FIXTURES / "sm80_maxrregcount.txt").read_text())}
    assert set(kernels) == {"lb_and_flag", "lb_768_2", "lb_1024_3", "lb_1024_2", "plain"}
    assert kernels["lb_768_2"] == KernelResources(
        "_Z8lb_768_2PKfPfi", "lb_768_2", "lb_768_2", "sm_80", 40, 304, 400, 400
    )
    assert kernels["lb_and_flag"].registers == 122 and not kernels["lb_and_flag"].spills
    assert kernels["plain"].mangled == "plain"  # extern "C": not mangled


def test_verbose_output_skips_non_entry_functions():
    kernels = parse_verbose((FIXTURES / "sm90_noinline_helper.txt").read_text())
    assert [(k.name, k.registers, k.stack_frame) for k in kernels] == [("calls_helper", 39, 64), ("lb_256", 115, 0)]


def test_template_instantiations_are_labelled_like_kernels():
    text = (
        "ptxas info    : Compiling entry function '_Z8gemmTileILi8ELi4EEvPKfPfi' for 'sm_90'\n"
        "ptxas info    : Function properties for _Z8gemmTileILi8ELi4EEvPKfPfi\n"
        "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
        "ptxas info    : Used 64 registers, used 1 barriers, 8 bytes cumulative stack size\n"
    )
    (kernel,) = parse_verbose(text)
    assert (kernel.name, kernel.label, kernel.spill_stores) == ("gemmTile", "gemmTile<8,4>", 4)


# ---------------------------------------------------------------- budget


def _kernel(bounds: tuple[int, ...] | None = None, maxnreg: int | None = None) -> Function:
    launch = LaunchBounds(*bounds) if bounds else None
    return Function(
        "k",
        "k",
        "k",
        FunctionKind.KERNEL,
        CType(TypeKind.VOID, "void"),
        (),
        Span("k.cu", 1, 1, 1, 2),
        None,
        launch_bounds=launch,
        max_registers=maxnreg,
    )


# Each row is what ptxas (nvcc 13.0) chose for a kernel that needs ~254 registers unbounded.
@pytest.mark.parametrize(
    "bounds, arch, cap",
    [
        ((1024, 1), 90, 64),
        ((1024,), 90, 64),
        ((512, 2), 90, 64),
        ((384, 2), 90, 80),
        ((256, 4), 90, 64),
        ((256, 3), 90, 80),
        ((256, 2), 90, 128),
        ((256,), 90, 255),
        ((128, 5), 90, 96),
        ((128, 7), 90, 72),
        ((96, 8), 90, 80),
        ((100, 8), 90, 64),
        ((640, 1), 90, 96),
        ((64, 16), 90, 64),
        ((32, 40), 90, 255),  # more blocks than an SM holds: ptxas ignores minBlocks
        ((1024, 3), 90, 64),  # more threads than an SM holds: likewise
        ((768, 2), 90, 40),
        ((1024, 2), 120, 64),
    ],
)
def test_launch_bounds_cap_matches_ptxas(bounds, arch, cap):
    assert register_budget(_kernel(bounds), arch, None).registers == cap


def test_maxnreg_and_maxrregcount():
    assert register_budget(_kernel(maxnreg=40), 90, None).source == "__maxnreg__(40)"
    budget = register_budget(_kernel(), 90, 32)
    assert (budget.registers, budget.source, budget.explicit) == (32, "-maxrregcount=32", True)
    # ptxas: "Overriding global maxrregcount 40 with entry-specific value 128 computed using thread count".
    assert register_budget(_kernel((256, 2)), 90, 40).registers == 128
    assert not register_budget(_kernel(), 90, None).explicit


# ---------------------------------------------------------------- the corpus against ptxas


def _records(path: Path) -> dict[str, dict[str, int]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    records = {}
    for kernel in measure.source_kernels(lines, measure.PTXAS):
        for record in kernel.records:
            records[record.tag or kernel.name] = record.fields
    return records


def _facts(corpus_results, path: Path, header_mode: str, compiled: bool) -> tuple[Facts, dict[str, dict[str, int]]]:
    records = _records(path)
    resources = None
    if compiled:
        resources = {
            label: KernelResources(
                label,
                label.split("<")[0],
                label,
                "sm_90",
                f["registers"],
                f["stack"],
                f["spill-stores"],
                f["spill-loads"],
            )
            for label, f in records.items()
        }
    tu = corpus_results.unit(path, header_mode)
    build = BuildContext(90, build_config(path).max_registers, resources)
    return Facts(tu, build=build), records


def _confusion(corpus_results, header_mode: str, compiled: bool) -> dict[str, list[int]]:
    """code -> [TP, FP, FN, TN] over the measured kernels."""
    counts = {"CL501": [0, 0, 0, 0], "CL502": [0, 0, 0, 0]}
    rules = {code: implemented()[code]() for code in counts}
    for path in REGISTERS:
        facts, records = _facts(corpus_results, path, header_mode, compiled)
        for kernel in facts.kernels:
            figures = records.get(kernel.label)
            if figures is None:
                continue
            spills = figures["spill-stores"] + figures["spill-loads"] > 0
            local = not spills and figures["stack"] - math_library_stack(kernel.trace) > 0
            # Spills are warnings; an exact-mode note about occupancy is not a spill verdict.
            found = {
                code
                for code, rule in rules.items()
                for f in rule.check(facts)
                if f.function == kernel.function.display_name and f.level.value == "warning"
            }
            for code, truth in (("CL501", spills), ("CL502", local)):
                predicted = code in found
                cell = {(True, True): 0, (True, False): 1, (False, True): 2, (False, False): 3}[predicted, truth]
                counts[code][cell] += 1
    return counts


def _precision_recall(tp: int, fp: int, fn: int) -> tuple[float, float]:
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0)


def test_corpus_covers_each_situation():
    labels = {label: f for path in REGISTERS for label, f in _records(path).items()}
    spilling = [label for label, f in labels.items() if f["spill-stores"]]
    heavy = [label for label, f in labels.items() if not f["spill-stores"] and f["registers"] >= 48]
    local = [label for label, f in labels.items() if not f["spill-stores"] and f["stack"] >= 32]
    assert len(labels) >= 35 and len(spilling) >= 6 and len(heavy) >= 6 and len(local) >= 6


@pytest.mark.parametrize("compiled", [False, True], ids=["source-level", "exact"])
def test_precision_and_recall_against_ptxas(header_mode, compiled, corpus_results):
    target = 1.0 if compiled else SOURCE_LEVEL_TARGET
    for code, (tp, fp, fn, tn) in _confusion(corpus_results, header_mode, compiled).items():
        precision, recall = _precision_recall(tp, fp, fn)
        print(
            f"{code} {'exact' if compiled else 'source-level'}: TP {tp} FP {fp} FN {fn} TN {tn} "
            f"precision {precision:.3f} recall {recall:.3f}"
        )
        assert tp >= 5, code
        assert precision >= target and recall >= target, (code, tp, fp, fn, tn)


def test_tensor_core_tiles_fit_or_spill_as_ptxas_says(corpus_results):
    """The accumulator tile is live across the rolled loop over K; of the step's operand
    fragments, one side is counted whole and the other one fragment at a time. The
    spill-free tile nearest its cap is within a few registers of it, and so is the
    spilling one nearest below its cap."""
    path = CORPUS / "registers" / "fragment_tiles.cu"
    facts, records = _facts(corpus_results, path, "embedded", compiled=False)
    kernels = {kernel.label: kernel for kernel in facts.kernels}
    for label, figures in records.items():
        kernel = kernels[label]
        spills = figures["spill-stores"] + figures["spill-loads"] > 0
        assert (kernel.register_estimate.registers > kernel.register_budget.registers) == spills, label
    wide = kernels["wmma_tile<4,6>"].register_estimate
    operands = next(c for c in wide.contributors if c.what.startswith("operands of one step"))
    # a[4] whole (32) and one of b[6] (8): the 80 registers of all operands do not fit beside 192.
    assert operands.registers == 40 and "`b` loaded an element at a time" in operands.what
    assert kernels["mma_capped<4,6>"].register_estimate.registers == 126  # ptxas: 128, no spill
    assert kernels["wmma_tile_bounded<2,6>"].register_estimate.registers == 134  # ptxas: spills at 128


@pytest.mark.parametrize("path", REGISTERS, ids=[p.name for p in REGISTERS])
def test_recorded_ptxas_figures_are_current(path):
    if NVCC is None:
        pytest.skip("nvcc is not on PATH")
    lines = path.read_text(encoding="utf-8").splitlines()
    tools = {r.tool for k in measure.source_kernels(lines, measure.PTXAS) for r in k.records}
    if tools != {f"nvcc {measure.nvcc_version(NVCC)} sm_{measure.ARCH}"}:
        pytest.skip(f"recorded with {sorted(tools)}")
    _, measurements, problems = measure.measure_file(path, NVCC)
    assert not problems
    stale = [
        f"{m.label}: {m.fields}"
        for m in measurements
        if (r := records.recorded(m.kernel, m.label)) is None or r.fields != m.fields
    ]
    assert not stale, "run scripts/measure_ptxas.py --write tests/corpus/registers\n" + "\n".join(stale)


LINE_TARGET = 0.95
"""Per line, CL502's source-level findings against the LDL/STL lines of the SASS: nvcc may
place a load on the line that first uses its value rather than its own (sort8's `key`)."""


def _local_memory_lines(path: Path, nvdisasm: str) -> dict[str, set[int]]:
    """Kernel label -> lines of ``path`` whose SASS loads or stores local memory, for the
    kernels that spill nothing (spill code is CL501's)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    cap = measure.max_registers_of(lines)
    with tempfile.TemporaryDirectory(prefix="cudalint-lines-") as scratch:
        cubin = Path(scratch) / "device.cubin"
        command = [
            NVCC,
            "-cubin",
            "-lineinfo",
            f"-arch=sm_{measure.ARCH}",
            "-Xptxas",
            "-v",
            "-o",
            str(cubin),
            *([f"-maxrregcount={cap}"] if cap else []),
            str(path),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        listing = subprocess.run([nvdisasm, "-gi", str(cubin)], capture_output=True, text=True, check=True).stdout
    kernels = {k.mangled: k for k in parse_verbose(done.stderr + done.stdout)}
    found: dict[str, set[int]] = {}
    for name, instructions in source_lines.parse_disassembly(listing).items():
        kernel = kernels.get(name)
        if kernel is None or kernel.spills:
            continue
        found[kernel.label] = {
            i.location.line
            for i in instructions
            if i.is_local and i.location and Path(i.location.file).name == path.name
        }
    return found


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_local_memory_findings_match_the_sass_line_by_line(corpus_results):
    nvdisasm = source_lines.find_tool("nvdisasm")
    if nvdisasm is None:
        pytest.skip("nvdisasm is not available")
    hits = misses = wrong = 0
    report = []
    rule = implemented()["CL502"]()
    for path in REGISTERS:
        if not any(f["stack"] and not f["spill-stores"] for f in _records(path).values()):
            continue  # No kernel keeps an array in local memory: nothing to compare line by line.
        truth = _local_memory_lines(path, nvdisasm)
        facts, _ = _facts(corpus_results, path, "embedded", compiled=False)
        records = _records(path)
        for kernel in facts.kernels:
            sass = truth.get(kernel.label)
            if sass is None or records[kernel.label]["stack"] <= math_library_stack(kernel.trace):
                continue  # The math library's frame alone: CL504's (tests/test_math_paths.py).
            lines = {f.span.line for f in rule.check(facts) if f.function == kernel.function.display_name}
            hits, misses, wrong = hits + len(sass & lines), misses + len(sass - lines), wrong + len(lines - sass)
            if sass != lines:
                report.append(
                    f"{path.name} {kernel.label}: found only {sorted(lines - sass)}, missed {sorted(sass - lines)}"
                )
    precision, recall = _precision_recall(hits, wrong, misses)
    print(f"CL502 per line: TP {hits} FP {wrong} FN {misses} precision {precision:.3f} recall {recall:.3f}")
    assert hits >= 40 and precision >= LINE_TARGET and recall >= LINE_TARGET, "\n".join(report)


# ---------------------------------------------------------------- exact mode end to end


def _counting_nvcc(directory: Path, real: str | None, failure: str | None = None) -> tuple[str, Path]:
    """An nvcc stand-in that logs each call, then runs the real one (or fails as told)."""
    log = directory / "calls.log"
    script = directory / "nvcc"
    action = (
        f"print({failure!r}, file=sys.stderr); sys.exit(1)"
        if failure
        else f"sys.exit(subprocess.call([{real!r}, *sys.argv[1:]]))"
    )
    script.write_text(
        f"#!{sys.executable}\nimport subprocess, sys\n"
        f"open({str(log)!r}, 'a').write(repr(sys.argv[1:]) + '\\n')\n{action}\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script), log


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_exact_mode_compiles_once_per_file_with_odd_paths(tmp_path):
    directory = tmp_path / "odd dir (1) & 'quotes'"
    directory.mkdir()
    source = directory / "two kernels; $HOME.cu"
    source.write_text((CORPUS / "registers" / "register_caps.cu").read_text(encoding="utf-8"), encoding="utf-8")
    nvcc, log = _counting_nvcc(tmp_path, NVCC)
    started = time.perf_counter()
    result = analyze(source, select=["CL501", "CL502"], nvcc=nvcc)
    elapsed = time.perf_counter() - started
    assert not result.notices, [n.one_line() for n in result.notices]
    assert len(log.read_text().splitlines()) == 1
    spills = sorted(f.function for f in result.findings if f.properties.get("spillStores"))
    assert spills == ["double_state", "gemm_tile_4<8, 8>", "horner_bank", "huge_tile", "window_sum"]
    print(f"--ptxas on {len(_records(source))} kernels: one nvcc call, {elapsed:.2f} s")


def test_compile_failure_is_one_line_and_estimates_stand(tmp_path):
    nvcc, log = _counting_nvcc(tmp_path, None, failure='kernel.cu(3): error: identifier "undefined_thing" is undefined')
    source = CORPUS / "registers" / "local_arrays.cu"
    result = analyze(source, select=["CL502"], nvcc=nvcc)
    assert [n.one_line().split(": ", 1)[1] for n in result.notices] == [
        'analysis incomplete: --ptxas: nvcc failed: kernel.cu(3): error: identifier "undefined_thing" is undefined; '
        "register findings are estimates"
    ]
    expected = [e for e in expectations(source).elements() if e.code == "CL502"]
    assert len([f for f in result.findings if f.code == "CL502"]) == len(expected) >= 9


def test_missing_nvcc_warns_once_and_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.delenv("CUDA_HOME", raising=False)
    source = tmp_path / "k.cu"
    source.write_text("__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n", encoding="utf-8")
    result = run_cli("check", "--ptxas", "--headers", "embedded", "--no-cache", "-j", "1", source)
    assert result.exit_code == 0, result.output
    assert result.stderr.count("nvcc not found") == 1


def test_ptxas_setting_is_read_from_configuration(tmp_path):
    from cudalint.config import load_config

    path = tmp_path / "cudalint.toml"
    path.write_text("ptxas = true\nmax-registers = 64\n", encoding="utf-8")
    config = load_config(path)
    assert config.ptxas and config.max_registers == 64
    assert engine.default_settings(config).nvcc is None  # the command line resolves nvcc

"""CL401 against the hardware truth: nvcc's fp64 PTX instruction counts.

Every kernel in tests/corpus/cl401 is preceded by ``// measured: fp64=N (nvcc ...)``
lines written by scripts/measure_fp64.py (one per instantiation for a kernel
template, tagged ``name<type>``). A tag word on that line exempts the count:

* ``declared-double``: fp64 the author asked for (double data, casts, destinations);
* ``library-internal``: fp64 inside an fp32 CUDA math routine (sinf's range reduction).

A kernel's *implicit fp64* is the sum of its non-exempt counts. A *case* is the
kernel plus the lines between it and the previous kernel (its ``__device__``
helpers). Per case: implicit fp64 > 0 <=> at least one CL401 warning in the case;
a CL401 note only where implicit fp64 == 0; a fully exempt case has no CL401 at all.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from conftest import CORPUS, CorpusResults, load_script

ROOT = Path(__file__).resolve().parent.parent
CL401_CORPUS = CORPUS / "cl401"
EXEMPT_TAGS = ("declared-double", "library-internal")
MIN_CASES = 30


measure = load_script("measure_fp64")
records = load_script("kernel_records")


@dataclass(frozen=True)
class Measured:
    count: int
    label: str | None
    exempt: str | None


@dataclass(frozen=True)
class Case:
    path: Path
    kernel: str
    first: int
    """First line of the case: the line after the previous kernel's closing brace."""
    line: int
    """The ``__global__`` line."""
    last: int
    """The kernel's closing brace."""
    measured: tuple[Measured, ...]

    @property
    def id(self) -> str:
        return f"{self.path.stem}:{self.kernel}"

    @property
    def implicit_fp64(self) -> int:
        return sum(m.count for m in self.measured if m.exempt is None)

    @property
    def fully_exempt(self) -> bool:
        return bool(self.measured) and all(m.exempt is not None for m in self.measured)

    def contains(self, line: int) -> bool:
        return self.first <= line <= self.last


def _closing_brace(lines: list[str], start: int) -> int:
    """1-based line of the brace that closes the body opened at or after line ``start``."""
    depth = 0
    opened = False
    for number in range(start, len(lines) + 1):
        code = lines[number - 1].split("//", 1)[0]
        for char in code:
            if char == "{":
                depth += 1
                opened = True
            elif char == "}":
                depth -= 1
                if opened and depth == 0:
                    return number
    raise ValueError(f"no closing brace for the kernel at line {start}")


@cache
def cases_of(path: Path) -> tuple[Case, ...]:
    lines = path.read_text(encoding="utf-8").splitlines()
    result = []
    first = 1
    for kernel in measure.source_kernels(lines, measure.MEASURED):
        measured = []
        for entry in kernel.records:
            exempt = next((tag for tag in EXEMPT_TAGS if tag in entry.rest.split()), None)
            measured.append(Measured(entry.fields["fp64"], entry.tag, exempt))
        last = _closing_brace(lines, kernel.line)
        result.append(Case(path, kernel.name, first, kernel.line, last, tuple(measured)))
        first = last + 1
    return tuple(result)


FILES = sorted(CL401_CORPUS.glob("*.cu"))
CASES = [case for path in FILES for case in cases_of(path)]


def cl401_findings(results: CorpusResults, path: Path, header_mode: str):
    """(line, level) of every CL401 finding in ``path``."""
    result = results(path, header_mode)
    assert result.analyzed and not result.notices, [n.one_line() for n in result.notices]
    return [(f.span.line, f.level.value) for f in result.findings if f.code == "CL401"]


def levels_in(results: CorpusResults, case: Case, header_mode: str) -> list[str]:
    return [level for line, level in cl401_findings(results, case.path, header_mode) if case.contains(line)]


# ---------------------------------------------------------------------------- the corpus itself


def test_corpus_is_measured():
    assert len(CASES) >= MIN_CASES, f"only {len(CASES)} measured CL401 cases"
    unmeasured = [c.id for c in CASES if not c.measured]
    assert not unmeasured, f"kernels without a '// measured:' line: {unmeasured}"
    quiet = [c for c in CASES if c.implicit_fp64 == 0]
    loud = [c for c in CASES if c.implicit_fp64 > 0]
    assert quiet and loud


def test_templates_measure_each_instantiation():
    for case in CASES:
        labels = [m.label for m in case.measured]
        if len(labels) > 1:
            assert all(labels) and len(set(labels)) == len(labels), (case.id, labels)


# ---------------------------------------------------------------------------- cudalint vs nvcc


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_cl401_follows_measured_fp64(case, header_mode, corpus_results):
    levels = levels_in(corpus_results, case, header_mode)
    where = f"{case.path.name}:{case.first}-{case.last} {case.kernel}"
    if case.fully_exempt:
        assert not levels, f"{where}: fp64 is {case.measured[0].exempt}, yet CL401 reports {levels}"
        return
    fp64 = case.implicit_fp64
    warned = "warning" in levels
    assert warned == (fp64 > 0), (
        f"{where}: nvcc emits {fp64} implicit fp64 PTX instructions, CL401 reports {levels or 'nothing'}"
    )
    if "note" in levels:
        assert fp64 == 0, f"{where}: CL401 says the compiler narrows to fp32, but nvcc emits {fp64} fp64 instructions"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_cl401_finding_belongs_to_a_case(path, header_mode, corpus_results):
    cases = cases_of(path)
    stray = [
        line
        for line, _ in cl401_findings(corpus_results, path, header_mode)
        if not any(c.contains(line) for c in cases)
    ]
    assert not stray, f"{path.name}: CL401 findings outside any measured kernel: lines {stray}"


def confusion(results: CorpusResults, header_mode: str) -> dict[str, list[Case]]:
    table: dict[str, list[Case]] = {"tp": [], "fp": [], "fn": [], "tn": []}
    for case in CASES:
        truth = case.implicit_fp64 > 0
        warned = "warning" in levels_in(results, case, header_mode)
        table[("t" if truth == warned else "f") + ("p" if warned else "n")].append(case)
    return table


def test_warning_precision_and_recall(header_mode, corpus_results):
    table = confusion(corpus_results, header_mode)
    tp, fp, fn, tn = (len(table[k]) for k in ("tp", "fp", "fn", "tn"))
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    lines = [
        f"CL401 warnings vs nvcc fp64 ({header_mode} headers), {len(CASES)} kernels: "
        f"tp={tp} fp={fp} fn={fn} tn={tn} precision={precision:.3f} recall={recall:.3f}"
    ]
    for kind, name in (("fp", "warning, but no implicit fp64"), ("fn", "implicit fp64, but no warning")):
        for case in table[kind]:
            lines.append(f"  {name}: {case.path.name}:{case.line} {case.kernel} (fp64={case.implicit_fp64})")
    report = "\n".join(lines)
    print(report)
    assert precision == 1.0 and recall == 1.0, report


# ---------------------------------------------------------------------------- the measurements


NVCC = shutil.which("nvcc")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_recorded_measurements_are_current(path):
    if NVCC is None:
        pytest.skip("nvcc is not on PATH")
    lines = path.read_text(encoding="utf-8").splitlines()
    tools = {m.tool for k in measure.source_kernels(lines, measure.MEASURED) for m in k.records}
    version = measure.nvcc_version(NVCC)
    wanted = {f"nvcc {version} {measure.DEFAULT_ARCH} ptx"}
    if tools != wanted:
        pytest.skip(f"recorded with {sorted(tools)}, local nvcc is {version}")
    _, measurements, problems = measure.measure_file(path, NVCC, measure.DEFAULT_ARCH, [])
    assert not problems, problems
    stale = []
    for m in measurements:
        line = records.recorded(m.kernel, m.label)
        recorded = None if line is None else line.fields.get("fp64")
        if recorded != m.fields["fp64"]:
            stale.append(f"{path.name}:{m.kernel.line} {m.label}: nvcc fp64={m.fields['fp64']}, recorded {recorded}")
    assert not stale, "run scripts/measure_fp64.py --write tests/corpus/cl401\n" + "\n".join(stale)

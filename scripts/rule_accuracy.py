"""Precision and recall of cudalint's rules against hardware counters recorded in the corpus.

Every kernel in tests/corpus/access carries the launch it was measured with and the
Nsight Compute counters it produced (scripts/measure_gpu.py). For each kernel this
script runs the rules with that launch's block shape and argument values, and compares
their warnings with what the hardware showed:

- CL101 + CL102: a global load or store class whose measured sectors per request are at
  least twice what its bytes need (50% efficiency or worse);
- CL201: shared-memory bank conflicts of at least half a wavefront per request;
- CL301: divergent branch targets, or predication that idles lanes (fewer than 25 of 32
  threads predicated on per instruction);
- CL302 (its `error` level): compute-sanitizer synccheck errors, for the kernels in
  tests/corpus/barriers.

It then judges the same findings line by line, where a corpus file has per-line
figures beside it (``<file>.lines.json``, scripts/measure_gpu.py --lines / --synccheck
--write): every line the hardware measured for a rule class is a true positive, false
positive, miss or true negative, with the hazard definitions of cudalint.profile.source_lines
(the ones bench/realcode/score.py applies to real programs), at warning+error level and
with notes.

The lines where the tool and the hardware disagree are the corpus's known limits, and the
corpus says so where they are: each miss carries an ``// expect-miss:`` marker and each
false positive a ``// known false positive:`` marker (scripts/corpus_markers.py) with the
reason. The markers never change the figures (a marked miss is still a miss); the script
lists every disagreement without its marker, and every marker the figures no longer back,
and then exits with status 1.

    python scripts/rule_accuracy.py [--verbose]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from cudalint import frontend
from cudalint.dataflow import AccessKind, BlockShape, Facts, LaunchContext, MemorySpace
from cudalint.diagnostics import Level
from cudalint.profile import source_lines
from cudalint.rules import RULES

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "access"
BARRIERS = ROOT / "tests" / "corpus" / "barriers"
GROUPS = {"CL101+CL102": ("CL101", "CL102"), "CL201": ("CL201",), "CL301": ("CL301",), "CL302": ("CL302",)}
PREDICATION_IDLE = 25.0
CONFLICTS_PER_REQUEST = 0.5


@cache
def _markers():
    spec = importlib.util.spec_from_file_location("corpus_markers", ROOT / "scripts" / "corpus_markers.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("corpus_markers", module)
    spec.loader.exec_module(module)
    return module


def _harness():
    spec = importlib.util.spec_from_file_location("measure_gpu", ROOT / "scripts" / "measure_gpu.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("measure_gpu", module)
    spec.loader.exec_module(module)
    return module


@cache
def _unit(path: Path):
    environment = frontend.build_environment(frontend.FrontendOptions(header_mode="embedded"))
    return frontend.parse_file(str(path), environment)


def launch_facts(launch, unit_path: Path | None = None) -> tuple[Facts, str]:
    """Facts for one recorded launch, and the name of the analyzed function; the kernel of a
    corpus header is parsed through its includer, ``unit_path``."""
    tu = _unit(unit_path or launch.path)
    bindings = {name: int(value) for name, value in launch.args.items() if value.lstrip("-").isdigit()}
    name = launch.kernel
    functions = {f.display_name.replace(", ", ","): f for f in tu.device_functions()}
    if name not in functions and "<" in name:
        # Explicit instantiations have no body of their own: the pattern, constants bound.
        base, _, arguments = name.partition("<")
        pattern = next(f for f in tu.device_functions() if f.is_template_pattern and f.name == base)
        values = [a.strip() for a in arguments.rstrip(">").split(",")]
        bindings.update(
            {p: int(v) for p, v in zip(pattern.template_parameters, values, strict=False) if v.lstrip("-").isdigit()}
        )
        name = pattern.display_name
    grid = (tuple(launch.grid) + (1, 1))[:3]
    shape = BlockShape(*launch.block, source="recorded launch", grid=grid)
    return Facts(tu, {name: LaunchContext(shape, bindings)}), name


def _ideal(facts: Facts, function: str, space: MemorySpace, kind: AccessKind, wavefronts: bool) -> float | None:
    for kernel in facts.kernels:
        if kernel.function.display_name != function:
            continue
        values = [
            (p.ideal_wavefronts if wavefronts else p.ideal_sectors)
            for a, p in kernel.accesses
            if a.space is space and a.kind is kind
        ]
        values = [v for v in values if v]
        return statistics.fmean(values) if values else None
    return None


def hardware_verdicts(launch, facts: Facts, function: str) -> dict[str, bool]:
    measured = launch.measured
    uncoalesced = False
    for key, kind in (("gld_sectors_per_request", AccessKind.LOAD), ("gst_sectors_per_request", AccessKind.STORE)):
        value = measured.get(key)
        ideal = _ideal(facts, function, MemorySpace.GLOBAL, kind, wavefronts=False)
        if value is not None and ideal:
            uncoalesced |= value / ideal >= 2.0
    conflicts = False
    for key, requests in (
        ("bank_conflicts_ld", "shld_requests_per_warp"),
        ("bank_conflicts_st", "shst_requests_per_warp"),
    ):
        count, per_warp = measured.get(key), measured.get(requests)
        if count and per_warp:
            conflicts |= count / (per_warp * launch.warps) >= CONFLICTS_PER_REQUEST
    idle = (measured.get("pred_on_ratio") or 32.0) < PREDICATION_IDLE
    divergent = bool(measured.get("branch_divergent_targets")) or idle
    return {"CL101+CL102": uncoalesced, "CL201": conflicts, "CL301": divergent}


def predicted_verdicts(facts: Facts, function: str, groups) -> dict[str, list[str]]:
    """The findings each rule group makes in ``function``: warnings and errors, or for
    CL302 its errors (the cases a run can demonstrate)."""
    found: dict[str, list[str]] = {group: [] for group in groups}
    for group in groups:
        levels = (Level.ERROR,) if group == "CL302" else (Level.WARNING, Level.ERROR)
        for code in GROUPS[group]:
            for finding in RULES[code].rule().check(facts):
                if finding.function == function and finding.level in levels:
                    found[group].append(f"{code} line {finding.span.line}")
    return found


@dataclass
class Tally:
    true_positive: int = 0
    false_positive: int = 0
    false_negative: int = 0
    true_negative: int = 0
    disagreements: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        flagged = self.true_positive + self.false_positive
        return self.true_positive / flagged if flagged else 1.0

    @property
    def recall(self) -> float:
        actual = self.true_positive + self.false_negative
        return self.true_positive / actual if actual else 1.0


def _cases():
    """(launch, hardware verdicts by rule group, facts, analyzed function) per recorded kernel."""
    harness = _harness()
    for path in sorted(CORPUS.glob("*.cu")):
        for launch in harness.collect(path, use_frontend=False):
            if launch.measured:
                facts, function = launch_facts(launch)
                yield launch, hardware_verdicts(launch, facts, function), facts, function
    for path in sorted(BARRIERS.glob("*.cu")):
        for launch in harness.collect(path, use_frontend=False):
            if launch.synccheck is not None:
                facts, function = launch_facts(launch)
                yield launch, {"CL302": launch.synccheck == "hang" or launch.synccheck > 0}, facts, function


def evaluate() -> dict[str, Tally]:
    tallies = {group: Tally() for group in GROUPS}
    for launch, hardware, facts, function in _cases():
        predicted = predicted_verdicts(facts, function, hardware)
        where = f"{launch.path.name}:{launch.kernel}"
        for group, actual in hardware.items():
            tally, flagged = tallies[group], bool(predicted[group])
            if flagged and actual:
                tally.true_positive += 1
            elif flagged:
                tally.false_positive += 1
                tally.disagreements.append(f"{where}: flagged ({', '.join(predicted[group])}), hardware clean")
            elif actual:
                tally.false_negative += 1
                tally.disagreements.append(f"{where}: hardware shows it, not flagged")
            else:
                tally.true_negative += 1
    return tallies


def _launch_findings(facts: Facts, function: str, name: str) -> list[source_lines.Finding]:
    """Every finding of the per-line rule classes in one launched kernel."""
    findings = []
    for codes in source_lines.CLASSES.values():
        for code in codes:
            for finding in RULES[code].rule().check(facts):
                if finding.function == function and Path(finding.span.file).name == name:
                    findings.append(
                        source_lines.Finding(code, finding.level.value, name, finding.span.line, finding.message)
                    )
    return findings


def line_evaluation() -> dict[str, dict[str, source_lines.Tally]]:
    """Level set -> class -> per-line tally over every corpus file with a sidecar."""
    harness = _harness()
    totals = {label: {name: source_lines.Tally() for name in source_lines.CLASSES} for label in source_lines.LEVEL_SETS}
    for path in sorted((ROOT / "tests" / "corpus").rglob("*.cu")):
        sidecars = {file: harness.read_sidecar(file) for file in (path, *harness.corpus_headers(path))}
        sidecars = {file: sidecar for file, sidecar in sidecars.items() if sidecar is not None}
        if not sidecars:
            continue
        launches = harness.collect(path, use_frontend=False)
        for measured_file, sidecar in sidecars.items():
            # A sidecar's per-line figures were measured with every launch its file lists
            # (``--lines`` replays them all); otherwise a launch needs a record of its own.
            held = [
                launch
                for launch in launches
                if launch.path == measured_file
                and (sidecar.get("lines") or launch.measured or launch.synccheck is not None)
            ]
            verdicts, findings = file_line_verdicts(measured_file, sidecar, held, path)
            for label, levels in source_lines.LEVEL_SETS.items():
                for name, tally in source_lines.tally(verdicts, findings, levels).items():
                    tally.true_positive = [(measured_file.name, n) for _, n in tally.true_positive]
                    totals[label][name].add(tally)
    return totals


def file_line_verdicts(
    path: Path, sidecar: dict, launches, unit_path: Path | None = None
) -> tuple[dict, list[source_lines.Finding]]:
    """One corpus file's per-line hardware verdicts and its findings under each recorded
    launch; a corpus header's through its includer, ``unit_path``."""
    figures = {int(n): source_lines.LineFigures.from_row(row) for n, row in sidecar.get("lines", {}).items()}
    errors = {int(n): count for n, count in sidecar.get("barrier_errors", {}).items()}
    branches = {
        line: branch
        for (_, line), branch in source_lines.branch_statements(
            _unit(unit_path or path), lambda f: path.name if Path(f).name == path.name else None
        ).items()
    }
    per_line = source_lines.file_verdicts(figures, branches, errors, synccheck_complete=False)
    findings: list[source_lines.Finding] = []
    for launch in launches:
        facts, function = launch_facts(launch, unit_path)
        findings += _launch_findings(facts, function, path.name)
        if launch.synccheck is not None and launch.synccheck != "hang":
            # A launch synccheck ran to completion measured each of its kernel's barriers.
            for kernel in facts.kernels:
                if kernel.function.display_name == function:
                    for barrier in kernel.barriers:
                        line = barrier.expr.span.line
                        per_line["barrier"][line] = errors.get(line, 0) > 0
    verdicts = {name: {(path.name, n): hazard for n, hazard in lines.items()} for name, lines in per_line.items()}
    return verdicts, findings


def measured_files() -> list[Path]:
    """Every corpus file with per-line figures of its own (a corpus header included)."""
    harness = _harness()
    return sorted(
        path
        for path in (ROOT / "tests" / "corpus").rglob("*.cu*")
        if path.suffix in (".cu", ".cuh") and harness.read_sidecar(path) is not None
    )


def limit_markers() -> dict[tuple[str, int], list]:
    """The ``expect-miss`` and ``known false positive`` markers of the measured files, by
    (file name, line), for the codes the per-line classes judge."""
    markers = _markers()
    judged = {code for codes in source_lines.CLASSES.values() for code in codes}
    found: dict[tuple[str, int], list] = {}
    for path in measured_files():
        for marker in markers.file_markers(path):
            if marker.kind != markers.EXPECT and marker.code in judged:
                found.setdefault((path.name, marker.line), []).append(marker)
    return found


def _least_level(label: str) -> str:
    return source_lines.LEVEL_SETS[label][0]


def _documents(marker, kind: str, codes: tuple[str, ...], label: str) -> bool:
    """Whether ``marker`` records the disagreement ``kind`` (a miss or a false positive) of
    a class judging ``codes``, in the level set ``label``: a miss at a level means no
    finding at it or above, so a miss at ``warning`` is a miss of warning+error only."""
    if marker.kind != kind or marker.code not in codes:
        return False
    levels = source_lines.LEVEL_SETS[label]
    if kind == _markers().FALSE_POSITIVE:
        return marker.level in levels
    return marker.level is None or marker.level in ("note", _least_level(label))


def _home_set(marker) -> str:
    """The level set in which a marker's disagreement must show: a miss at every level, or a
    note that is a false positive, in all levels; the rest in warning+error."""
    return "all levels" if marker.level in (None, "note") else "warning+error"


def marker_disagreements(totals: dict[str, dict[str, source_lines.Tally]], marked: dict) -> list[str]:
    """Per-line disagreements no marker records, and markers no disagreement backs."""
    markers = _markers()
    problems = []
    shown: set[tuple[str, int, str, str]] = set()
    unmarked: set[tuple[str, int, str, str]] = set()
    for label, classes in totals.items():
        for name, tally in classes.items():
            codes = source_lines.CLASSES[name]
            disagreements = [
                *(
                    (file, line, markers.FALSE_POSITIVE, f"{f.rule} {f.level}, hardware clean")
                    for file, line, f in tally.false_positive
                ),
                *((file, line, markers.MISS, "hardware shows it, not flagged") for file, line in tally.false_negative),
            ]
            for file, line, kind, what in disagreements:
                found = [m for m in marked.get((file, line), []) if _documents(m, kind, codes, label)]
                shown.update((file, line, m.code, m.kind) for m in found if _home_set(m) == label)
                if not found and (file, line, name, kind) not in unmarked:
                    unmarked.add((file, line, name, kind))
                    problems.append(f"{file}:{line}: {name} ({label}): {what}, and no `{kind}:` marker says so")
    for (file, line), found in sorted(marked.items()):
        for marker in found:
            if (file, line, marker.code, marker.kind) not in shown:
                problems.append(
                    f"{file}:{line}: `{marker.describe()}`, where the figures show no such disagreement "
                    f"({_home_set(marker)})"
                )
    return problems


def _ratio(value: float | None) -> str:
    return "    -" if value is None else f"{value:5.3f}"


def _reason(marked: dict, file: str, line: int, codes: tuple[str, ...]) -> str:
    reasons = [m.reason for m in marked.get((file, line), []) if m.code in codes and m.reason]
    return f" ({'; '.join(reasons)})" if reasons else ""


def print_line_table(totals: dict[str, dict[str, source_lines.Tally]], verbose: bool, marked: dict) -> None:
    print(f"\nper source line: {'class':<11} {'level':<14} {'TP':>4} {'FP':>4} {'FN':>4} {'TN':>5}  precision  recall")
    for name in source_lines.CLASSES:
        for label in source_lines.LEVEL_SETS:
            t = totals[label][name]
            if not (t.true_positive or t.false_positive or t.false_negative or t.negatives):
                continue
            print(
                f"{'':<16} {name:<11} {label:<14} {len(t.true_positive):>4} {len(t.false_positive):>4} "
                f"{len(t.false_negative):>4} {t.negatives:>5}  {_ratio(t.precision):>9}  {_ratio(t.recall):>6}"
            )
            if verbose:
                codes = source_lines.CLASSES[name]
                for file, line, finding in t.false_positive:
                    reason = _reason(marked, file, line, codes)
                    print(f"    {file}:{line}: {finding.rule} {finding.level}, hardware clean{reason}")
                for file, line in t.false_negative:
                    print(f"    {file}:{line}: hardware shows it, not flagged{_reason(marked, file, line, codes)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list every disagreement")
    options = parser.parse_args(argv)
    tallies = evaluate()
    print(f"{'rules':<12} {'TP':>4} {'FP':>4} {'FN':>4} {'TN':>4}  precision  recall")
    for group, tally in tallies.items():
        print(
            f"{group:<12} {tally.true_positive:>4} {tally.false_positive:>4} {tally.false_negative:>4} "
            f"{tally.true_negative:>4}  {tally.precision:9.3f}  {tally.recall:6.3f}"
        )
        if options.verbose:
            for line in tally.disagreements:
                print(f"    {line}")
    totals, marked = line_evaluation(), limit_markers()
    print_line_table(totals, options.verbose, marked)
    problems = marker_disagreements(totals, marked)
    if problems:
        print("\nmarkers and per-line figures disagree:")
        print("\n".join(f"    {problem}" for problem in problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

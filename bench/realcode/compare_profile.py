#!/usr/bin/env python3
"""Compare measured-lines files (``cudalint profile``) with the recorded per-line figures.

    python bench/realcode/compare_profile.py --measured DIR [--work /tmp/realcode ...] [NAME ...]
    python bench/realcode/compare_profile.py --measured DIR --corpus FILE.measured.json ... [--judge [--static]]

Real programs: ``DIR/<name>.measured.json`` against ``bench/realcode/truth/<name>.json``,
the files named relative to the program folder as truth files name them. Corpus drivers
(``--corpus``): each measured file's lines of a corpus file against that file's sidecar
(``tests/corpus/**/<file>.lines.json``). Prints, per program or corpus file, the lines
compared, the lines whose figures all agree, and every differing figure (column, recorded,
measured); lines only one side has are counted apart. Exit status 1 when a figure differs.

``--judge`` (corpus drivers): also runs ``cudalint check FILE --profile`` on each corpus
file and scores its findings at warning level against the measured verdicts, per class
(``--static``: without the profile, the static mode against the same verdicts). Real
programs are judged by ``score.py --profile DIR``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "src"))  # the package, where it is not installed
import programs as listing  # noqa: E402
import truth as truths  # noqa: E402

from cudalint.profile import measured  # noqa: E402
from cudalint.profile.source_lines import CLASSES, COLUMNS, Finding, Tally, file_verdicts, tally  # noqa: E402


def compare(recorded: dict[str, dict[str, list]], found: dict[str, dict[str, list]], label: str) -> tuple[int, list]:
    """(lines compared, differences) between two {file: {line: row}} maps; prints them."""
    compared, equal, differences, one_sided = 0, 0, [], 0
    for file in sorted(set(recorded) | set(found)):
        mine, theirs = recorded.get(file, {}), found.get(file, {})
        one_sided += len(set(mine) ^ set(theirs))
        for line in sorted(set(mine) & set(theirs), key=int):
            compared += 1
            diff = [
                (column, a, b)
                for column, a, b in zip(COLUMNS, mine[line], theirs[line], strict=False)
                if abs(a - b) > 1e-6 * max(abs(a), abs(b), 1)
            ]
            equal += not diff
            differences += [(file, line, *d) for d in diff]
    print(f"{label}: {compared} lines compared, {equal} equal, {one_sided} on one side only")
    for file, line, column, a, b in differences:
        print(f"  {file}:{line} {column}: recorded {a:g}, measured {b:g}")
    return compared, differences


def judge(source: Path, lines: measured.MeasuredLines, figures: dict, profile: Path | None) -> dict[str, Tally]:
    """``cudalint check source [--profile]``'s findings against the measured verdicts."""
    from cudalint import frontend
    from cudalint.profile import analysis, join

    command = [sys.executable, "-m", "cudalint", "check", str(source), "--headers", "embedded", "--format", "json"]
    command += ["--no-cache", "--exit-zero", *(["--profile", str(profile)] if profile else [])]
    path_list = os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        command, capture_output=True, text=True, check=False, env={**os.environ, "PYTHONPATH": path_list}
    )
    findings = [
        Finding(f["code"], f["level"], "k", f["line"], f["message"]) for f in json.loads(done.stdout)["findings"]
    ]
    environment = frontend.build_environment(
        frontend.FrontendOptions(header_mode="embedded"), search_from=str(source.parent)
    )
    path = str(source.resolve())
    context = analysis.line_facts(path, frontend.parse_file(path, environment), lambda: None)
    verdicts = file_verdicts(figures, context.branches, {}, False, join.program_slots(lines))
    keyed = {name: {("k", n): hazard for n, hazard in found.items()} for name, found in verdicts.items()}
    return tally(keyed, findings, ("warning", "error"))


def rows(lines: measured.MeasuredLines, name_of) -> dict[str, dict[str, list]]:
    found: dict[str, dict[str, list]] = {}
    for file, figures in lines.lines.items():
        name = name_of(file)
        if name is not None:
            found.setdefault(name, {}).update({str(n): f.row() for n, f in figures.items()})
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--measured", type=Path, required=True, help="folder of <name>.measured.json files")
    parser.add_argument("--work", type=Path, action="append", help="work folder(s) of the built programs")
    parser.add_argument("--corpus", nargs="*", help="measured files of corpus drivers, compared with the sidecars")
    parser.add_argument("--judge", action="store_true", help="score check --profile on the corpus files, per class")
    parser.add_argument("--static", action="store_true", help="with --judge: score the static mode instead")
    options = parser.parse_args(argv)
    failed = False
    if options.corpus is not None:
        sidecars = {
            path.name.removesuffix(".lines.json"): path for path in (ROOT / "tests" / "corpus").rglob("*.lines.json")
        }
        totals = {name: Tally() for name in CLASSES}
        for name in options.corpus:
            lines = measured.read(options.measured / name)
            for file, figures in sorted(lines.lines.items()):
                sidecar = sidecars.get(Path(file).name)
                if sidecar is None:
                    continue
                recorded = {Path(file).name: json.loads(sidecar.read_text())["lines"]}
                found = {Path(file).name: {str(n): f.row() for n, f in figures.items()}}
                failed |= bool(compare(recorded, found, f"{name}: {Path(file).name}")[1])
                if options.judge:
                    source = sidecar.with_name(sidecar.name.removesuffix(".lines.json"))
                    profile = None if options.static else options.measured / name
                    for label, counts in judge(source, lines, figures, profile).items():
                        totals[label].add(counts)
        if options.judge:
            print(f"warning level, {'static' if options.static else 'with the profile'}:")
            for label, counts in totals.items():
                print(
                    f"  {label:<10} TP {len(counts.true_positive)} FP {len(counts.false_positive)} "
                    f"FN {len(counts.false_negative)} precision {counts.precision} recall {counts.recall}"
                )
        return 1 if failed else 0
    works = options.work or [listing.DEFAULT_WORK]
    for program in listing.select(listing.load(), options.names, None):
        path = options.measured / f"{program.name}.measured.json"
        truth_path = truths.TRUTH / f"{program.name}.json"
        work = next((w for w in works if program.folder(w).exists()), None)
        if not path.exists() or not truth_path.exists() or work is None:
            continue
        truth = json.loads(truth_path.read_text())
        lines = measured.read(path)
        found = rows(lines, lambda file, program=program, work=work: truths.relative_file(file, program, work))
        print(f"{program.name}: measured with {lines.provenance}; truth: {truth['measured']}")
        failed |= bool(compare(truth["lines"], found, program.name)[1])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

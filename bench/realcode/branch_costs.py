#!/usr/bin/env python3
"""CL301's cost estimate against the hardware: predicted idle share of each branch line
versus the share Nsight Compute measured.

    python bench/realcode/branch_costs.py [--work /tmp/realcode] [--facts-dir DIR] [--reuse] [--list] [NAME ...]

For every program with a truth file, ``cudalint facts --format json --included`` runs on
each source of its compile_commands.json (in the program folder, so that the launches
beside a kernel give their values, as ``cudalint check`` takes them, and the kernels a
source includes from the program's headers count too). Each branch whose lanes'
decisions cudalint can compute (not data-dependent, not a size known only at run time)
carries its estimate: the lane slots the split leaves idle, as a share of those its
function issues (``cost.idle_share``; the largest where a line is analyzed more than
once: helpers inlined into several kernels, several launches).

Measured, from the truth file (the README's divergence definition): the lane slots the
statement left idle, ``32 * inst - pred`` summed over its line and every line it guards,
over ``32 * inst`` of its function's lines.

Printed: for the branch lines executed where cudalint predicts a split, the ratio of the
larger to the smaller of the two shares, each floored at ``--floor`` (a tenth of the
0.5% threshold: below it both are "nothing" and their ratio means nothing), its median
and 90th percentile, and how often prediction and measurement fall on the same side
of the 0.5% threshold. Lines where the condition depends on data or a size unknown to
cudalint are counted apart, with the share of them the hardware found divergent and
costly (the README's hazard). ``--list`` prints every line with both figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import programs as listing  # noqa: E402
import score  # noqa: E402 (puts the package on the path where it is not installed)

from cudalint.profile import source_lines  # noqa: E402
from cudalint.profile.source_lines import LineFigures  # noqa: E402

FLOOR = 0.0005


@dataclass(frozen=True)
class Line:
    program: str
    file: str
    line: int
    predicted: float | None
    """None: the split depends on data or on a size cudalint does not know."""
    measured: float
    hazard: bool
    """The README's divergence hazard on this line (divergent and at least 0.5% idle)."""


def facts_of(program: listing.Program, work: Path, cache: Path, reuse: bool) -> list[dict]:
    """``cudalint facts --format json`` of each compile unit of the program (kernel records)."""
    folder = program.folder(work)
    target = cache / f"{program.name}.json"
    if reuse and target.exists():
        return json.loads(target.read_text())
    database = folder / "compile_commands.json"
    kernels: list[dict] = []
    for entry in json.loads(database.read_text()):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "cudalint",
                "facts",
                "--format",
                "json",
                "--included",
                "--compile-commands",
                str(database),
                entry["file"],
            ],
            cwd=folder,
            capture_output=True,
            text=True,
            check=False,
        )
        try:
            document = json.loads(result.stdout)
        except json.JSONDecodeError:
            print(f"branch_costs: {program.name}: {entry['file']}: no facts ({result.stderr.strip()[-200:]})")
            continue
        kernels.extend(document.get("kernels", document) if isinstance(document, dict) else document)
    cache.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(kernels))
    return kernels


def predictions(kernels: list[dict], folder: Path) -> dict[tuple[str, int], float | None]:
    """(file, line) -> the largest predicted idle share over its analyses, None where every
    analysis found the split data- or size-dependent; lines predicted not to split are left out."""
    found: dict[tuple[str, int], float | None] = {}
    for kernel in kernels:
        for branch in kernel.get("branches", []):
            cost = branch.get("cost")
            if cost is None or cost["verdict"] == "none":
                continue
            file, line = branch["location"].rsplit(":", 2)[:2]
            path = Path(file) if Path(file).is_absolute() else folder / file
            key = (Path(os.path.relpath(path.resolve(), folder)).as_posix(), int(line))
            # A split that depends on a size or data was costed at sampled values: unknown.
            share = cost["idle_share"] if cost["verdict"] != "possible" else None
            previous = found.get(key)
            found[key] = share if previous is None else max(previous, share) if share is not None else previous
    return found


def measured_lines(program: listing.Program, truth: dict, work: Path, facts_dir: Path, reuse: bool) -> list[Line]:
    folder = program.folder(work)
    predicted = predictions(facts_of(program, work, facts_dir, reuse), folder)
    branches = score.branch_statements(program, work)
    out = []
    for file in sorted({file for file, _ in predicted}):
        figures = {int(n): LineFigures.from_row(row) for n, row in truth["lines"].get(file, {}).items()}
        in_file = {b.line: b for (name, _), b in branches.items() if name == file}
        hazards = source_lines.file_verdicts(figures, in_file, {}, False)["divergence"]
        for (name, number), share in sorted(predicted.items()):
            branch, own = in_file.get(number), figures.get(number)
            if name != file or branch is None or own is None or not own.inst:
                continue
            first, last = branch.function or (min(figures), max(figures))
            slots = source_lines.issued_slots(f for n, f in figures.items() if first <= n <= last)
            idle = sum(32 * figures[n].inst - figures[n].pred for n in branch.body_lines | {number} if n in figures)
            out.append(
                Line(program.name, file, number, share, idle / slots if slots else 0.0, hazards.get(number, False))
            )
    return out


def folded_ratio(predicted: float, measured: float, floor: float) -> float:
    high, low = max(predicted, floor), max(measured, floor)
    return max(high, low) / min(high, low)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(lines: list[Line], floor: float) -> list[str]:
    known = [line for line in lines if line.predicted is not None]
    unknown = [line for line in lines if line.predicted is None]
    out = [f"{len(lines)} executed branch lines where cudalint predicts lanes may split"]
    if known:
        ratios = [folded_ratio(line.predicted, line.measured, floor) for line in known]
        mattering = [
            folded_ratio(line.predicted, line.measured, floor)
            for line in known
            if max(line.predicted, line.measured) >= source_lines.CHEAP_SHARE
        ]
        agree = sum(
            1
            for line in known
            if (line.predicted >= source_lines.CHEAP_SHARE) == (line.measured >= source_lines.CHEAP_SHARE)
        )
        out += [
            f"estimated ({len(known)} lines): predicted/measured idle share, folded ratio (floor {floor:.2%}): "
            f"median {statistics.median(ratios):.2f}x, 90th percentile {percentile(ratios, 0.9):.2f}x",
            f"  where either is at least {source_lines.CHEAP_SHARE:.1%} ({len(mattering)} lines): "
            + (
                f"median {statistics.median(mattering):.2f}x, 90th percentile {percentile(mattering, 0.9):.2f}x"
                if mattering
                else "none"
            ),
            f"  same side of {source_lines.CHEAP_SHARE:.1%}: {agree} of {len(known)}",
        ]
    if unknown:
        hazards = sum(1 for line in unknown if line.hazard)
        out.append(
            f"data- or size-dependent ({len(unknown)} lines): {hazards} measured divergent and costly "
            f"({hazards / len(unknown):.0%})"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--part", choices=listing.PARTS, default="classic")
    parser.add_argument("--work", type=Path, default=listing.DEFAULT_WORK)
    parser.add_argument("--truth", type=Path, default=score.TRUTH)
    parser.add_argument("--facts-dir", type=Path, help="where each program's facts are kept (default: <work>/facts)")
    parser.add_argument("--reuse", action="store_true", help="read the facts an earlier run kept")
    parser.add_argument("--floor", type=float, default=FLOOR)
    parser.add_argument("--list", action="store_true", help="print every line with both figures")
    options = parser.parse_args(argv)
    facts_dir = options.facts_dir or options.work / "facts"
    lines: list[Line] = []
    for program in listing.select(listing.load(), options.names, options.part):
        truth_path = options.truth / f"{program.name}.json"
        if not truth_path.exists() or not program.folder(options.work).exists():
            continue
        lines += measured_lines(program, json.loads(truth_path.read_text()), options.work, facts_dir, options.reuse)
    if options.list:
        for line in lines:
            predicted = "data/size" if line.predicted is None else f"{line.predicted:.3%}"
            mark = " hazard" if line.hazard else ""
            print(f"{line.program}/{line.file}:{line.line}  predicted {predicted}  measured {line.measured:.3%}{mark}")
    print("\n".join(report(lines, options.floor)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

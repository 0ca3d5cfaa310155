#!/usr/bin/env python3
"""Score cudalint's findings on the real programs against their per-line hardware truth.

    python bench/realcode/score.py [--work /tmp/realcode ...] [--sarif-dir DIR] [--reuse] [--list] [--markdown FILE]
        [--part classic|modern] [--time-limit SECONDS] [NAME ...]

For each program with a truth file (bench/realcode/truth/<name>.json): run
``cudalint . --format sarif`` in its program folder (it finds the compile_commands.json
that build.py wrote, as a user's build would provide it; ``--reuse`` reads the SARIF
log of an earlier run from ``<work>/sarif/`` or ``--sarif-dir``), and judge every finding of CL101/CL102,
CL201, CL301, CL302, CL401 and CL502 on its line (cudalint.profile.source_lines has the hazard
definitions; the README explains them):

* a finding on a line where the hardware showed its class's hazard: true positive;
* a finding on a measured line without the hazard: false positive;
* a hazard line without a finding: miss (false negative);
* a finding on a line the hardware never measured for its class (not executed, never
  launched, no access of that class there): unmeasured, counted apart.

Branch statements and the lines of their bodies come from cudalint's own parse
(``cudalint.frontend.parse_file`` with the same compile_commands.json): a CL301 verdict
looks at the statement's line (divergent branches there) and at its bodies' lines
(predicated-on against active thread instructions).

Scores are printed per class, at warning+error level and with notes; when programs of
both parts (classic, modern) are scored, per part and then for all of them. The two parts
may live in different work folders: ``--work`` given twice. ``--list`` prints
every false positive and miss with its file:line, its figures and the source line,
read from the extracted program (source text is printed, never stored).

``--profile DIR`` scores the profile-guided mode: cudalint runs with ``--profile
DIR/<name>.measured.json`` (``cudalint profile`` on the GPU machine), which joins the
measured figures with its findings; ``--profile truth`` makes those files from the truth
files, which scores the join alone.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import programs as listing  # noqa: E402

sys.path.insert(0, str(HERE.parent.parent / "src"))  # the package, where it is not installed
from cudalint.profile import source_lines  # noqa: E402
from cudalint.profile.measured import MeasuredLines  # noqa: E402
from cudalint.profile.source_lines import Branch, Finding, LineFigures, Tally  # noqa: E402

TRUTH = HERE / "truth"


@dataclass
class ProgramScore:
    name: str
    part: str
    folder: Path
    tallies: dict[str, dict[str, Tally]]
    """Level set -> class -> tally."""
    figures: dict[tuple[str, int], LineFigures]
    branches: dict[tuple[str, int], Branch]


def run_cudalint(folder: Path, sarif: Path, time_limit: float | None = None, profile: Path | None = None) -> None:
    sarif.parent.mkdir(parents=True, exist_ok=True)
    limit = ["--time-limit", f"{time_limit:g}"] if time_limit is not None else []
    if profile is not None:
        limit += ["--profile", str(profile)]
    subprocess.run(
        [
            sys.executable,
            "-m",
            "cudalint",
            ".",
            "--format",
            "sarif",
            "--output",
            str(sarif),
            "--exit-zero",
            "--no-cache",
            "--min-level",
            "note",
            *limit,
        ],
        cwd=folder,
        capture_output=True,
        check=False,
    )


def read_findings(sarif: Path, folder: Path) -> list[Finding]:
    findings = []
    for run in json.loads(sarif.read_text()).get("runs", []):
        for result in run.get("results", []):
            for location in result.get("locations", [])[:1]:
                physical = location.get("physicalLocation", {})
                uri = physical.get("artifactLocation", {}).get("uri", "")
                line = physical.get("region", {}).get("startLine")
                if not uri or line is None:
                    continue
                path = Path(uri.removeprefix("file://"))
                name = Path(os.path.relpath(path, folder)).as_posix() if path.is_absolute() else path.as_posix()
                findings.append(
                    Finding(
                        result.get("ruleId", ""),
                        result.get("level", "warning"),
                        name,
                        int(line),
                        result.get("message", {}).get("text", ""),
                    )
                )
    return findings


def branch_statements(program: listing.Program, work: Path) -> dict[tuple[str, int], Branch]:
    """Every if/for/while/do/switch of the program's device code, by (file, line)."""
    from cudalint import frontend

    folder = program.folder(work)
    root = program.root(work).resolve()
    database = folder / "compile_commands.json"
    environment = frontend.build_environment(
        frontend.FrontendOptions(compile_commands=str(database)), search_from=str(folder)
    )

    def name_of(file: str) -> str | None:
        path = Path(file) if Path(file).is_absolute() else folder / file
        path = path.resolve()
        return Path(os.path.relpath(path, folder)).as_posix() if path.is_relative_to(root) else None

    branches: dict[tuple[str, int], Branch] = {}
    for entry in json.loads(database.read_text()):
        source = entry["file"]
        raw = Path(source).read_bytes()
        try:
            # Lines are what matter here: a file in a legacy 8-bit encoding parses as Latin-1.
            text = raw.decode("utf-8") if _utf8(raw) else raw.decode("latin-1")
            unit = frontend.parse_file(source, environment, text=text)
        except Exception as error:  # noqa: BLE001 - a file the parser rejects has no branches to score
            print(f"score: {program.name}: {source}: not parsed ({error})", file=sys.stderr)
            continue
        for key, branch in source_lines.branch_statements(unit, name_of).items():
            branches.setdefault(key, branch)
    return branches


def _utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def score_program(
    program: listing.Program,
    truth: dict,
    work: Path,
    reuse: bool,
    cheap_share: float = source_lines.CHEAP_SHARE,
    sarif_dir: Path | None = None,
    time_limit: float | None = None,
    profile: Path | None = None,
) -> ProgramScore:
    folder = program.folder(work)
    sarif = (sarif_dir or work / "sarif") / f"{program.name}.sarif"
    if profile is not None and profile.name == "truth":
        # The truth's own figures as the measured-lines file: the join alone, measured once.
        profile = sarif.with_suffix(".measured.json")
        profile.parent.mkdir(parents=True, exist_ok=True)
        profile.write_text(measured_from_truth(truth, folder).to_json())
    elif profile is not None:
        profile = profile / f"{program.name}.measured.json"
    if not (reuse and sarif.exists()):
        run_cudalint(folder, sarif, time_limit, profile)
    findings = read_findings(sarif, folder) if sarif.exists() else []
    branches = branch_statements(program, work)
    figures: dict[tuple[str, int], LineFigures] = {}
    verdicts: dict[str, dict[tuple[str, int], bool]] = {name: {} for name in source_lines.CLASSES}
    complete = bool(truth.get("synccheck", {}).get("complete"))
    files = set(truth["lines"]) | set(truth["barrier_errors"])
    total_slots = source_lines.issued_slots(
        LineFigures.from_row(row) for lines in truth["lines"].values() for row in lines.values()
    )
    for file in files:
        per_line = {int(n): LineFigures.from_row(row) for n, row in truth["lines"].get(file, {}).items()}
        figures.update({(file, n): f for n, f in per_line.items()})
        errors = {int(n): count for n, count in truth["barrier_errors"].get(file, {}).items()}
        file_branches = {line: b for (name, line), b in branches.items() if name == file}
        for name, lines in source_lines.file_verdicts(
            per_line, file_branches, errors, complete, total_slots, cheap_share
        ).items():
            verdicts[name].update({(file, n): hazard for n, hazard in lines.items()})
    tallies = {
        label: source_lines.tally(verdicts, findings, levels) for label, levels in source_lines.LEVEL_SETS.items()
    }
    return ProgramScore(program.name, program.suite.part, folder, tallies, figures, branches)


def measured_from_truth(truth: dict, folder: Path) -> MeasuredLines:
    """A truth file as the measured-lines file ``cudalint profile`` would have written."""
    columns = truth.get("columns", list(source_lines.COLUMNS))
    return MeasuredLines(
        gpu=truth.get("measured", "unknown"),
        lines={
            str((folder / name).resolve()): {
                int(n): LineFigures(**dict(zip(columns, row, strict=True))) for n, row in rows.items()
            }
            for name, rows in truth["lines"].items()
        },
    )


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def table(totals: dict[str, dict[str, Tally]]) -> list[str]:
    out = [
        "| class | rules | level | measured lines | hazard lines | TP | FP | FN | precision | recall | unmeasured |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, codes in source_lines.CLASSES.items():
        for label in source_lines.LEVEL_SETS:
            t = totals[label][name]
            hazards = len(t.true_positive) + len(t.false_negative)
            measured = hazards + len(t.false_positive) + t.negatives
            out.append(
                f"| {name} | {'+'.join(codes)} | {label} | {measured} | {hazards} "
                f"| {len(t.true_positive)} | {len(t.false_positive)} | {len(t.false_negative)} "
                f"| {_ratio(t.precision)} | {_ratio(t.recall)} | {len(t.unmeasured)} |"
            )
    return out


def describe(figures: LineFigures | None, name: str) -> str:
    if figures is None:
        return "no figures"
    if name == "global":
        return f"sectors {figures.gsec:g} ideal {figures.gideal:g} worst {figures.gworst:g}x"
    if name == "shared":
        return f"wavefronts {figures.swf:g} ideal {figures.sideal:g} worst {figures.sworst:g}x"
    if name == "divergence":
        return (
            f"divergent {figures.div:g} of {figures.bra:g} branch executions; "
            f"pred-on {figures.pred:g} / active {figures.thr:g}"
        )
    if name == "fp64":
        return f"fp64 instructions {figures.fp64}, of them F32->F64 promotions {figures.cvt64}"
    if name == "local":
        return f"local-memory instructions {figures.local}"
    return f"barriers {figures.bar}, executed {figures.inst:g}"


def body_figures(score: ProgramScore, file: str, line: int) -> str:
    branch = score.branches.get((file, line))
    if branch is None:
        return ""
    body = branch.body_lines
    active = sum(score.figures[(file, n)].thr for n in body if (file, n) in score.figures)
    on = sum(score.figures[(file, n)].pred for n in body if (file, n) in score.figures)
    return f"; body lines {min(body, default=0)}-{max(body, default=0)}: pred-on {on:g} / active {active:g}"


def listing_lines(scores: list[ProgramScore], label: str) -> list[str]:
    out = []
    for name in source_lines.CLASSES:
        for kind in ("false_positive", "false_negative", "unmeasured"):
            rows = []
            for score in scores:
                folder = score.folder
                for entry in getattr(score.tallies[label][name], kind):
                    file, line = entry[0], entry[1]
                    finding = entry[2] if len(entry) > 2 else None
                    figures = describe(score.figures.get((file, line)), name)
                    if name == "divergence":
                        figures += body_figures(score, file, line)
                    source = _source_line(folder / file, line)
                    level = f" [{finding.rule} {finding.level}]" if finding else ""
                    rows.append(f"  {score.name}/{file}:{line}{level}  {figures}\n      | {source}")
            if rows:
                out.append(f"## {name}: {kind.replace('_', ' ')} ({label}): {len(rows)}")
                out.extend(rows)
    return out


def _source_line(path: Path, line: int) -> str:
    try:
        return path.read_text(errors="replace").splitlines()[line - 1].strip()
    except (OSError, IndexError):
        return "(source not available)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--part", choices=listing.PARTS, help="only the programs of this part of the yardstick")
    parser.add_argument(
        "--work",
        type=Path,
        action="append",
        help="a work folder holding built programs; give it twice when the classic and modern parts "
        f"were built in different folders (default: {listing.DEFAULT_WORK})",
    )
    parser.add_argument("--truth", type=Path, default=TRUTH)
    parser.add_argument("--reuse", action="store_true", help="read SARIF logs of an earlier run")
    parser.add_argument(
        "--sarif-dir",
        type=Path,
        help="where each program's SARIF log is written and --reuse reads it (default: <work>/sarif); "
        "runs of different cudalint versions over one work folder each need their own",
    )
    parser.add_argument(
        "--list",
        choices=list(source_lines.LEVEL_SETS),
        nargs="?",
        const="all levels",
        help="print every false positive, miss and unmeasured finding (with source text)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        help="cudalint's CPU-time limit per file, in seconds (default: cudalint's own default)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="DIR",
        help="run `cudalint check --profile DIR/<name>.measured.json` (written by `cudalint profile`): the "
        "profile-guided mode's score; `truth`: measured-lines files made from the truth files",
    )
    parser.add_argument("--markdown", type=Path, help="write the score tables (no source text) to this file")
    parser.add_argument(
        "--cheap-share",
        type=float,
        default=source_lines.CHEAP_SHARE,
        help="divergence idling less than this share of its function's lane slots is no hazard "
        "(0: every measured divergence is)",
    )
    options = parser.parse_args(argv)
    options.work = options.work or [listing.DEFAULT_WORK]
    scores = []
    for program in listing.select(listing.load(), options.names, options.part):
        truth_path = options.truth / f"{program.name}.json"
        work = next((w for w in options.work if program.folder(w).exists()), None)
        if not truth_path.exists() or work is None:
            continue
        scores.append(
            score_program(
                program,
                json.loads(truth_path.read_text()),
                work,
                options.reuse,
                options.cheap_share,
                options.sarif_dir,
                options.time_limit,
                options.profile,
            )
        )
    parts = [part for part in listing.PARTS if any(score.part == part for score in scores)]
    lines = [f"{len(scores)} programs scored"]
    if len(parts) > 1:
        for part in parts:
            chosen = [score for score in scores if score.part == part]
            lines += ["", f"{part}: {len(chosen)} programs", "", *table(totals_of(chosen))]
        lines += ["", f"all: {len(scores)} programs", ""]
    lines += table(totals_of(scores))
    print("\n".join(lines))
    if options.list:
        print("\n".join(listing_lines(scores, options.list)))
    if options.markdown:
        options.markdown.write_text("\n".join(lines[1:]).strip() + "\n")
    return 0


def totals_of(scores: list[ProgramScore]) -> dict[str, dict[str, Tally]]:
    totals = {label: {name: Tally() for name in source_lines.CLASSES} for label in source_lines.LEVEL_SETS}
    for score in scores:
        for label, classes in score.tallies.items():
            for name, counts in classes.items():
                totals[label][name].add(counts)
    return totals


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Turn the GPU machine's exports into one truth file per program: figures per source line.

    python bench/realcode/truth.py --exports DIR [--work /tmp/realcode] [--part classic|modern] [NAME ...]

For each built program, ``nvdisasm -gi`` of its binary (here, no GPU) maps every SASS
instruction to its innermost source line; the per-instruction counters of
``<exports>/<name>.source.csv`` (bench/realcode/measure.py) are summed per line
(cudalint.profile.source_lines); ``<name>.synccheck.log`` gives the barrier errors per line.
The result, ``bench/realcode/truth/<name>.json``, holds figures only, no source text:

    {"program": ..., "suite": ..., "commit": ..., "path": ..., "args": [...],
     "measured": "ncu ..., compute-sanitizer ..., <GPU>",
     "kernels": [{"name": "k", "block": [256, 1, 1], "grid": [48, 1, 1]}],
     "synccheck": {"status": 0, "errors": 0},
     "columns": ["sass", "inst", ...],
     "lines": {"<file relative to the program folder>": {"<line>": [figures in column order]}},
     "barrier_errors": {"<file>": {"<line>": <errors>}}}

Every line the compiler emitted device code for is listed (``sass`` > 0), executed or
not; lines of files outside the program (toolkit headers) are left out.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import programs as listing  # noqa: E402

sys.path.insert(0, str(HERE.parent.parent / "src"))  # the package, where it is not installed
from cudalint.profile import source_lines  # noqa: E402

TRUTH = HERE / "truth"


def relative_file(path: str, program: listing.Program, work: Path) -> str | None:
    """A compiled file's name relative to the program folder; None outside the program."""
    resolved = Path(path)
    if not resolved.is_relative_to(program.root(work)):
        return None
    return Path(os.path.relpath(resolved, program.folder(work))).as_posix()


def program_truth(program: listing.Program, work: Path, exports: Path, tools: dict) -> tuple[dict, list[str]]:
    problems: list[str] = []
    functions = source_lines.parse_disassembly(source_lines.disassemble(program.binary(work)))
    export = exports / f"{program.name}.source.csv"
    profiled = source_lines.parse_source_export(export.read_text()) if export.exists() else []
    figures = source_lines.line_figures(functions, profiled, problems)
    details = exports / f"{program.name}.details.csv"
    truth: dict = {
        "program": program.name,
        "suite": program.suite.name,
        "repository": program.suite.repository,
        "commit": program.suite.commit,
        "path": program.path,
        "args": list(program.args),
        "measured": f"ncu {tools.get('ncu', '?')}, compute-sanitizer {tools.get('compute-sanitizer', '?')}, "
        f"{tools.get('gpu', '?')}",
        "kernels": source_lines.launches_from_details(details.read_text()) if details.exists() else [],
        "columns": list(source_lines.COLUMNS),
        "lines": {},
        "barrier_errors": {},
    }
    for location, line in sorted(figures.items(), key=lambda item: (item[0].file, item[0].line)):
        name = relative_file(location.file, program, work)
        if name is not None:
            truth["lines"].setdefault(name, {})[str(location.line)] = line.row()
    log = exports / f"{program.name}.synccheck.log"
    if log.exists():
        text = log.read_text(errors="replace")
        summary = source_lines.SYNCCHECK_SUMMARY.search(text)
        truth["synccheck"] = {"errors": int(summary.group(1)) if summary else None, "complete": summary is not None}
        by_name = {Path(f).name: f for f in truth["lines"]}
        for frames in source_lines.synccheck_errors(text):
            # The innermost frame in the program's own files: where the code that
            # misused the barrier (or warp-synchronous intrinsic) is written.
            own = next(((by_name[file], line) for file, line in frames if file in by_name), None)
            if own is not None:
                errors = truth["barrier_errors"].setdefault(own[0], {})
                errors[str(own[1])] = errors.get(str(own[1]), 0) + 1
    return truth, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--part", choices=listing.PARTS, help="only the programs of this part of the yardstick")
    parser.add_argument("--work", type=Path, default=listing.DEFAULT_WORK)
    parser.add_argument("--exports", type=Path, required=True, help="bench/realcode/measure.py's --out folder")
    parser.add_argument("--truth", type=Path, default=TRUTH)
    options = parser.parse_args(argv)
    tools_path = options.exports / "tools.json"
    tools = json.loads(tools_path.read_text()) if tools_path.exists() else {}
    options.truth.mkdir(parents=True, exist_ok=True)
    failed = 0
    for program in listing.select(listing.load(), options.names, options.part):
        if not program.binary(options.work).exists():
            print(f"{program.name}: not built (bench/realcode/build.py)", file=sys.stderr)
            failed += 1
            continue
        truth, problems = program_truth(program, options.work, options.exports, tools)
        for problem in problems:
            print(f"{program.name}: {problem}", file=sys.stderr)
        executed = sum(1 for lines in truth["lines"].values() for row in lines.values() if row[1])
        if not executed and not truth["barrier_errors"]:
            print(f"{program.name}: nothing measured", file=sys.stderr)
            failed += 1
            continue
        (options.truth / f"{program.name}.json").write_text(json.dumps(truth, separators=(",", ":")) + "\n")
        print(f"{program.name:<24} {len(truth['kernels']):>3} kernels {executed:>5} executed lines")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

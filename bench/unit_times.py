"""Processor time of cudalint on single translation units, against libclang's bare parse.

For each FILE (its compile_commands.json found as cudalint finds it), back to back:

  parse     libclang alone, in this process, with the arguments cudalint parses it with
            (no precompiled headers, as cudalint's first parse of it)
  cudalint  ``cudalint check FILE --no-cache --jobs 1 --format sarif`` in a child process:
            cold, with the default time limit unless --time-limit says otherwise

and prints processor seconds (cudalint / parse / ratio), whether the unit stopped at the
time limit, and how many findings it reported, with the load average before and after:
on a shared machine wall times follow the load, processor times much less. This is the
measure for template-heavy units (CuTe's tutorials in bench/realcode's modern part),
where one unit can cost more than a whole classic tree; ``benchmark.py`` measures trees.

With ``--together``, cudalint runs once over all the FILEs (``--jobs 1``), cold as a
user's first run over a tree is, as ``benchmark.py`` measures trees: with an empty cache
directory, so the run precompiles the CUDA headers once and parses each unit against
them. The process starts and imports once, not once per unit, and a header several units
share is analyzed once. The ratio is then that run's processor time over the sum of the
units' bare parses.

    python bench/unit_times.py FILE... [--repeat 1] [--time-limit S] [--together]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchmark import _children_cpu, _load, child_environment, median  # noqa: E402


def bare_parse(path: str) -> float:
    """Processor seconds of libclang parsing ``path`` as cudalint's planner would hand it over."""
    from clang import cindex

    from cudalint import engine, frontend
    from cudalint import units as planning
    from cudalint.config import Config

    config = Config()
    settings = engine.default_settings(config)
    files, _ = engine.discover([path], config, [])
    environment = frontend.build_environment(settings.frontend, search_from=path)
    project = frontend.ProjectFiles(frontend.project_root(os.path.dirname(path)))
    graph = frontend.IncludeGraph.around(files, environment, project, frontend.flags.system_include_dirs(environment))
    units = planning.plan(files, set(), graph)
    if len(units) != 1:
        raise SystemExit(f"{path}: not a translation unit cudalint parses (a CUDA source of its own)")
    (unit,) = units
    args = list(environment.args_for(unit.main))
    for directory in unit.include_dirs:
        args += ["-idirafter", directory]
    started = time.process_time()
    cindex.Index.create().parse(unit.main, args=args, options=frontend.PARSE_OPTIONS)
    return time.process_time() - started


def cudalint_run(paths: list[str], time_limit: float | None, cache_dir: str | None = None) -> tuple[float, int, int]:
    """Processor seconds of one cold run over ``paths`` (with no cache at all, or with the
    empty ``cache_dir``), how many units stopped at the time limit, and its findings."""
    limit = ["--time-limit", f"{time_limit:g}"] if time_limit is not None else []
    cache = ["--cache-dir", cache_dir] if cache_dir else ["--no-cache"]
    command = [sys.executable, "-m", "cudalint", "check", *paths, *cache, "--jobs", "1", "--format", "sarif"]
    cpu = _children_cpu()
    completed = subprocess.run(
        [*command, "--exit-zero", "--min-level", "note", *limit],
        capture_output=True,
        text=True,
        env=child_environment(),
        cwd=os.path.commonpath([os.path.dirname(path) for path in paths]),
    )
    seconds = _children_cpu() - cpu
    if completed.returncode != 0:
        raise SystemExit(f"cudalint failed on {' '.join(paths)}: {completed.stderr.strip()}")
    run = json.loads(completed.stdout)["runs"][0]
    notices = [
        n["message"]["text"] for i in run.get("invocations", []) for n in i.get("toolExecutionNotifications", [])
    ]
    return seconds, sum("time limit" in text for text in notices), len(run.get("results", []))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--time-limit", type=float, help="cudalint's limit per unit (0: none)")
    parser.add_argument("--together", action="store_true", help="one cudalint run over all the files")
    options = parser.parse_args(argv)
    print(f"load average before: {_load()}")
    if options.together:
        return _together([str(file.resolve()) for file in options.files], options.repeat, options.time_limit)
    print(f"{'unit':<24} {'cudalint s':>10} {'parse s':>8} {'ratio':>6}  time limit  findings")
    totals = [0.0, 0.0]
    for file in options.files:
        path = str(file.resolve())
        runs = [(cudalint_run([path], options.time_limit), bare_parse(path)) for _ in range(options.repeat)]
        ratio = median([run[0][0] / run[1] for run in runs])
        seconds, parse = median([run[0][0] for run in runs]), median([run[1] for run in runs])
        stopped, findings = runs[-1][0][1], runs[-1][0][2]
        totals[0] += seconds
        totals[1] += parse
        limit = "reached" if stopped else "no"
        print(f"{file.name:<24} {seconds:10.1f} {parse:8.1f} {ratio:6.2f}  {limit:<10}  {findings}")
    print(f"{'total':<24} {totals[0]:10.1f} {totals[1]:8.1f} {totals[0] / totals[1]:6.2f}")
    print(f"load average after: {_load()}")
    return 0


def _together(paths: list[str], repeat: int, time_limit: float | None) -> int:
    """One cudalint run over every unit against the sum of their bare parses, ``repeat`` times."""
    print(f"{'run':<8} {'cudalint s':>10} {'parse s':>8} {'ratio':>6}  at time limit  findings")
    ratios = []
    for number in range(1, repeat + 1):
        with tempfile.TemporaryDirectory(prefix="cudalint-cold-") as cache_dir:
            seconds, stopped, findings = cudalint_run(paths, time_limit, cache_dir)
        parse = sum(bare_parse(path) for path in paths)
        ratios.append(seconds / parse)
        print(f"{number:<8} {seconds:10.1f} {parse:8.1f} {seconds / parse:6.2f}  {stopped:<13}  {findings}")
    print(f"{len(paths)} units, median ratio {median(ratios):.2f}")
    print(f"load average after: {_load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

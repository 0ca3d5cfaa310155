"""Time cudalint's own work per file against libclang's parse of the same file.

For each file: the bare libclang parse (same arguments cudalint uses), lowering to the
IR, and the analysis (dataflow facts and every rule). Prints a table and the totals;
the analysis target is at most 30% of the parse time.

    python bench/analysis_overhead.py [--headers toolkit|embedded] [--repeat N] [PATHS...]

Paths default to the test corpus.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from cudalint import frontend
from cudalint.config import Config
from cudalint.engine import check, default_settings

ROOT = Path(__file__).resolve().parent.parent


def _files(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for raw in paths or [str(ROOT / "tests" / "corpus")]:
        path = Path(raw)
        found.extend(sorted(path.rglob("*.cu")) if path.is_dir() else [path])
    return found


def _best(samples: list[float]) -> float:
    return min(samples) if samples else 0.0


def measure(path: Path, settings, repeat: int) -> tuple[float, float, float]:
    """Seconds of the parse (as cudalint parses: the unit's compile flags, recovery from
    names declared nowhere included), the lowering and the analysis, best of ``repeat``."""
    environment = frontend.build_environment(settings.frontend, search_from=str(path))
    parse, lower, analyze = [], [], []
    for _ in range(repeat):
        started = time.perf_counter()
        parsed_unit = frontend.parse_unit(str(path), environment)
        parsed = time.perf_counter()
        unit = parsed_unit.lower()
        lowered = time.perf_counter()
        check(unit, settings)  # Every rule, so every fact they read is derived once.
        done = time.perf_counter()
        parse.append(parsed - started)
        lower.append(lowered - parsed)
        analyze.append(done - lowered)
    return _best(parse), _best(lower), _best(analyze)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*")
    parser.add_argument("--headers", choices=("toolkit", "embedded", "auto"), default="auto")
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args(argv)
    settings = default_settings(Config(), header_mode=options.headers)
    rows = []
    for path in _files(options.paths):
        rows.append((path, *measure(path, settings, options.repeat)))
    environment = frontend.build_environment(settings.frontend)
    width = max(len(os.path.relpath(p, ROOT)) for p, *_ in rows)
    print(f"headers: {environment.header_mode.value}; best of {options.repeat} runs per file")
    print(f"{'file':<{width}}  {'parse ms':>9}  {'lower ms':>9}  {'analyze ms':>10}  {'analyze/parse':>13}")
    for path, parse, lower, analyze in rows:
        name = os.path.relpath(path, ROOT)
        figures = f"{parse * 1e3:9.1f}  {lower * 1e3:9.1f}  {analyze * 1e3:10.1f}  {analyze / parse:13.1%}"
        print(f"{name:<{width}}  {figures}")
    total_parse = sum(r[1] for r in rows)
    total_lower = sum(r[2] for r in rows)
    total_analyze = sum(r[3] for r in rows)
    ratios = [r[3] / r[1] for r in rows]
    print(
        f"total: parse {total_parse:.3f} s, lower {total_lower:.3f} s ({total_lower / total_parse:.1%}), "
        f"analyze {total_analyze:.3f} s ({total_analyze / total_parse:.1%}); "
        f"per-file analyze/parse median {statistics.median(ratios):.1%}, max {max(ratios):.1%}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

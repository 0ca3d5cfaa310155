"""Time cudalint's analysis on generated worst cases (scripts/pathological_kernels.py).

For each case: the parse and lowering, then the analysis (dataflow facts and every rule),
with each kernel's interpreter steps against its budget and whether it was cut. The goal
is every case well under 10 seconds on a 2-core machine, with no cut.

    python bench/pathological.py [--headers toolkit|embedded] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

from cudalint import frontend
from cudalint.config import Config
from cudalint.dataflow import Facts
from cudalint.engine import check, default_settings

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("pathological_kernels", ROOT / "scripts" / "pathological_kernels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headers", choices=("toolkit", "embedded"), default="embedded")
    parser.add_argument("--only", nargs="*", default=None, help="case names to run (default: all)")
    args = parser.parse_args(argv)
    generator = _generator()
    settings = default_settings(Config(), header_mode=args.headers)
    print(f"{'case':28} {'parse s':>8} {'analysis s':>10} {'steps':>9} {'budget':>9}  cut")
    with tempfile.TemporaryDirectory() as directory:
        for path in generator.write(Path(directory)):
            if args.only and path.stem not in args.only:
                continue
            environment = frontend.build_environment(settings.frontend, search_from=str(path))
            started = time.perf_counter()
            tu = frontend.parse_file(str(path), environment)
            parsed = time.perf_counter()
            check(tu, settings)  # Every rule, so every fact they read is derived.
            done = time.perf_counter()
            kernels = Facts(tu).kernels  # Again, untimed, for the step counts.
            steps = sum(k.trace.steps for k in kernels)
            budget = sum(k.trace.budget for k in kernels)
            cut = ", ".join(f"{k.function.name} at line {k.cut.line}" for k in kernels if k.cut) or "-"
            print(f"{path.stem:28} {parsed - started:8.2f} {done - parsed:10.2f} {steps:9} {budget:9}  {cut}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

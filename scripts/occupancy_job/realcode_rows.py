#!/usr/bin/env python3
"""cudalint's occupancy table for real programs (bench/realcode), to set beside what the
occupancy job measured for them: one JSON object per program, each launch's row from
``cudalint facts --format json``, with the source-level estimate and with ``--ptxas``.

    python scripts/occupancy_job/realcode_rows.py --work /tmp/realcode NAME... > rows.json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "realcode"))
import programs  # noqa: E402 - the benchmark's own listing, not an installed module

TIMEOUT_S = 300


def rows_of(folder: Path, ptxas: bool) -> list[dict]:
    """The occupancy rows of every kernel defined in the program's CUDA sources and headers."""
    found = []
    sources = [path for pattern in ("*.cu", "*.h") for path in sorted(folder.glob(pattern))]
    # Kernels in headers of the program's own folders; vendored libraries (include/, tools/) aside.
    sources += [path for path in sorted(folder.rglob("*.cuh")) if not {"include", "tools"} & set(path.parts)]
    for source in sources:
        command = [sys.executable, "-m", "cudalint", "facts", str(source), "--format", "json", "-p", "."]
        command.append("--ptxas" if ptxas else "--no-ptxas")
        try:
            done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            continue
        if done.returncode != 0:
            continue
        for kernel in json.loads(done.stdout).get("kernels", []):
            for row in kernel.get("occupancy", {}).get("launches", []):
                found.append({"kernel": kernel["function"].replace(", ", ","), **row})
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("names", nargs="+")
    options = parser.parse_args(argv)
    listing = {program.name: program for program in programs.load()}
    result = {}
    for name in options.names:
        folder = listing[name].folder(options.work)
        result[name] = {"estimate": rows_of(folder, False), "ptxas": rows_of(folder, True)}
        print(f"{name}: {len(result[name]['estimate'])} rows", file=sys.stderr)
    json.dump(result, sys.stdout, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

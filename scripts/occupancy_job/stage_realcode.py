#!/usr/bin/env python3
"""Copy built real programs (bench/realcode) into the occupancy job's folder, so that
run.sh measures their launches too: one folder per program, ``program.gz`` (the binary)
and ``args`` (its arguments, one per line). The binaries stay outside the repository.

    python scripts/occupancy_job/stage_realcode.py --work /tmp/realcode JOB_DIR NAME...
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "realcode"))
import programs  # noqa: E402 - the benchmark's own listing, not an installed module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True, help="the benchmark's work folder (build.py --work)")
    parser.add_argument("job", type=Path, help="the job folder run.sh is in")
    parser.add_argument("names", nargs="+", help="programs, measured in this order")
    options = parser.parse_args(argv)
    built = json.loads((options.work / "build.json").read_text())
    listing = {program.name: program for program in programs.load()}
    target = options.job / "realcode"
    shutil.rmtree(target, ignore_errors=True)
    for position, name in enumerate(options.names):
        program = listing.get(name)
        if program is None or not built.get(name, {}).get("built"):
            print(f"{name}: not a built program of the benchmark", file=sys.stderr)
            continue
        folder = target / f"{position:02d}-{name}"
        folder.mkdir(parents=True)
        with program.binary(options.work).open("rb") as source, gzip.open(folder / "program.gz", "wb") as copy:
            shutil.copyfileobj(source, copy)
        (folder / "args").write_text("".join(f"{argument}\n" for argument in program.args))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Reduce Nsight Compute's raw CSV pages (ncu-<build>.csv in OUTDIR) to one row per
launch: the build, the kernel, and every launch statistic and occupancy figure ncu gave
(``launch__*``, and the metrics whose names speak of warps per SM or occupancy).

    python3 occupancy_csv.py OUTDIR > occupancy.csv
"""

import csv
import sys
from pathlib import Path

KEPT = ("launch__", "sm__maxwarps", "sm__warps_active", "achieved_occupancy", "occupancy")


def rows(path: Path):
    lines = [line for line in path.read_text(errors="replace").splitlines() if line.startswith('"')]
    if len(lines) < 3:
        return [], []
    table = list(csv.reader(lines))
    header, records = table[0], table[2:]  # the second row holds the units
    return header, [dict(zip(header, record, strict=False)) for record in records]


def main(out: Path) -> None:
    found = []
    columns: list[str] = []
    for path in sorted(out.glob("ncu-*.csv")):
        build = path.stem.removeprefix("ncu-")
        header, records = rows(path)
        for name in header:
            if name.startswith(KEPT) or any(word in name for word in KEPT[1:]):
                if name not in columns:
                    columns.append(name)
        found += [(build, record) for record in records]
    writer = csv.writer(sys.stdout)
    writer.writerow(["build", "id", "kernel", "block", "grid", *columns])
    for build, record in found:
        writer.writerow(
            [
                build,
                record.get("ID", ""),
                record.get("Kernel Name", ""),
                record.get("Block Size", ""),
                record.get("Grid Size", ""),
                *(record.get(name, "") for name in columns),
            ]
        )


if __name__ == "__main__":
    main(Path(sys.argv[1]))

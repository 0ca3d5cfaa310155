#!/usr/bin/env python3
"""Record what the occupancy job measured (run.sh's OUTDIR) as the figures the tests read,
and compare them with cudalint's model.

    python scripts/occupancy_job/record.py RESULTS [--write tests/gpu/occupancy_ncu.csv] [--rows ROWS.json]

Reads RESULTS/occupancy.csv (ncu's launch statistics and occupancy, one row per launch)
and prints, for each launch, ncu's inputs (block size, registers, shared bytes), its
theoretical warps per SM and block limits, and the model's (dataflow/occupancy.py) from
the same inputs. ``--write`` keeps the corpus launches (builds ``default`` and
``maxrreg48``), numbers and our kernel labels only, in the file tests/test_occupancy.py reads.
``--rows`` sets cudalint's own rows beside ncu's (realcode_rows.py's output, by program,
or ``{"default": ...}`` for the corpus): how often its warps per SM equal ncu's, from the
source-level estimate and with ``--ptxas``.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from pathlib import Path

from cudalint.dataflow.occupancy import Limiter, theoretical_occupancy

FIELDS = (
    "build",
    "kernel",
    "block_threads",
    "registers",
    "static_shared",
    "dynamic_shared",
    "driver_shared",
    "shared_config",
    "barriers",
    "limit_registers",
    "limit_shared_mem",
    "limit_warps",
    "limit_blocks",
    "limit_barriers",
    "theoretical_warps",
    "theoretical_percent",
    "achieved_percent",
)
METRICS = {
    "block_threads": ("launch__block_size",),
    "registers": ("launch__registers_per_thread",),
    "static_shared": ("launch__shared_mem_per_block_static",),
    "dynamic_shared": ("launch__shared_mem_per_block_dynamic",),
    "driver_shared": ("launch__shared_mem_per_block_driver",),
    "shared_config": ("launch__shared_mem_config_size",),
    "barriers": ("launch__barrier_count",),
    "limit_registers": ("launch__occupancy_limit_registers",),
    "limit_shared_mem": ("launch__occupancy_limit_shared_mem",),
    "limit_warps": ("launch__occupancy_limit_warps",),
    "limit_blocks": ("launch__occupancy_limit_blocks",),
    "limit_barriers": ("launch__occupancy_limit_barriers",),
    "theoretical_warps": ("sm__maxwarps_active.avg.per_cycle_active",),
    "theoretical_percent": ("sm__maxwarps_active.avg.pct_of_peak_sustained_active",),
    "achieved_percent": ("sm__warps_active.avg.pct_of_peak_sustained_active",),
}
CORPUS_BUILDS = ("default", "maxrreg48")
MAX_WARPS = 64


def label(kernel_name: str) -> str:
    """``void products<16>(const float *, float *, int)`` -> ``products<16>``."""
    name = re.sub(r"^(void|__global__)\s+", "", kernel_name.strip())
    depth, end = 0, len(name)
    for index, char in enumerate(name):
        depth += char == "<"
        depth -= char == ">"
        if char == "(" and depth == 0:
            end = index
            break
    return name[:end].replace(", ", ",").split("::")[-1]


def number(text: str) -> float | None:
    text = (text or "").replace(",", "").strip()
    try:
        value = float(text)
    except ValueError:
        return None
    return None if value != value else value  # "nan": no figure


def normalize(row: dict[str, str]) -> dict[str, object]:
    record: dict[str, object] = {"build": row["build"], "kernel": label(row.get("kernel", ""))}
    for field, names in METRICS.items():
        value = next((number(row[name]) for name in names if name in row and number(row[name]) is not None), None)
        record[field] = None if value is None else (int(value) if value == int(value) else round(value, 2))
    if record["block_threads"] is None:
        dims = [int(n) for n in re.findall(r"\d+", row.get("block", ""))]
        record["block_threads"] = dims[0] * dims[1] * dims[2] if len(dims) == 3 else None
    if record["theoretical_warps"] is None and record["theoretical_percent"] is not None:
        record["theoretical_warps"] = round(float(record["theoretical_percent"]) * MAX_WARPS / 100)
    limits = [record[f"limit_{name}"] for name in ("registers", "shared_mem", "warps", "blocks", "barriers")]
    if record["theoretical_warps"] is None and None not in limits and record["block_threads"]:
        # ncu 2025.3 gives the block limits, not the theoretical warps: its Occupancy
        # section multiplies the least of them by the block's warps.
        record["theoretical_warps"] = min(limits) * -(-int(record["block_threads"]) // 32)
    return record


def model(record: dict[str, object]):
    return theoretical_occupancy(
        90,
        int(record["block_threads"]),
        int(record["registers"]),
        int(record["static_shared"] or 0) + int(record["dynamic_shared"] or 0),
        int(record["barriers"] or 1),
    )


def compare_rows(records: list[dict[str, object]], rows: dict[str, dict[str, list[dict]]]) -> None:
    """cudalint's warps per SM and registers against ncu's, launch by launch, per mode."""
    for mode in ("estimate", "ptxas"):
        matched = equal = 0
        warp_errors, register_errors = [], []
        for record in records:
            program = re.sub(r"^realcode-\d+-", "", str(record["build"]))
            candidates = [
                row
                for row in rows.get(program, {}).get(mode, [])
                if row["kernel"] == record["kernel"]
                and row["blockThreads"] == record["block_threads"]
                and row["dynamicSharedBytes"] in (None, record["dynamic_shared"])
            ]
            if not candidates:
                continue
            row = candidates[0]
            matched += 1
            equal += row["warpsPerSM"] == record["theoretical_warps"]
            warp_errors.append(abs(row["warpsPerSM"] - int(record["theoretical_warps"])))
            register_errors.append(row["registers"] - int(record["registers"]))
            if row["warpsPerSM"] != record["theoretical_warps"]:
                print(
                    f"  {mode}: {record['build']} {record['kernel']} block {record['block_threads']}: "
                    f"{row['registers']} registers, {row['warpsPerSM']} warps; ncu {record['registers']}, "
                    f"{record['theoretical_warps']}"
                )
        if matched:
            mean_warps = sum(warp_errors) / matched
            mean_registers = sum(abs(e) for e in register_errors) / matched
            print(
                f"{mode}: {matched} launches matched, warps per SM equal in {equal}; mean |error| "
                f"{mean_warps:.1f} warps, {mean_registers:.1f} registers (estimate low in "
                f"{sum(e < 0 for e in register_errors)}, high in {sum(e > 0 for e in register_errors)})"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--write", type=Path, help="where to keep the corpus launches' figures")
    parser.add_argument("--rows", type=Path, help="cudalint's rows to compare (realcode_rows.py)")
    parser.add_argument("--write-realcode", type=Path, help="where to keep the real programs' launches' figures")
    options = parser.parse_args(argv)
    with (options.results / "occupancy.csv").open(newline="") as handle:
        records = [normalize(row) for row in csv.DictReader(handle)]
    records = [r for r in records if r["block_threads"] and r["registers"] is not None and r["theoretical_warps"]]
    equal = 0
    for record in records:
        ours = model(record)
        same = ours.warps == record["theoretical_warps"]
        limits = {
            "registers": (ours.allowed_by(Limiter.REGISTERS), record["limit_registers"]),
            "shared": (ours.allowed_by(Limiter.SHARED_MEMORY), record["limit_shared_mem"]),
            "warps": (ours.allowed_by(Limiter.WARPS), record["limit_warps"]),
            "blocks": (ours.allowed_by(Limiter.BLOCKS), record["limit_blocks"]),
        }
        equal += same
        differing = ", ".join(f"{name} {a} vs {b}" for name, (a, b) in limits.items() if a != b)
        print(
            f"{'=' if same else 'X'} {record['build']:<32} {record['kernel']:<28} block {record['block_threads']:>4} "
            f"regs {record['registers']:>3} smem {record['static_shared']}+{record['dynamic_shared']} "
            f"(config {record['shared_config']}): ncu {record['theoretical_warps']} warps, model {ours.warps}"
            + (f"; block limits differ: {differing}" if differing else "")
        )
    print(f"{equal} of {len(records)} launches: the model's warps per SM equal ncu's")
    if options.rows:
        compare_rows(records, json.loads(options.rows.read_text()))
    if options.write:
        options.write.parent.mkdir(parents=True, exist_ok=True)
        with options.write.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, FIELDS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(r for r in records if r["build"] in CORPUS_BUILDS)
    if options.write_realcode:
        with options.write_realcode.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, FIELDS, lineterminator="\n")
            writer.writeheader()
            for record in records:
                if str(record["build"]).startswith("realcode-"):
                    writer.writerow({**record, "build": re.sub(r"^realcode-\d+-", "", str(record["build"]))})
    return 0 if equal == len(records) else 1


if __name__ == "__main__":
    sys.exit(main())

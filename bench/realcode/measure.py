#!/usr/bin/env python3
"""Run the built real programs under Nsight Compute (and compute-sanitizer) on a GPU machine.

    python bench/realcode/measure.py --out DIR [--work /tmp/realcode] [--synccheck]
        [--pack FILE.tgz] [--budget SECONDS] [--part classic|modern] [NAME ...]

For each program whose build succeeded (``<work>/build.json``), in its folder, with its
listed arguments:

* ``ncu --section SourceCounters --kernel-name-base demangled --kernel-id :::1
  --launch-count 64`` (``cudalint profile``'s selection): the first launch of every
  distinct kernel (``:::1`` is "any context, any stream, any name, invocation 1"; each
  template instantiation is a kernel of its own); exports ``<name>.source.csv`` (per-SASS-instruction counters),
  ``<name>.details.csv`` (kernel names, grid and block) and ``<name>.ncu.log``;
* with ``--synccheck``: ``compute-sanitizer --tool synccheck`` over the whole run,
  ``<name>.synccheck.log`` (its reports name the barrier's file and line).

Each run has its own timeout; a program that outruns it keeps what was written. After
every program the output folder is packed into ``--pack`` (reports left out), so a
machine that is taken back mid-way still returns everything measured so far; no new
program starts once ``--budget`` seconds have passed. bench/realcode/truth.py turns the
exports into truth files, offline.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tarfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import programs as listing  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))  # the package, where it is not installed
from cudalint.profile import source_lines  # noqa: E402
from cudalint.profile.command import DEFAULT_LAUNCH_COUNT, selection  # noqa: E402

SELECTION = selection(None, DEFAULT_LAUNCH_COUNT, None)


def synccheck(sanitizer: str, program: listing.Program, work: Path, out: Path, timeout: float) -> dict:
    command = [sanitizer, "--tool", "synccheck", "--print-limit", "200", str(program.binary(work)), *program.args]
    started = time.monotonic()
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, cwd=program.folder(work), check=False
        )
        log, status = done.stdout + done.stderr, done.returncode
    except subprocess.TimeoutExpired as expired:
        log = (expired.stdout or b"") + (expired.stderr or b"")
        log, status = (log.decode(errors="replace") if isinstance(log, bytes) else log), "timeout"
    (out / f"{program.name}.synccheck.log").write_text(log)
    return {"synccheck_status": status, "synccheck_seconds": round(time.monotonic() - started, 1)}


def tool_versions(ncu: str, sanitizer: str) -> dict:
    """The profiler, sanitizer and GPU the figures come from (the truth files' provenance)."""

    def first(command: list[str], pattern: str) -> str:
        try:
            text = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False).stdout
        except OSError:
            return "unknown"
        match = re.search(pattern, text)
        return match.group(1).strip() if match else "unknown"

    return {
        "ncu": first([ncu, "--version"], r"Version\s+(\S+)"),
        "compute-sanitizer": first([sanitizer, "--version"], r"Version\s+(\S+)"),
        "gpu": first(["nvidia-smi", "-L"], r"GPU 0:\s*([^(]+)"),
    }


def pack(out: Path, target: Path) -> None:
    partial = target.with_suffix(".partial")
    with tarfile.open(partial, "w:gz") as tar:
        for path in sorted(out.iterdir()):
            if path.suffix != ".ncu-rep":
                tar.add(path, arcname=f"{out.name}/{path.name}")
    partial.replace(target)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--part", choices=listing.PARTS, help="only the programs of this part of the yardstick")
    parser.add_argument("--work", type=Path, default=listing.DEFAULT_WORK)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--pack", type=Path, help="tar.gz written after every program")
    parser.add_argument("--ncu", default=None)
    parser.add_argument("--sanitizer", default=None)
    parser.add_argument("--ncu-timeout", type=float, default=90)
    parser.add_argument("--synccheck", action="store_true")
    parser.add_argument("--sync-timeout", type=float, default=30)
    parser.add_argument("--budget", type=float, default=1e9, help="start no program after this many seconds")
    options = parser.parse_args(argv)

    built = json.loads((options.work / "build.json").read_text())
    chosen = [
        p for p in listing.select(listing.load(), options.names, options.part) if built.get(p.name, {}).get("built")
    ]
    ncu = source_lines.find_tool("ncu", options.ncu) or "ncu"
    sanitizer = source_lines.find_tool("compute-sanitizer", options.sanitizer) or "compute-sanitizer"
    options.out.mkdir(parents=True, exist_ok=True)
    (options.out / "tools.json").write_text(json.dumps(tool_versions(ncu, sanitizer), indent=1))
    progress_path = options.out / "progress.json"
    progress = json.loads(progress_path.read_text()) if progress_path.exists() else {}
    started = time.monotonic()
    for program in chosen:
        if time.monotonic() - started > options.budget:
            print(f"budget spent: {program.name} and later not measured", flush=True)
            break
        outcome = source_lines.profile_and_export(
            ncu,
            [str(program.binary(options.work)), *program.args],
            options.out / program.name,
            SELECTION,
            timeout=options.ncu_timeout,
            cwd=program.folder(options.work),
        )
        if options.synccheck:
            outcome.update(synccheck(sanitizer, program, options.work, options.out, options.sync_timeout))
        progress[program.name] = outcome
        progress_path.write_text(json.dumps(progress, indent=1))
        print(
            f"{program.name:<24} ncu {outcome['status']} {outcome['seconds']} s"
            + (
                f", synccheck {outcome['synccheck_status']} {outcome['synccheck_seconds']} s"
                if options.synccheck
                else ""
            ),
            flush=True,
        )
        if options.pack:
            pack(options.out, options.pack)
    return 0


if __name__ == "__main__":
    sys.exit(main())

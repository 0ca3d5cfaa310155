#!/usr/bin/env python3
"""Extract the listed real programs from their mirrors and build them for sm_90 with line info.

    python bench/realcode/build.py [--work /tmp/realcode] [--jobs 2] [--part classic|modern] [NAME ...]

Each program goes to ``<work>/src/<name>/`` (``git archive <commit> <path>`` of its
suite's mirror, repository layout kept) and is built there:

* HeCBench: ``make ARCH=sm_90 EXTRA_CFLAGS=-lineinfo`` (its Makefile adds ``-O3``);
* PolyBench-ACC: ``nvcc -O3 -lineinfo -arch=sm_90 -DMINI_DATASET -I<utilities>``;
* the modern part: the program's own ``build`` recipe from programs.toml (``nvcc -O3
  -lineinfo -arch=sm_90 ...``, ``sm_90a`` for ``wgmma``; ``{root}`` replaced by the extracted
  repository root, environment variables expanded), after
  copying its host driver of ours, if it has one, from ``drivers/`` into its folder.

An sm_90 GPU runs the sm_90 machine code of the binary (the PTX beside it is not
compiled again), so the SASS that ``nvdisasm -gi`` maps to source lines here is
exactly what an H100 runs. The outcome of
every build is written to ``<work>/build.json``, its log to ``<work>/logs/<name>.build.log``
(a failed build does not stop the others), and the nvcc commands it ran to the
program folder's ``compile_commands.json``, which cudalint reads as a user's would.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import programs as listing  # noqa: E402

ARCH = "sm_90"


def extract(program: listing.Program, work: Path, mirrors: Path) -> None:
    root = program.root(work)
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    mirror = program.suite.mirror(mirrors)
    archive = subprocess.run(
        ["git", "-C", str(mirror), "archive", "--format=tar", program.suite.commit, *program.extracted_paths()],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        raise RuntimeError(f"git archive failed in {mirror}: {archive.stderr.decode(errors='replace').strip()}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(root, filter="data")
    if program.driver:
        shutil.copy2(listing.DRIVERS / program.driver, program.folder(work) / program.driver)


def build_commands(program: listing.Program, work: Path) -> list[list[str]]:
    if program.build:
        root = str(program.root(work))
        return [shlex.split(os.path.expandvars(command.replace("{root}", root))) for command in program.build]
    return [suite_build_command(program, work)]


def suite_build_command(program: listing.Program, work: Path) -> list[str]:
    if program.suite.name == "polybench":
        utilities = program.root(work) / "CUDA" / "utilities"
        # cudaThreadSynchronize left the runtime API in CUDA 13; its successor does the same.
        return [
            "nvcc",
            "-O3",
            "-lineinfo",
            f"-arch={ARCH}",
            "-DMINI_DATASET",
            "-DcudaThreadSynchronize=cudaDeviceSynchronize",
            f"-I{utilities}",
            "-o",
            program.binary(work).name,
            program.source or "main.cu",
        ]
    # EXTRA_CFLAGS lands in every compile and link line of HeCBench's Makefiles.
    return ["make", "-B", f"ARCH={ARCH}", "EXTRA_CFLAGS=-lineinfo"]


def compile_commands(program: listing.Program, work: Path, log: str) -> list[dict]:
    """compile_commands.json entries for the nvcc commands of a build log: what a user's
    build system would hand cudalint (include paths, macros such as MINI_DATASET)."""
    folder = program.folder(work)
    entries = []
    for line in log.splitlines():
        words = shlex.split(line.removeprefix("$ ")) if line.lstrip("$ ").startswith("nvcc ") else []
        sources = [w for w in words if w.endswith((".cu", ".cpp", ".cc", ".c"))]
        if program.build:
            # A recipe compiles and links in one nvcc line, possibly several sources.
            entries.extend({"directory": str(folder), "arguments": words, "file": str(folder / s)} for s in sources)
        elif sources and ("-c" in words or program.suite.name == "polybench"):
            entries.append({"directory": str(folder), "arguments": words, "file": str(folder / sources[0])})
    return entries


def build(program: listing.Program, work: Path, mirrors: Path) -> dict:
    started = time.monotonic()
    log = work / "logs" / f"{program.name}.build.log"
    try:
        extract(program, work, mirrors)
    except (RuntimeError, OSError, tarfile.TarError) as error:
        return {"name": program.name, "built": False, "error": str(error)}
    text = ""
    for command in build_commands(program, work):
        done = subprocess.run(command, cwd=program.folder(work), capture_output=True, text=True, check=False)
        text += f"$ {shlex.join(command)}\n{done.stdout}{done.stderr}"
        if done.returncode != 0:
            break
    log.write_text(text)
    built = done.returncode == 0 and program.binary(work).exists()
    (program.folder(work) / "compile_commands.json").write_text(
        json.dumps(compile_commands(program, work, text), indent=1)
    )
    result = {"name": program.name, "built": built, "seconds": round(time.monotonic() - started, 1)}
    if not built:
        result["error"] = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1][:300]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="programs to build (default: all listed)")
    parser.add_argument("--work", type=Path, default=listing.DEFAULT_WORK)
    parser.add_argument(
        "--mirrors", type=Path, default=listing.DEFAULT_MIRRORS, help="folder holding <owner>+<name>/repo mirrors"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--part", choices=listing.PARTS, help="only the programs of this part of the yardstick")
    options = parser.parse_args(argv)
    try:
        chosen = listing.select(listing.load(), options.names, options.part)
    except ValueError as error:
        print(f"build: {error}", file=sys.stderr)
        return 2
    (options.work / "logs").mkdir(parents=True, exist_ok=True)
    summary_path = options.work / "build.json"
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        for result in pool.map(lambda p: build(p, options.work, options.mirrors), chosen):
            summary[result["name"]] = result
            state = "ok" if result["built"] else f"FAILED: {result.get('error', '')}"
            print(f"{result['name']:<24} {state}", flush=True)
            summary_path.write_text(json.dumps(summary, indent=1, sort_keys=True))
    failed = [r for r in summary.values() if not r["built"]]
    print(f"{len(summary) - len(failed)} of {len(summary)} built; summary in {summary_path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

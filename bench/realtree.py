#!/usr/bin/env python3
"""A real multi-directory CUDA tree for the speed benchmark, assembled from repository mirrors.

The tree holds the source files (sources and anything they may include) of

* every HeCBench CUDA program (``src/<name>-cuda``) that is not held out, with HeCBench's
  shared ``src/include``, at the commit bench/realcode pins;
* PolyBench-ACC's ``CUDA`` folder at its pinned commit,

in the repositories' own layout, under ``DIRECTORY/hecbench`` and ``DIRECTORY/polybench``.
With ``--programs N``, only N of the kept HeCBench programs, evenly spread over their
alphabetical list, and the programs whose folders they use (all of them take over half
an hour to parse once on two cores).
A HeCBench program is held out (never measured here either) when its entry in HeCBench's
README or any file of its folder names Rodinia, NVIDIA's CUDA samples or SDK, or carries
an NVIDIA copyright: the rule bench/realcode/README.md states. No build, no data files:
only what cudalint reads. Nothing of it enters this repository.

    python bench/realtree.py DIRECTORY [--programs 64] [--mirrors /work/.mirror]
    python bench/benchmark.py DIRECTORY
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "realcode"))
import programs as listing  # noqa: E402

SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl", ".c", ".cpp", ".cc", ".cxx", ".inc")
HELD_OUT_ORIGIN = re.compile(
    r"rodinia|cuda[ _-]samples|cuda[ _]sdk|developer\.download\.nvidia\.com/compute/cuda|nvidia corporation"
    r"|copyright[^\n]{0,80}nvidia",
    re.IGNORECASE,
)
"""What marks a HeCBench program as a port of Rodinia or of NVIDIA's samples."""
CHECKED_FOR_ORIGIN = SOURCE_SUFFIXES + ("Makefile", ".txt", ".md", "LICENSE", "README")
"""The files of a program folder read for its origin (text, not data)."""


@dataclass(frozen=True)
class Blob:
    path: str
    object_id: str


def tree_files(mirror: Path, commit: str, prefix: str) -> list[Blob]:
    listing_ = subprocess.run(
        ["git", "-C", str(mirror), "ls-tree", "-r", commit, prefix], capture_output=True, text=True, check=True
    ).stdout
    blobs = []
    for line in listing_.splitlines():
        meta, path = line.split("\t", 1)
        _, kind, object_id = meta.split()
        if kind == "blob":
            blobs.append(Blob(path, object_id))
    return blobs


def read_blobs(mirror: Path, blobs: list[Blob]) -> dict[str, bytes]:
    """The contents of the blobs the mirror holds (a partial mirror may lack some)."""
    request = "".join(f"{blob.object_id}\n" for blob in blobs).encode()
    output = subprocess.run(
        ["git", "-C", str(mirror), "cat-file", "--batch"], input=request, capture_output=True, check=True
    ).stdout
    contents: dict[str, bytes] = {}
    position = 0
    for blob in blobs:
        end = output.index(b"\n", position)
        header = output[position:end].split()
        position = end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        contents[blob.path] = output[position : position + size]
        position += size + 1
    return contents


def wanted(path: str, suffixes: tuple[str, ...]) -> bool:
    name = path.rsplit("/", 1)[-1]
    return name.endswith(suffixes)


def readme_entries(readme: str) -> dict[str, str]:
    """HeCBench's README: each program's `### name (models)` entry and its description."""
    entries: dict[str, str] = {}
    for match in re.finditer(r"^### (\S+)[^\n]*\n(.*?)(?=^### |\Z)", readme, re.MULTILINE | re.DOTALL):
        entries[match.group(1)] = match.group(2)
    return entries


def hecbench_programs(mirror: Path, commit: str, count: int | None) -> tuple[list[str], list[str], dict[str, bytes]]:
    """The kept and held-out CUDA programs, and the source files of ``count`` kept ones
    spread over the list (all with None)."""
    readme = subprocess.run(
        ["git", "-C", str(mirror), "show", f"{commit}:README.md"], capture_output=True, text=True, check=True
    ).stdout
    entries = readme_entries(readme)
    blobs = [
        blob
        for blob in tree_files(mirror, commit, "src/")
        if re.match(r"src/[^/]+-cuda/", blob.path) and wanted(blob.path, CHECKED_FOR_ORIGIN)
    ]
    contents = read_blobs(mirror, blobs)
    by_program: dict[str, list[str]] = {}
    for path in contents:
        by_program.setdefault(path.split("/")[1], []).append(path)
    kept, held_out = [], []
    for folder in sorted(by_program):
        name = folder.removesuffix("-cuda")
        texts = [entries.get(name, "")] + [contents[path].decode("utf-8", "replace") for path in by_program[folder]]
        (held_out if any(HELD_OUT_ORIGIN.search(text) for text in texts) else kept).append(folder)
    if count is not None and count < len(kept):
        chosen = [kept[index * len(kept) // count] for index in range(count)]
        kept = sorted(_with_programs_they_use(chosen, set(kept), by_program, contents))
    sources = {
        path: data
        for path, data in contents.items()
        if path.split("/")[1] in set(kept) and wanted(path, SOURCE_SUFFIXES)
    }
    shared = tree_files(mirror, commit, "src/include/")
    sources.update(read_blobs(mirror, [blob for blob in shared if wanted(blob.path, SOURCE_SUFFIXES)]))
    return kept, held_out, sources


def _with_programs_they_use(
    chosen: list[str], kept: set[str], by_program: dict[str, list[str]], contents: dict[str, bytes]
) -> set[str]:
    """``chosen`` and the kept programs whose folders their files name (``-I../mis-cuda``
    in a Makefile, ``#include "../other-cuda/x.h"``): a program taken without them would
    miss headers its build finds."""
    taken = set(chosen)
    pending = list(chosen)
    while pending:
        folder = pending.pop()
        for path in by_program[folder]:
            for used in re.findall(rb"\.\./([\w.+-]+-cuda)\b", contents[path]):
                name = used.decode()
                if name in kept and name not in taken:
                    taken.add(name)
                    pending.append(name)
    return taken


def polybench_sources(mirror: Path, commit: str) -> dict[str, bytes]:
    blobs = [blob for blob in tree_files(mirror, commit, "CUDA/") if wanted(blob.path, SOURCE_SUFFIXES)]
    return read_blobs(mirror, blobs)


def write(target: Path, files: dict[str, bytes]) -> None:
    for relative, data in files.items():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path, help="where the tree goes (emptied first)")
    parser.add_argument(
        "--mirrors", type=Path, default=listing.DEFAULT_MIRRORS, help="folder of <owner>+<name>/repo mirrors"
    )
    parser.add_argument("--programs", type=int, default=64, help="HeCBench programs to take (0: all)")
    options = parser.parse_args(argv)
    suites = {program.suite.name: program.suite for program in listing.load()}
    hecbench, polybench = suites["hecbench"], suites["polybench"]
    kept, held_out, hec_files = hecbench_programs(
        hecbench.mirror(options.mirrors), hecbench.commit, options.programs or None
    )
    poly_files = polybench_sources(polybench.mirror(options.mirrors), polybench.commit)
    if options.directory.exists():
        shutil.rmtree(options.directory)
    write(options.directory / "hecbench", hec_files)
    write(options.directory / "polybench", poly_files)
    files = list(hec_files.values()) + list(poly_files.values())
    lines = sum(data.count(b"\n") for data in files)
    units = sum(1 for path in [*hec_files, *poly_files] if path.endswith(".cu"))
    print(
        f"{options.directory}: HeCBench {hecbench.commit[:7]} ({len(kept)} CUDA programs; {len(held_out)} of all "
        f"held out) and PolyBench-ACC {polybench.commit[:7]} CUDA: {len(files)} files ({units} .cu), {lines} lines"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

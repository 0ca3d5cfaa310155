"""The real-code program list (programs.toml) and where each program lives on disk.

A program is extracted from its repository's mirror, at the commit its suite pins, into
``<work>/src/<name>/`` with the repository's own layout kept (relative includes and
Makefiles keep working); its *program folder* is ``<work>/src/<name>/<path>``. Truth
files and scores name source files relative to that folder.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs.toml"
DEFAULT_WORK = Path(os.environ.get("REALCODE_WORK", "/tmp/realcode"))
# Where a mirror of each suite's repository is looked for when --mirrors is not given:
# $REALCODE_MIRRORS/<owner>+<name>/repo, the layout `git clone --mirror <url>
# <owner>+<name>/repo` gives.
DEFAULT_MIRRORS = Path(os.environ.get("REALCODE_MIRRORS", "/work/.mirror"))


@dataclass(frozen=True)
class Suite:
    name: str
    repository: str
    commit: str

    def mirror(self, root: Path = DEFAULT_MIRRORS) -> Path:
        return root / self.repository.replace("/", "+") / "repo"


@dataclass(frozen=True)
class Program:
    name: str
    suite: Suite
    path: str
    args: tuple[str, ...]
    source: str | None = None
    """PolyBench: the one .cu file to compile."""
    extra: tuple[str, ...] = field(default=())
    """Repository paths the program needs besides its folder (PolyBench's utilities/)."""

    def root(self, work: Path) -> Path:
        return work / "src" / self.name

    def folder(self, work: Path) -> Path:
        return self.root(work) / self.path

    def binary(self, work: Path) -> Path:
        if self.suite.name == "polybench":
            return self.folder(work) / (Path(self.source or "main.cu").stem + ".exe")
        return self.folder(work) / "main"


def load(path: Path = PROGRAMS) -> list[Program]:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    suites = {name: Suite(name, entry["repository"], entry["commit"]) for name, entry in data["suites"].items()}
    programs = []
    for entry in data["program"]:
        suite = suites[entry["suite"]]
        extra = ("CUDA/utilities",) if suite.name == "polybench" else ()
        programs.append(
            Program(entry["name"], suite, entry["path"], tuple(entry.get("args", [])), entry.get("source"), extra)
        )
    names = [p.name for p in programs]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise ValueError(f"{path}: programs listed twice: {', '.join(sorted(duplicates))}")
    return programs


def select(programs: list[Program], names: list[str] | None) -> list[Program]:
    if not names:
        return programs
    known = {p.name: p for p in programs}
    missing = [n for n in names if n not in known]
    if missing:
        raise ValueError(f"not in the program list: {', '.join(missing)}")
    return [known[n] for n in names]

"""The real-code program list (programs.toml) and where each program lives on disk.

A program is extracted from its repository's mirror, at the commit its suite pins, into
``<work>/src/<name>/`` with the repository's own layout kept (relative includes and
Makefiles keep working); its *program folder* is ``<work>/src/<name>/<path>``. Truth
files and scores name source files relative to that folder.

Suites belong to a *part* of the yardstick: ``classic`` (HeCBench, PolyBench-ACC: C-style
CUDA built by their own Makefiles or one nvcc line) or ``modern`` (templates, tensor
cores, CuTe: each program carries its own build recipe, ``build``, and may be built with
a host driver of ours from ``drivers/``), scored apart and together.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs.toml"
DRIVERS = HERE / "drivers"
PARTS = ("classic", "modern")
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
    part: str = "classic"
    extra: tuple[str, ...] = ()
    """Repository paths every program of the suite needs besides its folder (headers, utilities)."""

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
    files: tuple[str, ...] = field(default=())
    """Files of the folder to extract (default: the whole folder)."""
    driver: str | None = None
    """A host driver of ours (``drivers/<driver>``) copied into the program folder before the
    build: it launches kernels that a repository ships only as headers or as functions of a
    larger harness."""
    build: tuple[str, ...] = field(default=())
    """The commands that build it, run in the program folder; ``{root}`` stands for the
    extracted repository root. Empty: the suite's own build (HeCBench's make, PolyBench's nvcc)."""
    output: str | None = None
    """The binary the build writes, relative to the program folder."""

    @property
    def extra(self) -> tuple[str, ...]:
        return self.suite.extra

    def root(self, work: Path) -> Path:
        return work / "src" / self.name

    def folder(self, work: Path) -> Path:
        return self.root(work) / self.path

    def binary(self, work: Path) -> Path:
        if self.output:
            return self.folder(work) / self.output
        if self.suite.name == "polybench":
            return self.folder(work) / (Path(self.source or "main.cu").stem + ".exe")
        return self.folder(work) / "main"

    def extracted_paths(self) -> tuple[str, ...]:
        """The repository paths ``git archive`` extracts for it."""
        own = tuple(f"{self.path}/{name}" for name in self.files) or (self.path,)
        return (*own, *self.extra)


def load(path: Path = PROGRAMS) -> list[Program]:
    with path.open("rb") as handle:
        data = tomllib.load(handle)
    suites = {
        name: Suite(
            name, entry["repository"], entry["commit"], entry.get("part", "classic"), tuple(entry.get("extra", []))
        )
        for name, entry in data["suites"].items()
    }
    unknown = sorted({s.part for s in suites.values()} - set(PARTS))
    if unknown:
        raise ValueError(f"{path}: unknown parts: {', '.join(unknown)}")
    programs = []
    for entry in data["program"]:
        build = tuple(entry.get("build", []))
        if build and not entry.get("output"):
            raise ValueError(f"{path}: {entry['name']}: a build recipe needs its output")
        programs.append(
            Program(
                entry["name"],
                suites[entry["suite"]],
                entry["path"],
                tuple(entry.get("args", [])),
                entry.get("source"),
                tuple(entry.get("files", [])),
                entry.get("driver"),
                build,
                entry.get("output"),
            )
        )
    names = [p.name for p in programs]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise ValueError(f"{path}: programs listed twice: {', '.join(sorted(duplicates))}")
    return programs


def select(programs: list[Program], names: list[str] | None, part: str | None = None) -> list[Program]:
    """The named programs (default: all), of one part of the yardstick if ``part`` is given."""
    if part is not None:
        programs = [p for p in programs if p.suite.part == part]
    if not names:
        return programs
    known = {p.name: p for p in programs}
    missing = [n for n in names if n not in known]
    if missing:
        raise ValueError(f"not in the program list: {', '.join(missing)}")
    return [known[n] for n in names]

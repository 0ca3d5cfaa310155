#!/usr/bin/env python3
"""Why files end ``analysis incomplete``: cudalint's parse errors over a tree, classified.

Runs ``cudalint check DIRECTORY --format sarif`` (zero configuration: no ``-I``, no
compile database unless the tree holds one) and sorts each file's ``analysis incomplete``
notice into one of three causes:

* ``missing header``: an ``#include`` of a header that neither the tree nor the CUDA
  toolkit holds (a library that is not installed): nothing a front end can do;
* ``toolkit header``: one the toolkit holds and the parse did not find (Thrust or CUB
  with ``--headers embedded``, whose set does not include them): counted apart;
* ``header in tree``: an ``#include`` of a header the tree does hold, which the include
  search did not find: the front end's fault;
* ``front end``: any other parse error (a construct the parser rejects): the front end's
  fault, listed by message with identifiers and numbers blanked out;
* ``time limit``: the analysis after a complete parse took longer than ``time-limit``
  (not the front end's doing).

The share that matters is that of ``.cu`` files incomplete for the front end's own
reasons (``header in tree`` or ``front end``): a ``.cu`` file counts as incomplete when a
notice is at it or at a file of the tree it includes (directly or not).

    python bench/realtree.py /tmp/realtree --programs 0
    python bench/incomplete.py /tmp/realtree [--headers embedded] [--list]
    python bench/incomplete.py $(dirname $(find /tmp/realcode/src -name compile_commands.json)) \\
        --tree /tmp/realcode/src

``bench/realtree.py`` assembles the HeCBench tree (held-out programs left out) and
PolyBench-ACC's, checked as one tree with no configuration; the programs of
``bench/realcode`` are each checked in the folder of their compile database, as
``bench/realcode/score.py`` does. Each directory is one cudalint run.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

MISSING = re.compile(r"'(.+)' file not found")
FRONT_END_CAUSES = ("header in tree", "front end")


def run_cudalint(directory: Path, headers: str, extra: list[str], jobs: int, keep: Path | None) -> dict:
    """cudalint's SARIF log for ``directory``; with ``keep``, the one kept there from an
    earlier run, else written there."""
    kept = keep / (str(directory).strip(os.sep).replace(os.sep, "+") + ".sarif") if keep else None
    if kept is not None and kept.is_file():
        return json.loads(kept.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as scratch:
        output = kept or Path(scratch) / "log.sarif"
        output.parent.mkdir(parents=True, exist_ok=True)
        command = [
            sys.executable,
            "-m",
            "cudalint",
            "check",
            str(directory),
            "--format",
            "sarif",
            "--output",
            str(output),
            "--exit-zero",
            "--headers",
            headers,
            "--jobs",
            str(jobs),
            "--cache-dir",
            str(Path(scratch) / "cache"),
            *extra,
        ]
        finished = subprocess.run(command, check=False, capture_output=True, text=True)
        if not output.is_file():
            sys.exit(f"cudalint did not write its log:\n{finished.stderr}")
        return json.loads(output.read_text(encoding="utf-8"))


def notices(log: dict) -> list[tuple[str, str]]:
    """(file, message) of each ``analysis incomplete`` notice."""
    found = []
    for run in log.get("runs", []):
        bases = {name: value.get("uri", "") for name, value in (run.get("originalUriBaseIds") or {}).items()}
        for invocation in run.get("invocations", []):
            for notification in invocation.get("toolExecutionNotifications") or []:
                text = notification.get("message", {}).get("text", "")
                if not text.startswith("analysis incomplete: "):
                    continue
                artifact = notification["locations"][0]["physicalLocation"]["artifactLocation"]
                uri = bases.get(artifact.get("uriBaseId"), "") + artifact["uri"]
                path = unquote(urlparse(uri).path) if "://" in uri else unquote(uri)
                found.append((os.path.normpath(path), text.removeprefix("analysis incomplete: ")))
    return found


def tree_names(root: Path) -> set[str]:
    """Every file's path relative to each of its ancestors inside ``root``: the names an
    ``#include`` could reach it by."""
    names: set[str] = set()
    if root.is_dir():
        for folder, _, files in os.walk(root):
            parts = Path(folder).relative_to(root).parts
            for file in files:
                for start in range(len(parts) + 1):
                    names.add("/".join((*parts[start:], file)))
    return names


def cause(message: str, names: set[str], toolkit_names: set[str] = frozenset()) -> str:
    if message.startswith("time limit of "):
        return "time limit"
    header = MISSING.match(message)
    if header:
        relative = "/".join(p for p in header.group(1).split("/") if p not in ("", ".", ".."))
        if relative in names:
            return "header in tree"
        return "toolkit header" if relative in toolkit_names else "missing header"
    return "front end"


def pattern(message: str) -> str:
    """A message with its particulars blanked: errors of one kind group together."""
    message = re.sub(r" \(in [^)]*\)$", "", message)
    message = re.sub(r"'[^']*'", "'_'", message)
    return re.sub(r"\b\d+\b", "N", message)


_DIRECTIVE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"]([^">\r\n]+)[">]', re.MULTILINE)


def headers_reached(sources: list[str], tree: Path) -> dict[str, set[str]]:
    """For each ``.cu`` file, the files of the tree it includes, directly or not. A
    directive names the file beside the includer when there is one, else the file of the
    tree whose path ends with the name and shares most of the includer's path."""
    by_name: dict[str, list[str]] = {}
    for folder, _, files in os.walk(tree):
        for file in files:
            by_name.setdefault(file, []).append(os.path.join(folder, file))

    @functools.cache
    def direct(path: str) -> tuple[str, ...]:
        try:
            data = Path(path).read_bytes()
        except OSError:
            return ()
        found = []
        for match in _DIRECTIVE.finditer(data):
            name = match.group(1).decode("utf-8", "replace").strip()
            beside = os.path.normpath(os.path.join(os.path.dirname(path), name))
            if os.path.isfile(beside):
                found.append(beside)
                continue
            suffix = os.sep + os.path.normpath(name).lstrip(os.sep + ".")
            candidates = [c for c in by_name.get(os.path.basename(name), ()) if c.endswith(suffix)]
            if candidates:
                found.append(max(candidates, key=lambda c: len(os.path.commonprefix((c, path)))))
        return tuple(found)

    reached: dict[str, set[str]] = {}
    for source in sources:
        seen: set[str] = set()
        pending = [source]
        while pending:
            for target in direct(pending.pop()):
                if target not in seen:
                    seen.add(target)
                    pending.append(target)
        reached[source] = seen
    return reached


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directories", type=Path, nargs="+", help="each is checked by a cudalint run of its own")
    parser.add_argument("--tree", type=Path, help="where headers are looked for (default: the directories' parent)")
    parser.add_argument("--headers", default="auto", choices=("auto", "toolkit", "embedded"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--list", action="store_true", help="print each incomplete file with its message")
    parser.add_argument("--toolkit", type=Path, default=Path(os.environ.get("CUDA_PATH", "/usr/local/cuda")))
    parser.add_argument("--cudalint-args", default="", help="further cudalint arguments, one string")
    parser.add_argument("--sarif-dir", type=Path, help="keep each run's SARIF log here, and reuse those already there")
    options = parser.parse_args(argv)
    directories = [d.resolve() for d in options.directories]
    tree = (options.tree or Path(os.path.commonpath(directories))).resolve()
    by_file: dict[str, list[tuple[str, str]]] = {}
    names, toolkit_names = tree_names(tree), tree_names(options.toolkit / "include")
    sources: list[str] = []
    for directory in directories:
        log = run_cudalint(directory, options.headers, options.cudalint_args.split(), options.jobs, options.sarif_dir)
        sources += sorted(str(p) for p in directory.rglob("*.cu") if p.is_file())
        for path, message in notices(log):
            by_file.setdefault(path, []).append((cause(message, names, toolkit_names), message))
    sources = sorted(set(sources))
    reached = headers_reached(sources, tree)

    def causes_of(source: str) -> set[str]:
        return {c for file in (source, *reached[source]) for c, _ in by_file.get(file, ())}

    incomplete = {source: causes_of(source) for source in sources if causes_of(source)}
    ours = [source for source, causes in incomplete.items() if causes & set(FRONT_END_CAUSES)]
    total = len(sources)
    where = ", ".join(str(d) for d in directories) if len(directories) < 4 else f"{len(directories)} folders of {tree}"
    print(f"{where}: {total} .cu files, {len(incomplete)} end analysis incomplete (theirs or an included file's)")
    share = 100 * len(ours) / total if total else 0.0
    print(f"  for the front end's own reasons: {len(ours)} ({share:.1f}%)")
    for name, count in Counter(c for causes in incomplete.values() for c in causes).most_common():
        print(f"  .cu files with a '{name}' notice: {count}")
    patterns = Counter(pattern(m) for v in by_file.values() for c, m in v if c in FRONT_END_CAUSES)
    for text, count in patterns.most_common(25):
        print(f"  {count:4d}  {text}")
    if options.list:
        for path in sorted(by_file):
            for name, message in by_file[path]:
                print(f"{os.path.relpath(path, tree)}: [{name}] {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

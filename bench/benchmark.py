"""Speed and memory of whole runs, against libclang's bare parse of the same files.

Measures a tree (PATH; without one, a synthetic tree of realistic kernels: the test
corpus, each file copied under several names, plus files that include cub and
cooperative_groups when a toolkit is present). The tree's source files are first copied
to a scratch directory, so that the one-changed-file runs can edit a copy. Each
repetition (``--repeat``, default 3) takes, back to back so that they share whatever else
loads the machine:

  (a) libclang parsing every translation unit cudalint parses, single process, with
      cudalint's arguments and without precompiled headers
  (b) cudalint, cold (empty cache), --jobs 1; the slowest files
  (c) cudalint, cold, all cores
  (d) cudalint, warm re-run of (c), command line and all
  (e) one changed file as pre-commit runs it, cold (its result not cached) and warm
  (f) peak resident memory of any one process during (b)-(e)
  (g) the files that end `analysis incomplete`, by reason

Ratios are taken within each repetition and their median is reported, with the load
average before and after: on a shared machine, wall times vary with the load, processor
times much less. The slowest files are listed by processor time.

    python bench/benchmark.py [PATH] [--repeat 3] [--files 150] [--headers toolkit|embedded|auto] [--keep DIR]
    python bench/realtree.py /tmp/realtree && python bench/benchmark.py /tmp/realtree   (a real tree)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
HEAVY_INCLUDES = {
    "cub_block_reduce.cu": (
        "#include <cub/cub.cuh>\n"
        "__global__ void block_sum(const float* in, float* out) {\n"
        "    using Reduce = cub::BlockReduce<float, 128>;\n"
        "    __shared__ typename Reduce::TempStorage storage;\n"
        "    float v = in[blockIdx.x * 128 + threadIdx.x];\n"
        "    float total = Reduce(storage).Sum(v);\n"
        "    if (threadIdx.x == 0) out[blockIdx.x] = total * 0.5;\n"
        "}\n"
    ),
    "cooperative_tiles.cu": (
        "#include <cooperative_groups.h>\n"
        "namespace cg = cooperative_groups;\n"
        "__global__ void tile_sum(const float* in, float* out) {\n"
        "    cg::thread_block block = cg::this_thread_block();\n"
        "    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);\n"
        "    float v = in[block.thread_rank() * 2];\n"
        "    for (int o = 16; o > 0; o /= 2) v += tile.shfl_down(v, o);\n"
        "    if (tile.thread_rank() == 0) out[blockIdx.x] = v;\n"
        "}\n"
    ),
}
SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl", ".c", ".cpp", ".cc", ".inc")
"""What is copied of a measured tree: sources and anything they may include."""


def build_tree(target: Path, count: int, heavy: bool) -> list[Path]:
    sources = sorted(CORPUS.rglob("*.cu"))
    files: list[Path] = []
    target.mkdir(parents=True, exist_ok=True)
    if heavy:
        for index in range(max(2, count // 15)):
            for name, text in HEAVY_INCLUDES.items():
                path = target / f"h{index}_{name}"
                path.write_text(text, encoding="utf-8")
                files.append(path)
    index = 0
    while len(files) < count:
        source = sources[index % len(sources)]
        path = target / f"c{index}_{source.name}"
        shutil.copyfile(source, path)
        files.append(path)
        index += 1
    return files


def copy_tree(source: Path, target: Path) -> None:
    """The tree's sources (and its compile database), in the same layout."""
    for directory, subdirectories, names in os.walk(source):
        subdirectories[:] = [d for d in subdirectories if not d.startswith(".")]
        for name in names:
            wanted = name.endswith(SOURCE_SUFFIXES) or name == "compile_commands.json"
            if wanted and os.path.isfile(Path(directory, name)):
                relative = Path(directory, name).relative_to(source)
                (target / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(Path(directory, name), target / relative)
    (target / "cudalint.toml").write_text("", encoding="utf-8")


def _units(tree: Path, headers: str):
    """The translation units a run over ``tree`` parses, with the environment to parse them."""
    from cudalint import engine, frontend
    from cudalint import units as planning
    from cudalint.config import load_config

    config = load_config(tree / "cudalint.toml")
    settings = engine.default_settings(config, header_mode=headers)
    files, _ = engine.discover([str(tree)], config, [])
    environment = frontend.build_environment(settings.frontend, search_from=str(tree))
    project = frontend.ProjectFiles(str(tree))
    graph = frontend.IncludeGraph.around(files, environment, project, frontend.flags.system_include_dirs(environment))
    return planning.plan(files, set(), graph), environment


@dataclass
class Measured:
    wall: float
    cpu: float
    """Processor seconds of the measured processes: on a shared machine, what the work
    itself cost, whatever else competes for the cores."""


def bare_parse(tree: Path, headers: str) -> tuple[Measured, int]:
    """libclang alone on every unit, as cudalint's first parse of it (no precompiled headers)."""
    from clang import cindex

    from cudalint import frontend

    units, environment = _units(tree, headers)
    index = cindex.Index.create()
    started, cpu = time.perf_counter(), time.process_time()
    for unit in units:
        args = list(environment.args_for(unit.main))
        for directory in unit.include_dirs:
            args += ["-idirafter", directory]
        index.parse(unit.main, args=args, options=frontend.PARSE_OPTIONS)
    return Measured(time.perf_counter() - started, time.process_time() - cpu), len(units)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def child_run(tree: str, headers: str, jobs: int, cache: str) -> None:
    """One cold or warm run through the engine, as the command line makes it; prints the
    seconds each unit took and the run's notices as JSON."""
    from cudalint import engine
    from cudalint.config import load_config

    config = load_config(Path(tree) / "cudalint.toml")
    settings = engine.default_settings(config, header_mode=headers)
    settings.jobs, settings.cache_dir = jobs, cache
    result = engine.run([tree], settings, [])
    json.dump(
        {
            "seconds": result.unit_seconds,
            "files": len(result.files),
            "notices": [(n.path, n.kind.value, n.message) for n in result.notices],
        },
        sys.stdout,
    )


BYTECODE = Path(tempfile.gettempdir()) / "cudalint-bench-bytecode"


def child_environment() -> dict[str, str]:
    """The measured runs' environment: not interactive, and with compiled bytecode kept (in
    a scratch directory) even where the environment turns it off, as an installed cudalint
    has it: otherwise every start-up would compile cudalint's modules again."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return {**environment, "CI": "1", "PYTHONPYCACHEPREFIX": str(BYTECODE)}


def engine_run(tree: Path, headers: str, jobs: int, cache: Path) -> tuple[Measured, dict]:
    command = [
        sys.executable,
        __file__,
        "--child",
        str(tree),
        "--headers",
        headers,
        "--jobs",
        str(jobs),
        "--cache",
        str(cache),
    ]
    started, cpu = time.perf_counter(), _children_cpu()
    completed = subprocess.run(command, capture_output=True, text=True, env=child_environment())
    measured = Measured(time.perf_counter() - started, _children_cpu() - cpu)
    if completed.returncode != 0:
        raise SystemExit(f"cudalint failed: {completed.stderr.strip()}")
    return measured, json.loads(completed.stdout)


def command_line(paths: list[str], headers: str, cache: Path, cwd: Path) -> Measured:
    command = [
        sys.executable,
        "-m",
        "cudalint",
        *paths,
        "--format",
        "concise",
        "--headers",
        headers,
        "--cache-dir",
        str(cache),
        "--exit-zero",
    ]
    started, cpu = time.perf_counter(), _children_cpu()
    completed = subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd, env=child_environment()
    )
    measured = Measured(time.perf_counter() - started, _children_cpu() - cpu)
    if completed.returncode not in (0, 1):
        raise SystemExit(f"cudalint failed: {completed.stderr.strip()}")
    return measured


def incomplete_reasons(notices: list) -> Counter:
    """Why files end `analysis incomplete`, by kind of reason."""
    reasons: Counter = Counter()
    files: dict[str, str] = {}
    for path, kind, message in notices:
        if kind != "incomplete" or path in files:
            continue
        if "file not found" in message:
            files[path] = "header not found: " + message.split("'")[1]
        elif message.startswith("time limit"):
            files[path] = "time limit"
        elif "undeclared identifier" in message:
            files[path] = "name declared nowhere"
        else:
            files[path] = "other parse error: " + re.sub(r"'[^']*'", "'...'", message)[:60]
    reasons.update(files.values())
    return reasons


def describe(tree: Path) -> str:
    """Files, lines and directories of the measured tree's sources."""
    files = [
        Path(directory, name)
        for directory, _, names in os.walk(tree)
        for name in names
        if name.endswith(SOURCE_SUFFIXES)
    ]
    lines = sum(path.read_bytes().count(b"\n") for path in files)
    directories = len({path.parent for path in files})
    return f"{len(files)} source files ({lines} lines) in {directories} directories"


@dataclass
class Round:
    """One repetition of the cold runs, taken back to back so that they share the load."""

    bare: Measured
    cold_one: Measured
    cold_all: Measured


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, help="a tree to measure (default: a synthetic one)")
    parser.add_argument("--files", type=int, default=150, help="size of the synthetic tree")
    parser.add_argument("--headers", choices=("toolkit", "embedded", "auto"), default="auto")
    parser.add_argument("--keep", type=Path, help="build the tree here and keep it")
    parser.add_argument(
        "--repeat", type=int, default=3, help="repetitions of the measurements; the medians are reported (default 3)"
    )
    parser.add_argument("--slowest", type=int, default=5, help="how many of the slowest files to list")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--jobs", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--cache", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child:
        child_run(options.child, options.headers, options.jobs, options.cache)
        return 0
    from cudalint import frontend

    mode = frontend.build_environment(frontend.FrontendOptions(header_mode=options.headers)).header_mode.value
    workdir = Path(tempfile.mkdtemp(prefix="cudalint-bench-"))
    tree = options.keep or workdir / "tree"
    cores = os.cpu_count() or 1
    load_before = _load()
    rounds: list[Round] = []
    warm, one_cold, one_warm = [], [], []
    try:
        if options.path is not None:
            copy_tree(options.path.resolve(), tree)
        else:
            build_tree(tree, options.files, heavy=mode == "toolkit")
            (tree / "cudalint.toml").write_text("", encoding="utf-8")
        changed = None
        for repetition in range(max(1, options.repeat)):
            caches = workdir / f"caches-{repetition}"
            bare, unit_count = bare_parse(tree, mode)
            cold_one, report = engine_run(tree, mode, 1, caches / "one")
            cold_all, _ = engine_run(tree, mode, cores, caches / "all")
            rounds.append(Round(bare, cold_one, cold_all))
            warm.append(command_line([str(tree)], mode, caches / "all", tree))
            changed = changed or _median_unit(report["seconds"])
            with open(changed, "a", encoding="utf-8") as handle:
                handle.write(f"\n// edited {repetition}\n")
            one_cold.append(command_line([changed], mode, caches / "all", tree))
            one_warm.append(command_line([changed], mode, caches / "all", tree))
            shutil.rmtree(caches, ignore_errors=True)
            _print_repetition(repetition, rounds[-1], warm[-1], one_cold[-1], one_warm[-1])
        peak_mib = (
            max(
                resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
                resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
            )
            / 1024
        )
        description = describe(tree)
    finally:
        if options.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)
    seconds = report["seconds"]
    slowest = sorted(seconds.items(), key=lambda item: -item[1])[: options.slowest]
    name = options.path or f"synthetic tree of {options.files}"
    print(
        f"{name}: {description}; {report['files']} files reported, {unit_count} translation units; "
        f"{mode} headers; {cores} cores"
    )
    print(f"load average (1, 5, 15 min): {load_before} before, {_load()} after; {len(rounds)} repetitions, medians")
    print(" " * 38 + "wall          cpu     wall/bare  cpu/bare   per repetition (wall/bare)")
    rows = [
        ("(a) bare libclang parse, 1 process", [r.bare for r in rounds], ""),
        ("(b) cudalint cold, --jobs 1", [r.cold_one for r in rounds], "(target <= 1.3)"),
        ("(c) cudalint cold, all cores", [r.cold_all for r in rounds], "(target <= 0.6)"),
        ("(d) cudalint warm re-run", warm, "(target <= 2 s)"),
        ("(e) one changed file, cold", one_cold, "(target <= 1 s in toolkit mode)"),
        ("    the same file, warm", one_warm, "(target <= 0.3 s)"),
    ]
    for label, measured, target in rows:
        wall, cpu = median([m.wall for m in measured]), median([m.cpu for m in measured])
        text = f"{label:36s} {wall:8.2f} s  {cpu:8.2f} s  "
        if label[1] in "bc":
            wall_ratios = [m.wall / r.bare.wall for m, r in zip(measured, rounds, strict=False)]
            cpu_ratios = [m.cpu / r.bare.cpu for m, r in zip(measured, rounds, strict=False)]
            each = " ".join(f"{ratio:.2f}" for ratio in wall_ratios)
            text += f"{median(wall_ratios):8.2f}  {median(cpu_ratios):8.2f}   {target} [{each}]"
        else:
            text += " " * 18 + f"   {target}"
        print(text)
    print(f"(f) peak memory of one process       {peak_mib:8.0f} MiB            (target <= 1536 MiB)")
    print("    slowest files in the last (b), processor seconds of parse and analysis (target <= 10 s each):")
    for path, elapsed in slowest:
        print(f"      {elapsed:6.2f} s  {os.path.relpath(path, tree)}")
    reasons = incomplete_reasons(report["notices"])
    print(f"(g) files ending `analysis incomplete`: {sum(reasons.values())}")
    for reason, count in reasons.most_common():
        print(f"      {count:4d}  {reason}")
    return 0


def _print_repetition(repetition: int, cold: Round, warm: Measured, one_cold: Measured, one_warm: Measured) -> None:
    """One repetition's figures as soon as it ends: a long measurement cut short still says
    what it measured."""
    figures = [
        ("bare", cold.bare),
        ("cold --jobs 1", cold.cold_one),
        ("cold all cores", cold.cold_all),
        ("warm", warm),
        ("one file cold", one_cold),
        ("warm", one_warm),
    ]
    text = "; ".join(f"{label} {m.wall:.2f} s wall {m.cpu:.2f} s cpu" for label, m in figures)
    ratios = f"cold --jobs 1 {cold.cold_one.wall / cold.bare.wall:.2f} wall {cold.cold_one.cpu / cold.bare.cpu:.2f} cpu"
    ratios += f", all cores {cold.cold_all.wall / cold.bare.wall:.2f} wall"
    print(f"repetition {repetition + 1} (load {_load()}): {text}; ratios to bare: {ratios}", flush=True)


def _median_unit(seconds: dict[str, float]) -> str:
    ordered = sorted(seconds, key=seconds.get)
    return ordered[len(ordered) // 2]


if __name__ == "__main__":
    sys.exit(main())

"""``cudalint profile``: measure a program's kernels per source line with Nsight Compute.

    cudalint profile [--ncu PATH] [--kernel REGEX] [--launch-count N] [--output FILE] -- ./app args...
    cudalint profile --import report.ncu-rep|source.csv --binary ./app [--output FILE]

The program runs under ``ncu --section SourceCounters``: by default the first launch of
each kernel (``--kernel-id :::1``), at most ``--launch-count`` launches, which is what the
per-line counters need (a kernel's second launch costs the same lines). Kernels are told
apart by their demangled names (``--kernel-name-base demangled``): each instantiation of a
template is its own kernel, with its own code and counters, where ncu's default base name
would profile only the first instantiation launched. The report's
source page gives ncu's counters per SASS instruction; ``nvdisasm -gi`` of the same binary
(its cubins extracted by ``cuobjdump``) gives each instruction its source line; the sum per
line is written as a measured-lines file (``cudalint.profile.measured``), which
``cudalint check --profile FILE`` joins with the analysis.

This module runs where the GPU is: it needs Python, ncu, nvdisasm and cuobjdump, and
imports nothing of the analyzer (no libclang).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from cudalint.profile import measured, source_lines

DEFAULT_LAUNCH_COUNT = 64


class ProfileFailed(Exception):
    """Why no measured-lines file could be written: one line for the user."""


def selection(kernel: str | None, launch_count: int, launch_skip: int | None) -> list[str]:
    """ncu's launch filter: the first launch of each kernel (each template instantiation
    apart; whose demangled name matches ``kernel``, a regular expression), or with
    ``launch_skip`` every launch after that many."""
    chosen = ["--kernel-name-base", "demangled"]
    if launch_skip is not None:
        chosen += ["--launch-skip", str(launch_skip)]
        if kernel:
            chosen += ["--kernel-name", f"regex:{kernel}"]
    else:
        chosen += ["--kernel-id", f"::regex:{kernel}:1" if kernel else ":::1"]
    return [*chosen, "--launch-count", str(launch_count)]


def _binary_of(command: list[str], explicit: Path | None) -> Path:
    if explicit is not None:
        if not explicit.is_file():
            raise ProfileFailed(f"--binary {explicit}: no such file")
        return explicit
    program = command[0]
    found = Path(program) if "/" in program else Path(shutil.which(program) or program)
    if not found.is_file():
        raise ProfileFailed(f"{program}: no such program")
    return found


def _disassembly(binary: Path | None, disassembly: Path | None, nvdisasm: str | None, cuobjdump: str | None) -> str:
    if disassembly is not None:
        try:
            return disassembly.read_text(errors="replace")
        except OSError as exc:
            raise ProfileFailed(f"cannot read {disassembly}: {exc.strerror or exc}") from None
    if binary is None:
        raise ProfileFailed("give the profiled program (--binary) or its `nvdisasm -gi` output (--disassembly)")
    try:
        text = source_lines.disassemble(binary, nvdisasm, cuobjdump)
    except FileNotFoundError as exc:
        raise ProfileFailed(str(exc)) from None
    except subprocess.CalledProcessError:
        raise ProfileFailed(f"{binary}: cuobjdump found no CUDA code in it (give the binary with --binary)") from None
    if not text.strip():
        raise ProfileFailed(f"{binary}: no cubin with line information (build with -lineinfo)")
    return text


def _read(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


def _gpu_name(stem: Path, live: bool) -> str:
    name = source_lines.device_name(_read(source_lines.exported(stem, ".device.csv")))
    if name is None and live:
        try:
            listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30, check=False)
            first = listed.stdout.split("\n", 1)[0]
            name = first.split(":", 1)[1].split("(", 1)[0].strip() if first.startswith("GPU 0:") else None
        except (OSError, subprocess.TimeoutExpired):
            name = None
    return name or "unknown"


def profile(options) -> measured.MeasuredLines:
    """Measure (or import) and map; ``options`` as the command line parses them."""
    ncu = source_lines.find_tool("ncu", options.ncu)
    with tempfile.TemporaryDirectory(prefix="cudalint_profile_") as scratch:
        keep = options.keep_exports
        folder = Path(keep) if keep else Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        binary: Path | None = None
        provenance: dict = {"problems": []}
        if options.import_path is not None:
            source = options.import_path
            if not source.is_file():
                raise ProfileFailed(f"{source}: no such file")
            if options.binary is not None:
                binary = _binary_of([], options.binary)
            stem = folder / source.name.removesuffix(".ncu-rep").removesuffix(".csv")
            if source.suffix == ".csv":
                stem = source.with_name(source.name.removesuffix(".csv").removesuffix(".source"))
                export = source
            else:
                if ncu is None:
                    raise ProfileFailed("ncu not found (Nsight Compute; give --ncu PATH)")
                problems = source_lines.export_report(ncu, source, stem)
                if "export_source" in problems:
                    raise ProfileFailed(f"{source}: ncu could not read it: {problems['export_source']}")
                export = source_lines.exported(stem, ".source.csv")
                provenance["ncu"] = source_lines.tool_version(ncu)
            provenance["gpu"] = _gpu_name(stem, live=False)
        else:
            command = list(options.program)
            if command and command[0] == "--":
                command = command[1:]
            if not command:
                raise ProfileFailed("give the program to profile after `--`: cudalint profile -- ./app args")
            if ncu is None:
                raise ProfileFailed("ncu not found (Nsight Compute; give --ncu PATH or put it on PATH)")
            binary = _binary_of(command, options.binary)
            chosen = selection(options.kernel, options.launch_count, options.launch_skip)
            stem = folder / binary.name
            outcome = source_lines.profile_and_export(ncu, command, stem, chosen, options.timeout or None)
            if not source_lines.exported(stem, ".source.csv").exists():
                raise ProfileFailed(
                    f"ncu did not profile {command[0]} (exit {outcome['status']}): "
                    + (outcome.get("error") or "no report").replace("\n", " | ")
                )
            if outcome["status"] != 0:
                provenance["problems"].append(f"the program exited with status {outcome['status']} under ncu")
            export = source_lines.exported(stem, ".source.csv")
            provenance.update(command=command, selection=chosen, ncu=source_lines.tool_version(ncu))
            provenance["gpu"] = _gpu_name(stem, live=True)
        disassembly = _disassembly(binary, options.disassembly, options.nvdisasm, options.cuobjdump)
        if keep:
            (folder / f"{stem.name}.disasm.txt").write_text(disassembly)
        profiled = source_lines.parse_source_export(_read(export))
        if not profiled:
            raise ProfileFailed(f"{export.name}: no profiled kernel in ncu's export (did any kernel run?)")
        details = _read(source_lines.exported(stem, ".details.csv"))
        if binary is not None:
            provenance["binary"] = measured.binary_identity(binary)
        return measured.measured_lines(
            source_lines.parse_disassembly(disassembly),
            profiled,
            kernels=source_lines.launches_from_details(details) if details else [],
            **provenance,
        )


def summary(lines: measured.MeasuredLines) -> str:
    """What was measured, and the lines where the hardware showed a hazard, worst first."""
    out = [
        f"profiled {len(lines.kernels) or 'the'} kernel launch{'es' if len(lines.kernels) != 1 else ''} "
        f"({lines.provenance}): {lines.executed_lines()} source lines executed"
    ]
    hazards = []
    for name, figures in sorted(lines.lines.items()):
        verdicts = source_lines.file_verdicts(figures, {}, {}, synccheck_complete=False)
        for line, f in sorted(figures.items()):
            if verdicts["global"].get(line):
                hazards.append((f.gworst, f"{name}:{line}: global accesses {f.gworst:g}x the ideal sectors"))
            if verdicts["shared"].get(line):
                hazards.append((f.sworst, f"{name}:{line}: shared accesses {f.sworst:g}x the ideal wavefronts"))
            if verdicts["divergence"].get(line):
                hazards.append((f.div / max(f.bra, 1), f"{name}:{line}: {f.div:g} of {f.bra:g} branches diverged"))
            if verdicts["local"].get(line) and f.inst:
                hazards.append((0, f"{name}:{line}: {f.local} local-memory instructions"))
    for _, text in sorted(hazards, key=lambda item: -item[0])[:20]:
        out.append(f"  {text}")
    if len(hazards) > 20:
        out.append(f"  ... {len(hazards) - 20} more (all in the measured-lines file)")
    out += [f"  problem: {problem}" for problem in lines.problems]
    return "\n".join(out) + "\n"


def profile_command(options) -> int:
    try:
        lines = profile(options)
    except ProfileFailed as exc:
        print(f"cudalint: error: {exc}", file=sys.stderr)
        return 2
    output: Path = options.output or Path(f"{Path(lines.binary.get('path', 'profile')).name}.measured.json")
    try:
        output.write_text(lines.to_json(), encoding="utf-8")
    except OSError as exc:
        print(f"cudalint: error: cannot write {output}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    sys.stderr.write(summary(lines))
    print(f"measured lines written to {output}", file=sys.stderr)
    return 0

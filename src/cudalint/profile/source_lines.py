"""Hardware figures per source line: SASS mapped to lines, Nsight Compute's per-instruction
source counters summed per line.

Two inputs, both read from a binary built with ``-lineinfo``:

* ``nvdisasm -gi`` of every cubin in the binary: each SASS instruction with the source
  line it came from. For code inlined from a helper, nvdisasm prints the helper's line
  first (``//## File "h.cuh", line 2 inlined at "k.cu", line 9``) and then the call
  site's; the *innermost* line (the helper's) is the one a finding about that code
  names, so figures go there.
* Nsight Compute's source page (``ncu --import R --page source --csv --print-source sass``)
  of a report profiled with ``--section SourceCounters``: one row per SASS instruction
  per profiled kernel, with its executed-instruction, thread, branch, global-sector and
  shared-wavefront counters.

Rows are matched to instructions by kernel and position (the export lists a kernel's
instructions in address order, as nvdisasm does; the opcodes are compared to prove it).
Figures are summed per (file, line) over all profiled kernels; per-line "worst" ratios
keep the single most wasteful access instruction of a line visible even when the line
also holds clean ones.

The same module runs on the GPU machine (profiling, exporting) and offline (parsing,
summing), for the corpus harness (scripts/measure_gpu.py --lines) and for the real-code
benchmark (bench/realcode).
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

NVTOOLS = ("/usr/local/cuda/bin", "/tmp/nvtools/x/nvidia/cu13/bin")

FILE_LINE = re.compile(
    r'//## File "(?P<file>[^"]*)", line (?P<line>\d+)(?: inlined at "(?P<at>[^"]*)", line (?P<atline>\d+))?'
)
INSTRUCTION = re.compile(r"^\s*/\*(?P<offset>[0-9a-f]{4,})\*/\s+(?P<text>[^;]*);")
FUNCTION_SECTION = re.compile(r"^\s*\.section\s+\.text\.(?P<name>[^,\s]+),")

# fp64 arithmetic (CL401): the D* pipe, conversions to or from F64, and the fp64 MUFU
# seeds. DEPBAR is a scoreboard wait, not fp64.
FP64_OPCODES = {"DADD", "DMUL", "DFMA", "DSETP", "DSET", "DMNMX", "DMMA"}
FP64_CONVERSIONS = {"F2F", "I2F", "F2I", "FRND", "F2IP"}
FP64_MUFU = {"MUFU.RCP64H", "MUFU.RSQ64H"}
LOCAL_OPCODES = {"LDL", "STL"}
BARRIER_OPCODES = {"BAR"}


@dataclass(frozen=True, slots=True)
class Location:
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class Instruction:
    function: str
    """The mangled kernel or function name (the .text section's name)."""
    offset: int
    opcode: str
    """With modifiers, without predicate or operands: ``LDG.E.64``."""
    location: Location | None
    """The innermost source line; None where nvdisasm gives none."""
    inlined_at: tuple[Location, ...] = ()
    """Call sites, innermost first, where the instruction comes from an inlined function."""

    @property
    def base(self) -> str:
        return self.opcode.split(".", 1)[0]

    @property
    def is_fp64(self) -> bool:
        if self.base in FP64_OPCODES or self.opcode in FP64_MUFU:
            return True
        return self.base in FP64_CONVERSIONS and ".F64" in self.opcode

    @property
    def is_fp32_to_fp64(self) -> bool:
        """F2F.F64.F32: a float promoted to double, float data entering fp64 arithmetic."""
        return self.opcode.startswith("F2F.F64.F32")

    @property
    def is_local(self) -> bool:
        return self.base in LOCAL_OPCODES

    @property
    def is_barrier(self) -> bool:
        return self.base in BARRIER_OPCODES


_TOOLKIT_HEADER = re.compile(r"/targets/[^/]+/include/|^/usr/local/cuda[^/]*/include/|^/usr/include/")


def toolkit_header(path: str) -> bool:
    """Whether ``path`` is a header of the CUDA toolkit (``.../cuda/targets/x86_64-linux/include/cuda_bf16.hpp``)."""
    return bool(_TOOLKIT_HEADER.search(path))


def parse_disassembly(text: str) -> dict[str, list[Instruction]]:
    """``nvdisasm -gi`` output -> the instructions of each function, in address order."""
    functions: dict[str, list[Instruction]] = {}
    current: list[Instruction] | None = None
    name = ""
    pending: list[tuple[Location, Location | None]] = []
    location: Location | None = None
    inlined: tuple[Location, ...] = ()
    for raw in text.splitlines():
        section = FUNCTION_SECTION.match(raw)
        if section:
            name = section.group("name")
            current = functions.setdefault(name, [])
            location, inlined, pending = None, (), []
            continue
        marker = FILE_LINE.search(raw)
        if marker:
            at = marker.group("at")
            pending.append(
                (
                    Location(marker.group("file"), int(marker.group("line"))),
                    Location(at, int(marker.group("atline"))) if at else None,
                )
            )
            continue
        match = INSTRUCTION.match(raw)
        if not match or current is None:
            continue
        if pending:
            # A group of markers: the first is the innermost line; each "inlined at"
            # names the next call site out.
            location = pending[0][0]
            inlined = tuple(at for _, at in pending if at is not None)
            while inlined and toolkit_header(location.file):
                # Code of CUDA's own headers (a `__half`'s conversion to float reading its
                # bits) belongs to the line that used it: that is where a finding is.
                location, inlined = inlined[0], inlined[1:]
            pending = []
        words = match.group("text").split()
        if words and words[0].startswith("@"):
            words = words[1:]
        if not words:
            continue
        current.append(Instruction(name, int(match.group("offset"), 16), words[0], location, inlined))
    return {name: instructions for name, instructions in functions.items() if instructions}


def find_tool(name: str, explicit: str | None = None) -> str | None:
    if explicit:
        return explicit
    found = shutil.which(name)
    if found:
        return found
    for folder in NVTOOLS:
        candidate = Path(folder) / name
        if candidate.exists():
            return str(candidate)
    return None


def disassemble(binary: Path, nvdisasm: str | None = None, cuobjdump: str | None = None) -> str:
    """``nvdisasm -gi`` of every cubin embedded in ``binary``, concatenated."""
    nvdisasm = find_tool("nvdisasm", nvdisasm)
    cuobjdump = find_tool("cuobjdump", cuobjdump)
    if not nvdisasm or not cuobjdump:
        raise FileNotFoundError(
            "nvdisasm and cuobjdump are needed (CUDA toolkit, or the PyPI wheels "
            "nvidia-cuda-nvdisasm and nvidia-cuda-cuobjdump)"
        )
    parts = []
    with tempfile.TemporaryDirectory(prefix="cubins_") as folder:
        # Cubins of one name overwrite each other; the one written last holds the code
        # (the first of a pair is the empty placeholder of a single-file program).
        subprocess.run([cuobjdump, "-xelf", "all", str(binary.resolve())], cwd=folder, capture_output=True, check=True)
        for cubin in sorted(Path(folder).glob("*.cubin")):
            done = subprocess.run([nvdisasm, "-gi", "-c", str(cubin)], capture_output=True, text=True, check=False)
            if done.returncode == 0:
                parts.append(done.stdout)
    return "\n".join(parts)


# ---------------------------------------------------------------------------- profiling (GPU machine)


def _tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def exported(stem: Path, suffix: str) -> Path:
    """``<stem><suffix>``: a stem may hold dots (``atax.exe``), as ncu's ``-o`` name does."""
    return stem.with_name(stem.name + suffix)


def profile_and_export(
    ncu: str,
    command: list[str],
    stem: Path,
    selection: list[str],
    timeout: float | None,
    cwd: Path | None = None,
) -> dict:
    """Run ``command`` under ``ncu --section SourceCounters`` (``selection``: which launches)
    into the report ``<stem>.ncu-rep`` and export it (``export_report``). Returns what
    happened (exit status, seconds, the end of ncu's complaints); never raises for a
    failed run."""
    report = exported(stem, ".ncu-rep")
    profile = [ncu, "--section", "SourceCounters", "--import-source", "no", *selection, "-f", "-o", str(stem), *command]
    started = time.monotonic()
    outcome: dict = {"command": " ".join(profile)}
    try:
        done = subprocess.run(profile, capture_output=True, text=True, timeout=timeout, cwd=cwd, check=False)
        outcome["status"] = done.returncode
        log = done.stdout + done.stderr
    except subprocess.TimeoutExpired as expired:
        outcome["status"] = "timeout"
        log = "".join(
            part.decode(errors="replace") if isinstance(part, bytes) else part
            for part in (expired.stdout or "", expired.stderr or "")
        )
    except OSError as exc:
        outcome["status"] = "not run"
        log = f"{profile[0]}: {exc.strerror or exc}"
    outcome["seconds"] = round(time.monotonic() - started, 1)
    exported(stem, ".ncu.log").write_text(log)
    if not report.exists():
        outcome["error"] = _tail(log)
        return outcome
    outcome.update(export_report(ncu, report, stem, cwd))
    return outcome


EXPORTS = (
    ("source", ".source.csv", ["--print-source", "sass"]),
    ("details", ".details.csv", []),
    ("raw", ".device.csv", ["--metrics", "device__attribute_display_name"]),
)
"""The pages of a report that are kept: the source page as per-SASS-instruction rows
(ncu's CUDA-source view carries no counters in its CSV export), the details page (kernel
names, grid and block sizes) and the GPU's name."""


def export_report(ncu: str, report: Path, stem: Path, cwd: Path | None = None) -> dict:
    """``ncu --import report`` exported as ``<stem>.source.csv``, ``<stem>.details.csv`` and
    ``<stem>.device.csv``; returns the end of ncu's complaints per page that failed."""
    problems: dict = {}
    for page, suffix, extra in EXPORTS:
        try:
            done = subprocess.run(
                [ncu, "--import", str(report), "--page", page, "--csv", *extra],
                capture_output=True,
                text=True,
                timeout=600,
                cwd=cwd,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            problems[f"export_{page}"] = str(exc)
            continue
        exported(stem, suffix).write_text(done.stdout)
        if done.returncode != 0:
            problems[f"export_{page}"] = _tail(done.stderr)
    return problems


def device_name(raw_export: str) -> str | None:
    """The GPU of a report's raw page exported with ``--metrics device__attribute_display_name``."""
    rows = [line for line in raw_export.splitlines() if line.startswith('"')]
    for row in csv.DictReader(io.StringIO("\n".join(rows))):
        name = (row.get("device__attribute_display_name") or "").strip()
        if name and name.lower() not in ("", "n/a"):
            return name
    return None


def tool_version(tool: str) -> str:
    """``2025.3.1.0`` of ``ncu --version`` (any NVIDIA tool printing ``Version X``)."""
    try:
        text = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=60, check=False).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    match = re.search(r"Version\s+(\S+)", text)
    return match.group(1).strip() if match else "unknown"


# ---------------------------------------------------------------------------- ncu's source page


@dataclass
class ProfiledKernel:
    """One profiled launch in ncu's source-page export: its per-instruction rows."""

    name: str
    """As ncu prints it: the demangled signature, ``k(float *, int)``."""
    rows: list[dict[str, str]] = field(default_factory=list)

    @property
    def opcodes(self) -> list[str]:
        return [_opcode(row.get("Source", "")) for row in self.rows]


def _opcode(sass: str) -> str:
    words = sass.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].rstrip(";") if words else ""


def parse_source_export(text: str) -> list[ProfiledKernel]:
    """``ncu --page source --csv --print-source sass`` -> one entry per profiled launch.

    The export holds a ``"Kernel Name",<name>`` line, a header line (``"Address","Source",
    ...``) and one line per instruction, for each launch; ncu 2025.3 writes every launch
    twice in a row (the second time with warp-stall columns added), and a counter that is
    zero for the whole kernel has no column. The repeat of a launch is dropped."""
    kernels: list[ProfiledKernel] = []
    header: list[str] | None = None
    for row in csv.reader(io.StringIO(text)):
        if not row:
            continue
        if row[0] == "Kernel Name" and len(row) > 1:
            kernels.append(ProfiledKernel(row[1]))
            header = None
        elif row[0] == "Address":
            header = row
        elif header is not None and kernels:
            kernels[-1].rows.append(dict(zip(header, row, strict=False)))
    unique: list[ProfiledKernel] = []
    for kernel in kernels:
        previous = unique[-1] if unique else None
        if previous is not None and previous.name == kernel.name and _same_counts(previous, kernel):
            continue
        unique.append(kernel)
    return unique


def _same_counts(a: ProfiledKernel, b: ProfiledKernel) -> bool:
    return len(a.rows) == len(b.rows) and all(
        x.get("Address") == y.get("Address") and x.get("Instructions Executed") == y.get("Instructions Executed")
        for x, y in zip(a.rows, b.rows, strict=True)
    )


def _number(row: dict[str, str], column: str) -> float:
    value = row.get(column, "")
    try:
        return float(value.replace(",", ""))
    except ValueError:
        return 0.0


def kernel_identifier(signature: str) -> str:
    """``ns::k<float>(float *, int)`` -> ``k``."""
    head = signature.split("(", 1)[0]
    depth, plain = 0, []
    for char in head:
        depth += char == "<"
        if depth == 0:
            plain.append(char)
        depth -= char == ">"
    return "".join(plain).split("::")[-1].split()[-1] if "".join(plain).strip() else head


def match_function(kernel: ProfiledKernel, functions: dict[str, list[Instruction]]) -> str | None:
    """The disassembled function a profiled launch ran: the one with the same opcode
    sequence, preferring a mangled name that spells the kernel's name as a whole
    identifier (``14rows_alternate``, not the ``rows_alternate`` inside
    ``19rows_alternate_wide``: kernels with the same code differ in name only)."""
    opcodes = kernel.opcodes
    same = [
        name
        for name, instructions in functions.items()
        if len(instructions) == len(opcodes) and [i.opcode for i in instructions] == opcodes
    ]
    base = kernel_identifier(kernel.name)
    whole = [name for name in same if base and f"{len(base)}{base}" in name]
    named = [name for name in same if base and base in name]
    chosen = whole or named or same
    return chosen[0] if chosen else None


def launches_from_details(text: str) -> list[dict]:
    """Name, block and grid of each profiled launch (ncu's details page, ``--page details --csv``)."""
    rows = [line for line in text.splitlines() if line.startswith('"')]
    seen: dict[str, dict] = {}
    for row in csv.DictReader(io.StringIO("\n".join(rows))):
        launch = row.get("ID")
        if launch is None or launch in seen:
            continue
        seen[launch] = {
            "name": kernel_identifier(row.get("Kernel Name", "")),
            "block": _dims(row.get("Block Size", "")),
            "grid": _dims(row.get("Grid Size", "")),
        }
    return list(seen.values())


def _dims(text: str) -> list[int]:
    return [int(part) for part in text.strip("() ").split(",") if part.strip().isdigit()]


# ---------------------------------------------------------------------------- per-line figures

BRANCH_OPCODES = {"BRA", "BRX", "JMP", "JMX"}
ACCESS_COLUMNS = (
    ("L2 Theoretical Sectors Global", "gsec", "gideal", "gworst"),
    ("L1 Wavefronts Shared", "swf", "sideal", "sworst"),
)
"""ncu's per-instruction access counter (its ideal is the same name + " Ideal") and the
line figures it adds to: total, ideal, worst ratio."""
# An access instruction counts towards a line's worst ratio when it moves at least this
# share of the sectors (wavefronts) of the line's busiest access instruction: a rarely run
# access cannot make a line a hazard, while each copy of an unrolled access still counts.
SIGNIFICANT_SHARE = 0.1

COLUMNS = (
    "sass",
    "inst",
    "thr",
    "pred",
    "bra",
    "div",
    "gsec",
    "gideal",
    "gworst",
    "swf",
    "sideal",
    "sworst",
    "fp64",
    "cvt64",
    "local",
    "bar",
)
"""The figures of a line, in the order truth files store them."""


@dataclass
class LineFigures:
    sass: int = 0
    """SASS instructions the compiler emitted for the line (all functions)."""
    inst: float = 0
    """Warp-level instructions executed."""
    thr: float = 0
    """Thread instructions executed (active threads, predicate ignored)."""
    pred: float = 0
    """Predicated-on thread instructions executed (active threads whose predicate held)."""
    bra: float = 0
    """Warp-level executions of the line's branch instructions."""
    div: float = 0
    """Divergent branches."""
    gsec: float = 0
    gideal: float = 0
    gworst: float = 0
    """Largest sectors/ideal ratio of one significant global access instruction."""
    swf: float = 0
    sideal: float = 0
    sworst: float = 0
    """Largest wavefronts/ideal ratio of one significant shared access instruction."""
    fp64: int = 0
    """fp64 instructions emitted for the line (D* arithmetic, F64 conversions, fp64 MUFU)."""
    cvt64: int = 0
    """Of them, F2F.F64.F32: floats promoted to double."""
    local: int = 0
    """LDL/STL instructions (local arrays, and spill code placed on the line)."""
    bar: int = 0
    """BAR instructions (__syncthreads and other block barriers)."""

    def row(self) -> list[float]:
        return [_compact(getattr(self, name)) for name in COLUMNS]

    @classmethod
    def from_row(cls, values: list[float]) -> LineFigures:
        return cls(**dict(zip(COLUMNS, values, strict=False)))


def _compact(value: float) -> float:
    return int(value) if float(value).is_integer() else round(value, 3)


@dataclass
class _Access:
    amount: float = 0
    ideal: float = 0


def line_figures(
    functions: dict[str, list[Instruction]], profiled: list[ProfiledKernel], problems: list[str] | None = None
) -> dict[Location, LineFigures]:
    """Static figures for every compiled line, plus the counters of every profiled launch."""
    lines: dict[Location, LineFigures] = {}
    for instructions in functions.values():
        for instruction in instructions:
            if instruction.location is None:
                continue
            figures = lines.setdefault(instruction.location, LineFigures())
            figures.sass += 1
            figures.fp64 += instruction.is_fp64
            figures.cvt64 += instruction.is_fp32_to_fp64
            figures.local += instruction.is_local
            figures.bar += instruction.is_barrier
    accesses: dict[tuple[str, Location], list[_Access]] = {}
    for kernel in profiled:
        name = match_function(kernel, functions)
        if name is None:
            if problems is not None:
                problems.append(f"no disassembled function has the code of {kernel.name}")
            continue
        for instruction, row in zip(functions[name], kernel.rows, strict=False):
            if instruction.location is None:
                continue
            figures = lines[instruction.location]
            executed = _number(row, "Instructions Executed")
            figures.inst += executed
            figures.thr += _number(row, "Thread Instructions Executed")
            figures.pred += _number(row, "Predicated-On Thread Instructions Executed")
            figures.div += _number(row, "Divergent Branches")
            if instruction.base in BRANCH_OPCODES:
                figures.bra += executed
            for column, total, ideal, worst in ACCESS_COLUMNS:
                amount = _number(row, column)
                if amount:
                    best = _number(row, f"{column} Ideal")
                    setattr(figures, total, getattr(figures, total) + amount)
                    setattr(figures, ideal, getattr(figures, ideal) + best)
                    accesses.setdefault((worst, instruction.location), []).append(_Access(amount, best))
    for (worst, location), measured in accesses.items():
        setattr(lines[location], worst, _worst(measured))
    return lines


def _worst(accesses: list[_Access]) -> float:
    busiest = max(a.amount for a in accesses)
    ratios = [a.amount / a.ideal for a in accesses if a.ideal and a.amount >= SIGNIFICANT_SHARE * busiest]
    return round(max(ratios), 3) if ratios else 0.0


# ---------------------------------------------------------------------------- compute-sanitizer synccheck

SYNCCHECK_ERROR = re.compile(r"^=+ (?P<what>.*error detected.*)$")
SYNCCHECK_FRAME = re.compile(r"^=+\s+(?:at|Device Frame:) .*?\+0x[0-9a-f]+ in (?P<file>[^\s:]+):(?P<line>\d+)")
SYNCCHECK_SUMMARY = re.compile(r"ERROR SUMMARY:\s*(\d+)")


def synccheck_errors(log: str) -> list[list[tuple[str, int]]]:
    """The device frames of each error compute-sanitizer's synccheck printed, innermost
    first, as (file name as printed, line); the outer frames lead from an intrinsic in a
    toolkit header to the program's own line."""
    errors: list[list[tuple[str, int]]] = []
    for raw in log.splitlines():
        if SYNCCHECK_ERROR.match(raw):
            errors.append([])
            continue
        frame = SYNCCHECK_FRAME.match(raw)
        if frame and errors:
            errors[-1].append((frame.group("file"), int(frame.group("line"))))
    return errors


# ---------------------------------------------------------------------------- hazards and verdicts
#
# A rule class's verdict on a line is judged against what the hardware showed there.
# Each class has its own measured lines (where the hardware could have shown the hazard)
# and its hazard test; a finding on a line outside them is "unmeasured", not wrong.

CLASSES: dict[str, tuple[str, ...]] = {
    "global": ("CL101", "CL102"),
    "shared": ("CL201",),
    "divergence": ("CL301",),
    "barrier": ("CL302",),
    "fp64": ("CL401",),
    "local": ("CL502", "CL504"),
}
"""The static rules each class's verdicts judge."""
MEASURED_CODES: dict[str, str] = {
    "global": "CL091",
    "shared": "CL092",
    "divergence": "CL093",
    "fp64": "CL094",
    "local": "CL095",
}
"""The rule reporting a class's measured hazard where no static finding explains it
(``cudalint check --profile``); judged with the class's static rules."""
EXCESS_RATIO = 1.95
"""Global: sectors at least twice the ideal (efficiency <= 50%); shared: wavefronts at
least twice the ideal (a 2-way or worse bank conflict), for one significant access
instruction of the line. 1.95 rather than 2: a data-dependent gather that is 2x in
every warp but one measures 1.998x."""
DIVERGENT_SHARE = 0.05
"""A branch line diverges when at least this share of its branch executions diverged:
a loop's single ragged last round (one divergence per launch) stays below it."""
CHEAP_SHARE = 0.005
"""Divergence that leaves fewer idle lane slots than this share of all the lane slots its
function issued is cheap: measured, but not a hazard worth a finding."""
PREDICATED_ON_SHARE = 0.9
"""A branch body idles lanes when its predicated-on thread instructions fall below this
share of its active thread instructions (nvcc predicated the body instead of branching),
or when its active threads per instruction fall below this share of the branch line's."""


@dataclass(frozen=True)
class Branch:
    """A branch statement: its line (where a divergence finding is reported), the line
    ranges of its bodies (then/else, loop body, switch body) and its kind (if, for, ...)."""

    line: int
    bodies: tuple[tuple[int, int], ...]
    kind: str = "if"
    function: tuple[int, int] | None = None
    """The line range of the function holding the statement."""

    @property
    def body_lines(self) -> set[int]:
        return {n for start, end in self.bodies for n in range(start, end + 1)} - {self.line}


def branch_verdict(
    line: int,
    figures: dict[int, LineFigures],
    body: set[int],
    scope: set[int],
    total_slots: float,
    cheap_share: float = CHEAP_SHARE,
) -> bool | None:
    """Divergence on a line: None where the line never ran. True where its lanes went
    different ways and the lane slots left idle in the statement (its line and ``scope``,
    all lines it guards) are at least ``cheap_share`` of ``total_slots`` (the lane slots
    issued by its function): a one-lane ``if (threadIdx.x == 0)`` around a store, or a
    loop's ragged last round, diverges but costs next to nothing.

    Lanes went different ways where the line's branch instructions diverged; or, for an
    if/switch whose ``body`` lines are given (nested branch statements left out: their
    lanes are judged on their own lines), where the body ran predicated with lanes off
    (predicated-on below active thread instructions, relative to the line itself), or,
    when no branch instruction sits on the line (the compiler placed it elsewhere), where
    the body ran with fewer active lanes per instruction than the line."""
    own = figures.get(line)
    if own is None or not own.inst:
        return None
    rows = [figures[n] for n in body if n in figures]
    executed = sum(f.inst for f in rows)
    active = sum(f.thr for f in rows)
    predicated_on = sum(f.pred for f in rows)
    diverged = bool(own.div) and own.div >= DIVERGENT_SHARE * max(own.bra, own.div)
    if executed and active and own.thr:
        diverged |= predicated_on / active < PREDICATED_ON_SHARE * (own.pred / own.thr)
        if not own.bra:
            diverged |= active / executed < PREDICATED_ON_SHARE * (own.thr / own.inst)
    idle = sum(32 * figures[n].inst - figures[n].pred for n in scope | {line} if n in figures)
    return diverged and idle >= cheap_share * total_slots


def issued_slots(figures: Iterable[LineFigures]) -> float:
    """Lane slots issued: 32 per warp-level instruction executed."""
    return sum(32 * f.inst for f in figures)


def file_verdicts(
    figures: dict[int, LineFigures],
    branches: dict[int, Branch],
    barrier_errors: dict[int, int],
    synccheck_complete: bool,
    total_slots: float | None = None,
    cheap_share: float = CHEAP_SHARE,
) -> dict[str, dict[int, bool]]:
    """Class -> measured line -> whether the hardware showed the hazard there.
    ``total_slots``: the lane slots of the whole program (default: of this file)."""
    if total_slots is None:
        total_slots = issued_slots(figures.values())
    verdicts: dict[str, dict[int, bool]] = {name: {} for name in CLASSES}
    for line, f in figures.items():
        if f.gsec:
            verdicts["global"][line] = f.gworst >= EXCESS_RATIO
        if f.swf:
            verdicts["shared"][line] = f.sworst >= EXCESS_RATIO
        if f.sass:
            # Accidental fp64 is float data run through fp64 arithmetic: the line
            # promotes a float to double and computes in fp64. Code written in double
            # (converting its result to float at most) is not the hazard CL401 names.
            verdicts["fp64"][line] = f.fp64 > f.cvt64 > 0
            verdicts["local"][line] = f.local > 0
        if synccheck_complete and f.bar and f.inst:
            verdicts["barrier"][line] = barrier_errors.get(line, 0) > 0
    nested = {b.line: {b.line} | b.body_lines for b in branches.values()}
    for line in set(branches) | {n for n, f in figures.items() if f.div}:
        branch = branches.get(line)
        body: set[int] = set()
        scope: set[int] = set()
        slots = total_slots
        if branch is not None:
            scope = branch.body_lines
            if branch.kind in ("if", "switch"):
                # Loop bodies are left to the loop's own branch: nvcc predicates the
                # remainder of an unrolled loop, which idles all lanes of a warp together.
                body = scope - {n for inner, lines in nested.items() if inner != line and inner in scope for n in lines}
            if branch.function is not None:
                first, last = branch.function
                slots = issued_slots(f for n, f in figures.items() if first <= n <= last)
        verdict = branch_verdict(line, figures, body, scope, slots, cheap_share)
        if verdict is not None:
            verdicts["divergence"][line] = verdict
    for line, errors in barrier_errors.items():
        if errors:
            verdicts["barrier"][line] = True
    return verdicts


@dataclass(frozen=True)
class Finding:
    rule: str
    level: str
    file: str
    line: int
    message: str = ""


LEVEL_SETS = {"warning+error": ("warning", "error"), "all levels": ("note", "warning", "error")}


@dataclass
class Tally:
    true_positive: list[tuple[str, int]] = field(default_factory=list)
    false_positive: list[tuple[str, int, Finding]] = field(default_factory=list)
    false_negative: list[tuple[str, int]] = field(default_factory=list)
    unmeasured: list[tuple[str, int, Finding]] = field(default_factory=list)
    negatives: int = 0

    @property
    def precision(self) -> float | None:
        flagged = len(self.true_positive) + len(self.false_positive)
        return len(self.true_positive) / flagged if flagged else None

    @property
    def recall(self) -> float | None:
        actual = len(self.true_positive) + len(self.false_negative)
        return len(self.true_positive) / actual if actual else None

    def add(self, other: Tally) -> None:
        self.true_positive += other.true_positive
        self.false_positive += other.false_positive
        self.false_negative += other.false_negative
        self.unmeasured += other.unmeasured
        self.negatives += other.negatives


def tally(
    verdicts: dict[str, dict[tuple[str, int], bool]], findings: list[Finding], levels: tuple[str, ...]
) -> dict[str, Tally]:
    """Per class: each measured line is a true or false positive (a finding at one of
    ``levels`` on it), a miss, or a true negative; findings off the measured lines are
    unmeasured. Lines are (file, line) keys."""
    result = {name: Tally() for name in CLASSES}
    for name, static in CLASSES.items():
        codes = (*static, MEASURED_CODES[name]) if name in MEASURED_CODES else static
        flagged: dict[tuple[str, int], Finding] = {}
        for finding in findings:
            if finding.rule in codes and finding.level in levels:
                flagged.setdefault((finding.file, finding.line), finding)
        lines = verdicts.get(name, {})
        counts = result[name]
        for key, hazard in sorted(lines.items()):
            if key in flagged:
                (counts.true_positive.append(key) if hazard else counts.false_positive.append((*key, flagged[key])))
            elif hazard:
                counts.false_negative.append(key)
            else:
                counts.negatives += 1
        counts.unmeasured = [(*key, f) for key, f in sorted(flagged.items()) if key not in lines]
    return result


BRANCH_KINDS = ("if", "for", "while", "do", "switch")


def branch_statements(unit, name_of) -> dict[tuple[str, int], Branch]:
    """Every if/for/while/do/switch of a parsed translation unit's device code (cudalint's
    IR), by (file name, line); ``name_of`` turns a span's file into the name truth files
    use, or None to leave the statement out (code of toolkit headers)."""
    branches: dict[tuple[str, int], Branch] = {}
    for function in unit.device_functions():
        extent = (function.body.span.line, function.body.span.end_line)
        for statement in function.body.walk():
            if statement.kind.value not in BRANCH_KINDS:
                continue
            name = name_of(statement.span.file)
            if name is None:
                continue
            bodies = [s.span for s in statement.body] + ([statement.orelse.span] if statement.orelse else [])
            ranges = tuple((span.line, span.end_line) for span in bodies)
            branches.setdefault(
                (name, statement.span.line), Branch(statement.span.line, ranges, statement.kind.value, extent)
            )
    return branches

"""Measured figures joined with findings, line by line (``cudalint check --profile``).

For each source line the profile measured, each rule class (``source_lines.CLASSES``:
global, shared, divergence, fp64, local) has a verdict, the same one the real-code
benchmark scores cudalint against (``source_lines.file_verdicts``). A finding of a
class's rule on a line with a verdict is joined with it:

* a note the hardware confirms becomes a warning whose message starts with the measured
  figure (``measured 7.9x the ideal sectors; ...``) and keeps cudalint's explanation;
* a note the hardware refutes stays a note, marked ``measured: clean in this run``: hidden
  at the default ``min-level``, shown with ``--min-level note``;
* a warning or error the hardware contradicts is kept (the analysis may know a launch
  the run did not make) and marked ``measured: clean in this run``;
* a line where the hardware showed a class's hazard and no rule of the class has a
  finding, at any level, gets a finding of the class's measured rule (CL091 to CL095),
  level warning, with the figure and whatever cudalint derived for the line.

Findings on lines the run did not measure for their class (not executed, no access of
that kind there) are left as they are. Barrier findings (CL302) are never joined: their
verdict needs compute-sanitizer, not Nsight Compute. Every joined finding carries the
measured figures as a ``measured`` property (SARIF result properties, JSON output).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from cudalint import ir
from cudalint.diagnostics import Finding, Level
from cudalint.profile.measured import MeasuredLines
from cudalint.profile.source_lines import (
    CLASSES,
    COLUMNS,
    MEASURED_CODES,
    Branch,
    LineFigures,
    file_verdicts,
    issued_slots,
)

CLASS_OF = {code: name for name, codes in CLASSES.items() for code in codes if name in MEASURED_CODES}
"""Static rule -> the class whose verdict judges it (barrier findings are not joined)."""
CLEAN = "measured: clean in this run"


@dataclass
class LineFacts:
    """What the analysis knows of a file, for the join: its branch statements by line (a
    divergence verdict reads their bodies) and a description of what it derived for a
    class on a line (empty when nothing)."""

    branches: dict[int, Branch] = field(default_factory=dict)
    describe: Callable[[str, int], tuple[str, int]] = lambda name, line: ("", 1)
    suppressed: Callable[[Finding], bool] = lambda finding: False
    """Whether a suppression comment of the file silences a new finding."""


def measured_figure(name: str, f: LineFigures) -> str:
    """The figure behind a class's verdict on a line: ``7.9x the ideal sectors (...)``."""
    if name == "global":
        return f"{f.gworst:g}x the ideal sectors ({f.gsec:g} L2 sectors where {f.gideal:g} would do)"
    if name == "shared":
        return f"{f.sworst:g}x the ideal wavefronts ({f.swf:g} shared wavefronts where {f.sideal:g} would do)"
    if name == "divergence":
        return f"{f.div:g} of {f.bra:g} branch executions divergent" if f.bra else _lanes(f)
    if name == "fp64":
        return f"{f.fp64} fp64 instructions in the SASS, {f.cvt64} of them float-to-double conversions"
    if name == "local":
        return f"{f.local} local-memory instructions (LDL/STL) in the SASS"
    raise ValueError(name)


def _lanes(f: LineFigures) -> str:
    per_instruction = f.thr / f.inst if f.inst else 0
    return f"{per_instruction:.1f} active lanes per instruction"


def divergence_figure(line: int, figures: dict[int, LineFigures], branch: Branch | None, slots: float) -> str:
    """A branch statement's measured split: its divergent branch executions, how many of
    its body's active lanes were predicated on, and the lane slots idle in the statement
    as a share of those its function (or the program) issued."""
    own = figures[line]
    parts = [f"{own.div:g} of {own.bra:g} branch executions divergent"] if own.bra else []
    scope: set[int] = set()
    if branch is not None:
        scope = branch.body_lines
        active = sum(figures[n].thr for n in scope if n in figures)
        on = sum(figures[n].pred for n in scope if n in figures)
        executed = sum(figures[n].inst for n in scope if n in figures)
        if active:
            parts.append(f"{100 * on / active:.0f}% of its body's active lanes predicated on")
        if executed and own.inst and active / executed < own.thr / own.inst:
            parts.append(
                f"{active / executed:.1f} active lanes per instruction in its body, "
                f"{own.thr / own.inst:.1f} on its line"
            )
        if branch.function is not None:
            first, last = branch.function
            slots = issued_slots(f for n, f in figures.items() if first <= n <= last)
    idle = sum(32 * figures[n].inst - figures[n].pred for n in scope | {line} if n in figures)
    if slots:
        parts.append(f"{100 * idle / slots:.1f}% of the lane slots idle in the statement")
    return ", ".join(parts) or _lanes(own)


def measured_property(name: str, hazard: bool, f: LineFigures, lines: MeasuredLines) -> dict:
    return {
        "class": name,
        "hazard": hazard,
        "figures": dict(zip(COLUMNS, f.row(), strict=True)),
        "source": lines.provenance,
        "binary_sha256": lines.binary.get("sha256"),
    }


def _joined(finding: Finding, name: str, hazard: bool, f: LineFigures, figure: str, lines: MeasuredLines) -> Finding:
    if hazard:
        level = Level.WARNING if finding.level is Level.NOTE else finding.level
        message = f"measured {figure}; {finding.message}"
    elif finding.level is Level.NOTE:
        level, message = Level.NOTE, f"{CLEAN} ({figure}); {finding.message}"
    else:
        level, message = finding.level, f"{finding.message} ({CLEAN}: {figure})"
    properties = {**finding.properties, "measured": measured_property(name, hazard, f, lines)}
    return dataclasses.replace(finding, level=level, message=message, properties=properties)


def join_file(
    path: str,
    findings: list[Finding],
    figures: dict[int, LineFigures],
    lines: MeasuredLines,
    facts: LineFacts,
    enabled: set[str],
    total_slots: float | None = None,
) -> list[Finding]:
    """``findings`` of the file ``path`` joined with its measured ``figures`` (every level;
    the caller applies ``min-level`` afterwards). ``total_slots``: the lane slots the whole
    profiled program issued (default: ``lines``'s)."""
    if total_slots is None:
        total_slots = program_slots(lines)
    verdicts = file_verdicts(figures, facts.branches, {}, False, total_slots)

    def figure(name: str, line: int) -> str:
        if name == "divergence":
            return divergence_figure(line, figures, facts.branches.get(line), total_slots)
        return measured_figure(name, figures[line])

    joined: list[Finding] = []
    flagged: set[tuple[str, int]] = set()
    for finding in findings:
        name = CLASS_OF.get(finding.code)
        line = finding.span.line
        hazard = verdicts[name].get(line) if name is not None else None
        if name is not None:
            flagged.add((name, line))
        joined.append(
            finding if hazard is None else _joined(finding, name, hazard, figures[line], figure(name, line), lines)
        )
    for name, code in MEASURED_CODES.items():
        if code not in enabled:
            continue
        for line, hazard in sorted(verdicts[name].items()):
            if not hazard or (name, line) in flagged:
                continue
            finding = _measured_finding(path, code, name, line, figures[line], figure(name, line), lines, facts)
            if not facts.suppressed(finding):
                joined.append(finding)
    return sorted(joined, key=Finding.sort_key)


def _measured_finding(
    path: str, code: str, name: str, line: int, f: LineFigures, figure: str, lines: MeasuredLines, facts: LineFacts
) -> Finding:
    described, column = facts.describe(name, line)
    message = f"measured {figure}" + (
        f"; {described}" if described else "; cudalint derived nothing for this line that explains it"
    )
    return Finding(
        code,
        Level.WARNING,
        message,
        ir.Span(path, line, column, line, column),
        properties={"measured": measured_property(name, True, f, lines)},
    )


def program_slots(lines: MeasuredLines) -> float:
    """Lane slots issued by the whole profiled program: the base of a divergence's cost
    when its function's lines are not known."""
    return issued_slots(f for figures in lines.lines.values() for f in figures.values())

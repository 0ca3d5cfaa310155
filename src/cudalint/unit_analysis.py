"""One translation unit analyzed, as a worker process does it: parsed once, lowered and
reduced to facts under the unit's time limit, every enabled rule run on the facts; a file
that cannot be read, an internal error or the time limit become a notice, never the end of
the run. ``build_context`` says how the project builds the unit (architecture, register
cap, and ptxas's figures with ``--ptxas``)."""

from __future__ import annotations

import os
import time
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from cudalint import frontend, ir
from cudalint import units as planning
from cudalint.deadline import Deadline, TimeLimitReached
from cudalint.diagnostics import Finding, Notice, NoticeKind
from cudalint.launches import LaunchRecord
from cudalint.rules import RuleKind, of_kind
from cudalint.units import Unit, UnitResult

if TYPE_CHECKING:
    # The analysis itself is imported where a unit is analyzed (in the workers): a run whose
    # results all come from the cache does without it.
    from cudalint.dataflow import BuildContext, Facts
    from cudalint.engine import RunSettings


def analyze_unit(
    unit: Unit,
    environment: frontend.ParseEnvironment,
    settings: RunSettings,
    project: frontend.ProjectFiles | None = None,
    buffers: Mapping[str, bytes] | None = None,
    on_facts: Callable[[Facts], None] | None = None,
    external: tuple[LaunchRecord, ...] = (),
    launches_only: bool = False,
) -> UnitResult:
    """Parse ``unit.main`` once and analyze every project file's code it holds; ``buffers``
    are contents to use instead of the files on disk, ``on_facts`` is handed the unit's
    facts once its rules ran (what a caller keeps of them besides the findings), and
    ``external`` are launches of its kernels in other units of the run. ``launches_only``:
    read only the unit's launches (a file outside the run that launches its kernels)."""
    started = time.process_time()
    result = _analyze_unit(unit, environment, settings, project, buffers, on_facts, external, launches_only)
    result.seconds = time.process_time() - started
    return result


def _analyze_unit(
    unit: Unit,
    environment: frontend.ParseEnvironment,
    settings: RunSettings,
    project: frontend.ProjectFiles | None,
    buffers: Mapping[str, bytes] | None,
    on_facts: Callable[[Facts], None] | None,
    external: tuple[LaunchRecord, ...] = (),
    launches_only: bool = False,
) -> UnitResult:
    result = UnitResult(unit.main)
    try:
        parsed = frontend.parse_unit(
            unit.main,
            environment,
            include_dirs=unit.include_dirs,
            legacy_api=unit.legacy_api,
            project=project,
            buffers=buffers,
        )
    except frontend.SourceError as exc:
        result.notices.append(Notice(unit.main, NoticeKind.ERROR, str(exc)))
        return result
    except Exception as exc:  # noqa: BLE001 - one broken file must not end the run
        return _internal_error(result, exc)
    from cudalint.dataflow import Facts

    started = time.process_time()
    deadline = Deadline(settings.time_limit)
    try:
        with deadline:
            tu = parsed.lower(unit.own)
            result.errors, result.includes, result.analyzed = tu.errors, tu.includes, True
            if launches_only:
                from cudalint.dataflow.launches import launch_records

                result.launches = launch_records(tu)
                return result
            build = build_context(unit.main, environment, settings, result)
            facts = Facts(tu, build=build, external=external)
            result.files = planning.file_reports(tu, rule_findings(facts, settings), facts.kernels)
            result.launches = facts.launch_records
            result.kernels = tuple(
                dict.fromkeys(
                    (kernel.function.decl, kernel.function.name)
                    for kernel in facts.kernels
                    if kernel.function.kind is ir.FunctionKind.KERNEL and kernel.function.span.file in result.files
                )
            )
            result.notices.extend(_budget_notices(facts, result.files))
            if on_facts is not None:
                on_facts(facts)
    except TimeLimitReached as stop:
        return timed_out(result, parsed, settings, stop, time.process_time() - started)
    except frontend.SourceError as exc:
        result.notices.append(Notice(unit.main, NoticeKind.ERROR, str(exc)))
    except Exception as exc:  # noqa: BLE001
        if deadline.stopped is not None:
            # ctypes reports an exception raised while it converted an argument as its own.
            return timed_out(result, parsed, settings, deadline.stopped, time.process_time() - started)
        return _internal_error(result, exc)
    return result


def timed_out(
    result: UnitResult,
    parsed: frontend.ParsedUnit | None,
    settings: RunSettings,
    stop: TimeLimitReached,
    elapsed: float | None,
) -> UnitResult:
    result.files, result.timed_out, result.analyzed = {}, True, True
    if parsed is not None and not result.includes:
        # What the unit covers is known from its parse even when lowering did not finish.
        result.includes = parsed.included_files()
    after = f" after {elapsed:.1f} s" if elapsed is not None else ""
    result.notices.append(
        Notice(
            result.main,
            NoticeKind.INCOMPLETE,
            (
                f"time limit of {settings.time_limit:g} s reached{after} {stop.activity}: no findings for this file "
                "(the `time-limit` setting or --time-limit raises it)"
            ),
        )
    )
    return result


def _budget_notices(facts: Facts, files: dict[str, planning.FileReport]) -> list[Notice]:
    """One notice for each entry point of a project file whose analysis stopped at its budget."""
    return [
        Notice(
            kernel.function.span.file,
            NoticeKind.INCOMPLETE,
            f"the analysis of `{kernel.function.display_name}` stopped at line {kernel.cut.line} after "
            f"{kernel.cut.budget} steps, its budget for a function of its size: accesses, branches and "
            "barriers from there on are not checked",
            kernel.cut.line,
            1,
        )
        for kernel in facts.kernels
        if kernel.cut is not None and kernel.function.span.file in files
    ]


def rule_findings(facts: Facts, settings: RunSettings) -> list[Finding]:
    """Every enabled rule's findings, in every file of the unit (suppressions come later)."""
    findings = []
    for rule in of_kind(RuleKind.FACTS, settings.enabled):
        findings.extend(rule().check(facts))
    return findings


def _internal_error(result: UnitResult, exc: Exception) -> UnitResult:
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
    result.internal_error = True
    result.analyzed = False  # Its findings are lost: do not let the summary call it clean.
    result.files = {}
    result.notices.append(Notice(result.main, NoticeKind.ERROR, f"internal error: {type(exc).__name__}: {exc}{where}"))
    return result


def build_context(
    path: str, environment: frontend.ParseEnvironment, settings: RunSettings, result: UnitResult
) -> BuildContext:
    """How the project builds ``path``; with ``settings.nvcc``, also what ptxas makes of it
    (a failed compilation is noted and the source-level estimates stand)."""
    from cudalint import ptxas
    from cudalint.dataflow import BuildContext

    flags = environment.flags_for(os.path.abspath(path))
    arch = (
        flags.arch
        or (frontend.flags.parse_arch(settings.config.arch) if settings.config.arch else None)
        or environment.default_arch
    )
    max_registers = flags.max_registers or settings.config.max_registers
    if settings.nvcc is None:
        return BuildContext(arch, max_registers)
    try:
        compiled = ptxas.compile_resources(
            path, settings.nvcc, arch, (*environment.user_args, *flags.args), max_registers
        )
    except ptxas.CompileError as exc:
        result.notices.append(Notice(path, NoticeKind.INCOMPLETE, f"--ptxas: {exc}; register findings are estimates"))
        return BuildContext(arch, max_registers)
    return BuildContext(arch, max_registers, {kernel.label: kernel for kernel in compiled})

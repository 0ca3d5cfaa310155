"""A run's use of the result cache (``cudalint.cache``): which cached result answers a
translation unit (the same text, arguments and launches from other units, and no missing
header that the project search would now find), and which results are kept, with every
place a header the unit missed could appear and make it stale."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING

from cudalint import frontend
from cudalint.cache import ResultCache
from cudalint.launches import LaunchRecord, digest
from cudalint.units import Unit, UnitResult

if TYPE_CHECKING:
    from cudalint.engine import Run, RunSettings

_MISSING_HEADER = frontend.MISSING_HEADER


def open_cache(settings: RunSettings) -> ResultCache | None:
    return ResultCache(Path(settings.cache_dir), settings.fingerprint()) if settings.cache_dir else None


def _cache_arguments(
    unit: Unit, environment: frontend.ParseEnvironment, external: tuple[LaunchRecord, ...] = (), launches_only=False
) -> tuple[str, ...]:
    """What, besides its text, decides how a unit is parsed and analyzed: its arguments,
    the launches of other units it is analyzed with (their digest), and whether only its
    launches were read."""
    return (
        *environment.args_for(unit.main),
        *(f"-I{d}" for d in unit.include_dirs),
        f"--legacy-api={unit.legacy_api}",
        *(f"--own={path}" for path in unit.own),
        *((f"--launches-elsewhere={digest(external)}",) if external else ()),
        *(("--launches-only",) if launches_only else ()),
    )


def cached_result(
    unit: Unit, context: Run, cache: ResultCache, external: tuple[LaunchRecord, ...] = (), launches_only=False
) -> UnitResult | None:
    try:
        data = frontend.read_source(unit.main)
    except frontend.SourceError:
        return None  # The worker reports it.
    hit = cache.lookup(unit.main, data, _cache_arguments(unit, context.environment, external, launches_only))
    if hit is None or _found_in_project(hit, context.project):
        return None
    return dataclasses.replace(hit, seconds=0.0)


def _found_in_project(result: UnitResult, project: frontend.ProjectFiles | None) -> bool:
    """Whether a header the result was analyzed without is now in the project, where the
    search for project headers would find it (the cache checks the search path itself)."""
    if project is None:
        return False
    return any(
        project.directory_for(match.group(1), os.path.dirname(error.span.file)) is not None
        for error in result.errors
        if error.span is not None and (match := _MISSING_HEADER.fullmatch(error.message))
    )


def store(
    unit: Unit,
    context: Run,
    cache: ResultCache,
    result: UnitResult,
    started_ns: int,
    external: tuple[LaunchRecord, ...] = (),
    launches_only: bool = False,
) -> None:
    """Keep ``result``, of an analysis begun at ``started_ns``."""
    if not result.analyzed or result.internal_error:
        return  # Only results that a second run would reproduce are kept.
    try:
        data = frontend.read_source(unit.main)
    except frontend.SourceError:
        return
    arguments = _cache_arguments(unit, context.environment, external, launches_only)
    absent = _missing_header_candidates(result, arguments, context.environment)
    cache.store(unit.main, data, arguments, result.includes, result, absent=absent, since_ns=started_ns)


def _missing_header_candidates(
    result: UnitResult, arguments: tuple[str, ...], environment: frontend.ParseEnvironment
) -> tuple[str, ...]:
    """Every path where a header the unit includes and the parse did not find could appear
    and be found: the including file's directory, then each directory of the search path."""
    missing = [
        (match.group(1), error.span.file if error.span is not None else result.main)
        for error in result.errors
        if (match := _MISSING_HEADER.fullmatch(error.message))
    ]
    if not missing:
        return ()
    search = [*frontend.flags.include_search_path(arguments), *frontend.flags.system_include_dirs(environment)]
    candidates = {
        os.path.normpath(os.path.join(directory, name))
        for name, includer in missing
        for directory in (os.path.dirname(includer), *search)
    }
    return tuple(sorted(candidates))

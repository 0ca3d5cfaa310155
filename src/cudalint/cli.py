"""Command line: ``cudalint [check] PATH...``, ``cudalint facts FILE``, ``cudalint explain FILE:LINE[:COL]``
``cudalint rule CODE`` and ``cudalint profile -- ./app``.

Built on argparse: a run whose results are all cached takes a fraction of a second, and
the command line should not cost more than that to start.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cudalint import __version__

if TYPE_CHECKING:
    # Types only: each command imports what it uses when it runs.
    from cudalint.config import Config
    from cudalint.engine import RunSettings
    from cudalint.fixes import FixOutcome, FixSettings

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
COMMANDS = ("check", "facts", "explain", "rule", "server", "profile")
FORMATS = ("full", "concise", "json", "sarif", "github", "html")
COLORS = ("auto", "always", "never")
HEADER_CHOICES = ("auto", "toolkit", "embedded")
DESCRIPTION = "Static analysis of CUDA kernels: per-thread address analysis and GPU performance hazards."


class CommandFailed(Exception):
    """A usage or configuration problem: one line on standard error, exit code 2."""


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return value


def _non_negative_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is not a number of launches")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is not a number of seconds (0: no limit)")
    return value


def _choice(choices: tuple[str, ...]):
    """Case-insensitive choices (``--format SARIF``)."""

    def convert(text: str) -> str:
        if text.lower() not in choices:
            raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(choices)})")
        return text.lower()

    convert.__name__ = "choice"
    return convert


def _frontend_arguments(parser: argparse.ArgumentParser, help_for_headers: str) -> None:
    """Options shared by ``check`` and ``facts``: how files are parsed."""
    parser.add_argument(
        "--config",
        dest="config_file",
        type=Path,
        help="Configuration file (default: nearest cudalint.toml, .cudalint.toml or pyproject.toml [tool.cudalint]).",
    )
    parser.add_argument("--cuda-path", help="CUDA toolkit root for toolkit mode.")
    parser.add_argument("--headers", type=_choice(HEADER_CHOICES), default="auto", help=help_for_headers)
    parser.add_argument("--arch", help="GPU architecture for the device-side parse, e.g. sm_80 (capped at sm_90).")
    parser.add_argument(
        "--compile-commands", "-p", help="Build directory holding compile_commands.json, or the file itself."
    )
    parser.add_argument("--include-dir", "-I", dest="include_dirs", action="append", help="Add an include directory.")
    parser.add_argument("--define", "-D", dest="defines", action="append", help="Define a macro (NAME or NAME=VALUE).")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cudalint", description=DESCRIPTION)
    parser.add_argument(
        "--version", action="version", version=f"cudalint {__version__}", help="Show the version and exit."
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser(
        "check",
        help="Analyze CUDA sources and report performance hazards (the default).",
        description="Analyze CUDA sources and report performance hazards.",
    )
    check.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="Files or directories (CUDA sources and headers found recursively). Default: current directory.",
    )
    check.add_argument("--format", type=_choice(FORMATS), default="full", help=f"Output format: {', '.join(FORMATS)}.")
    check.add_argument("--output", "-o", type=Path, help="Write the report to this file instead of standard output.")
    check.add_argument(
        "--select",
        action="append",
        help="Rules to enable: codes (CL401), prefixes (CL4) or ALL. Replaces the configured selection, "
        "ignores included.",
    )
    check.add_argument("--extend-select", action="append", help="Rules to enable in addition to the configured set.")
    check.add_argument("--ignore", action="append", help="Rules to disable, in addition to the configured ignores.")
    check.add_argument(
        "--statistics",
        action="store_true",
        help="Print the number of findings per rule instead of the findings (JSON with --format json).",
    )
    check.add_argument(
        "--min-level",
        choices=("note", "warning", "error"),
        help="Report findings at this level and above (setting `min-level`, default warning; "
        "`note` adds the plausible but unproven findings).",
    )
    check.add_argument("--exit-zero", action="store_true", help="Exit with 0 even when there are findings.")
    check.add_argument(
        "--profile",
        type=Path,
        metavar="FILE",
        help="Join the figures of a measured-lines file (`cudalint profile`) with the findings, line by line "
        "(configuration `profile`).",
    )
    _fix_arguments(check)
    check.add_argument("--jobs", "-j", type=_positive_int, help="Worker processes (default: all cores).")
    check.add_argument(
        "--color", type=_choice(COLORS), default="auto", help="Colored output; auto respects NO_COLOR and FORCE_COLOR."
    )
    _frontend_arguments(check, "CUDA headers: the toolkit's, the embedded set, or auto (toolkit when found).")
    check.add_argument("--undefine", "-U", dest="undefines", action="append", help="Undefine a macro.")
    check.add_argument("--include", dest="pre_includes", action="append", help="Include this file before each source.")
    check.add_argument("--std", help="C++ standard, e.g. c++17.")
    check.add_argument("--exclude", action="append", help="Glob of paths to skip (added to the configured excludes).")
    check.add_argument(
        "--no-cache", action="store_true", help="Analyze every file again instead of reusing results of unchanged ones."
    )
    check.add_argument(
        "--cache-dir",
        type=Path,
        help="Where results are cached (default: .cudalint_cache beside the configuration, or CUDALINT_CACHE_DIR).",
    )
    check.add_argument(
        "--ptxas",
        dest="use_ptxas",
        action=argparse.BooleanOptionalAction,
        help="Compile each file with nvcc for ptxas's exact registers, stack and spills (configuration `ptxas`).",
    )
    check.add_argument(
        "--time-limit",
        type=_seconds,
        help="Processor seconds of analysis a file may take after its parse; 0: no limit (configuration "
        "`time-limit`, default 10).",
    )
    check.add_argument(
        "--project-includes",
        action=argparse.BooleanOptionalAction,
        help="Look inside the project for headers the include path misses (configuration `project-includes`).",
    )

    facts = commands.add_parser(
        "facts",
        help="Print what cudalint derives for each memory access, branch and barrier.",
        description="Print what cudalint derives for each memory access, branch and barrier: the facts behind its "
        "findings.",
    )
    facts.add_argument("file", type=Path, help="A CUDA source or header.")
    facts.add_argument("--kernel", help="Only this kernel or device function (name, or name<args>).")
    facts.add_argument("--format", type=_choice(("text", "json")), default="text", help="Output format: text or json.")
    facts.add_argument(
        "--included",
        action="store_true",
        help="Also the kernels of the headers and sources the file includes from under the current directory.",
    )
    facts.add_argument(
        "--ptxas",
        dest="use_ptxas",
        action=argparse.BooleanOptionalAction,
        help="Compile the file with nvcc for ptxas's exact registers and shared memory (configuration `ptxas`).",
    )
    _frontend_arguments(facts, "CUDA headers: toolkit, embedded or auto.")

    explain = commands.add_parser(
        "explain",
        help="Draw one warp at a memory access or branch: its lanes' bytes, banks or sides.",
        description="Draw one warp at the memory access or branch at FILE:LINE[:COL]: global lanes along sectors, "
        "shared lanes in banks (and with the padding CL201 proposes), the sides a branch splits lanes into.",
    )
    explain.add_argument("position", metavar="FILE:LINE[:COL]", help="Where the access or branch is.")
    explain.add_argument(
        "--format", type=_choice(("text", "svg", "json")), default="text", help="Output format: text, svg or json."
    )
    explain.add_argument("--color", type=_choice(COLORS), default="auto", help="Colored text; auto respects NO_COLOR.")
    _frontend_arguments(explain, "CUDA headers: toolkit, embedded or auto.")

    rule = commands.add_parser(
        "rule", help="Print a rule's documentation.", description="Print a rule's documentation."
    )
    rule.add_argument("code", nargs="?", help="Rule code, e.g. CL401.")
    rule.add_argument("--all", dest="all_rules", action="store_true", help="Print every rule's documentation.")

    profile = commands.add_parser(
        "profile",
        help="Measure a program's kernels per source line with Nsight Compute (for check --profile).",
        description="Run a program under Nsight Compute (SourceCounters, the first launch of each kernel), map its "
        "SASS to source lines with nvdisasm and write the measured figures per line: `cudalint profile -- ./app "
        "args`. Or read a report profiled elsewhere: `cudalint profile --import report.ncu-rep --binary ./app`.",
    )
    profile.add_argument("program", nargs=argparse.REMAINDER, help="The program and its arguments, after `--`.")
    profile.add_argument("--output", "-o", type=Path, help="Measured-lines file (default: <program>.measured.json).")
    profile.add_argument("--kernel", help="Only kernels whose name matches this regular expression.")
    profile.add_argument(
        "--launch-count",
        type=_positive_int,
        default=64,
        help="Profile at most this many launches (default 64; each is replayed once per counter pass).",
    )
    profile.add_argument(
        "--launch-skip",
        type=_non_negative_int,
        help="Profile every launch after the first N instead of the first launch of each kernel (a warm-up "
        "round before the measured one).",
    )
    profile.add_argument("--timeout", type=_seconds, default=0, help="Stop the program after this many seconds.")
    profile.add_argument(
        "--import",
        dest="import_path",
        type=Path,
        metavar="REPORT",
        help="Read an existing report (.ncu-rep, or its source page exported with `ncu --import R --page source "
        "--csv --print-source sass`) instead of running a program.",
    )
    profile.add_argument(
        "--binary", type=Path, help="The profiled program's binary, for its line table (default: the program run)."
    )
    profile.add_argument(
        "--disassembly", type=Path, help="`nvdisasm -gi` output of the profiled binary's cubins, instead of --binary."
    )
    profile.add_argument(
        "--keep-exports", type=Path, metavar="DIR", help="Keep ncu's exports and the disassembly here."
    )
    profile.add_argument("--ncu", help="Nsight Compute's command line tool (default: ncu on PATH or in the toolkit).")
    profile.add_argument("--nvdisasm", help="nvdisasm (default: on PATH or in the toolkit).")
    profile.add_argument("--cuobjdump", help="cuobjdump (default: on PATH or in the toolkit).")

    server = commands.add_parser(
        "server",
        help="Run the language server for editors (LSP over standard input and output).",
        description="Run the language server for editors (LSP over standard input and output).",
    )
    _frontend_arguments(server, "CUDA headers: toolkit, embedded or auto.")
    return parser


def _fix_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fix", action=argparse.BooleanOptionalAction, help="Apply the safe fixes (configuration `fix`)."
    )
    parser.add_argument(
        "--unsafe-fixes",
        action=argparse.BooleanOptionalAction,
        help="Count as available, and with --fix apply, the fixes that may change what the code computes "
        "(configuration `unsafe-fixes`).",
    )
    parser.add_argument(
        "--diff",
        action="store_true",
        help="Print a unified diff of what --fix would change and write nothing; exit 1 when there is a change.",
    )
    parser.add_argument(
        "--exit-non-zero-on-fix",
        action="store_true",
        help="With --fix, exit 1 when a fix was applied, even when no finding remains.",
    )


def _fix_settings(options: argparse.Namespace, config: Config) -> FixSettings | None:
    """How to fix, or None for a run that only reports."""
    from cudalint.fixes import FixSettings

    unsafe = config.unsafe_fixes if options.unsafe_fixes is None else options.unsafe_fixes
    if options.diff:
        return FixSettings(unsafe, write=False)
    if config.fix if options.fix is None else options.fix:
        return FixSettings(unsafe)
    return None


def _diff_command(outcome: FixOutcome, root: str, exit_zero: bool) -> int:
    """``--diff``: the changes on standard output, what they fix on standard error."""
    from cudalint.fixes import unified_diff
    from cudalint.report import display_path, notice_line

    sys.stdout.write(unified_diff(outcome.changes, lambda path: display_path(path, root)))
    for notice in outcome.result.notices:
        print(notice_line(notice, root), file=sys.stderr)
    fixes = f"{outcome.fixed} fix{'es' if outcome.fixed != 1 else ''}"
    print(
        f"Would apply {fixes} to {len(outcome.changes)} file{'s' if len(outcome.changes) != 1 else ''}.",
        file=sys.stderr,
    )
    if not any(r.analyzed for r in outcome.result.files):
        return EXIT_ERROR
    return EXIT_FINDINGS if outcome.changes and not exit_zero else EXIT_CLEAN


def _use_color(choice: str, stream) -> bool:
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def _frontend_options(base, options: argparse.Namespace, undefines=(), pre_includes=(), std=None):
    """The configured frontend options with the command line's on top."""
    from cudalint import frontend

    extra_args = [f"-U{u}" for u in undefines or []]
    for header in pre_includes or []:
        extra_args += ["-include", os.path.abspath(header)]
    if std:
        extra_args.append(f"-std={std.removeprefix('-std=')}")
    if options.arch:
        frontend.parse_arch(options.arch)
    return dataclasses.replace(
        base,
        header_mode=options.headers,
        extra_args=tuple(extra_args),
        cuda_path=options.cuda_path or base.cuda_path,
        arch=options.arch or base.arch,
        compile_commands=options.compile_commands or base.compile_commands,
        include_dirs=base.include_dirs + tuple(os.path.abspath(d) for d in options.include_dirs or []),
        defines=base.defines + tuple(options.defines or []),
    )


def _nvcc(cuda_path: str | None) -> str | None:
    from cudalint.ptxas import find_nvcc

    nvcc = find_nvcc(cuda_path)
    if nvcc is None:
        print(
            "cudalint: warning: --ptxas: nvcc not found (set cuda-path or put nvcc on PATH); "
            "register findings are estimates",
            file=sys.stderr,
        )
    return nvcc


def _enabled_codes(options: argparse.Namespace, config: Config) -> list[str]:
    """The configuration's selection adjusted by the command line's; a selector that selects
    nothing this version has is warned about."""
    from cudalint.config import enabled_rules, parse_selectors

    select, extend_select, ignore = options.select, options.extend_select, options.ignore
    configured = enabled_rules(config.select, config.extend_select, config.ignore)
    enabled = enabled_rules(
        parse_selectors(select, where="--select") if select is not None else None,
        parse_selectors(extend_select or [], where="--extend-select"),
        parse_selectors(ignore or [], where="--ignore"),
        inherited=configured,
    )
    for selector in (select or []) + (extend_select or []):
        for part in parse_selectors([selector], where="--select"):
            if part != "ALL" and not any(code.startswith(part) for code in enabled):
                print(f"cudalint: warning: {part} selects no rule available in cudalint {__version__}", file=sys.stderr)
    return enabled


def _run_settings(options: argparse.Namespace, config: Config, enabled: list[str]) -> RunSettings:
    """The engine's settings: the configuration's, overridden by the command line."""
    from cudalint import engine
    from cudalint.cache import default_cache_dir

    settings = engine.default_settings(config, enabled)
    settings.frontend = _frontend_options(
        settings.frontend, options, options.undefines, options.pre_includes, options.std
    )
    settings.jobs = options.jobs or os.cpu_count() or 1
    if options.time_limit is not None:
        settings.time_limit = options.time_limit or None
    if options.project_includes is not None:
        settings.project_includes = options.project_includes
    if config.ptxas if options.use_ptxas is None else options.use_ptxas:
        settings.nvcc = _nvcc(options.cuda_path or config.resolve(config.cuda_path))
    if not options.no_cache:
        settings.cache_dir = str(options.cache_dir.resolve() if options.cache_dir else default_cache_dir(config.root))
    # A live progress line only for a person watching a terminal, never in CI logs.
    settings.progress = sys.stderr.isatty() and not os.environ.get("CI")
    return settings


def check_command(options: argparse.Namespace) -> int:
    """Analyze CUDA sources and report performance hazards."""
    from cudalint import engine, frontend
    from cudalint.config import Config, ConfigError, find_config, load_config, parse_level
    from cudalint.report import ReportOptions, notice_line, render, repository_root

    paths = options.paths or ["."]
    try:
        config_path = options.config_file or find_config(Path(paths[0]) if Path(paths[0]).exists() else Path.cwd())
        config = load_config(config_path) if config_path else Config()
        settings = _run_settings(options, config, _enabled_codes(options, config))
        min_level = parse_level(options.min_level, "--min-level") if options.min_level else config.min_level
        excludes = config.exclude + list(options.exclude or [])
        fixing = _fix_settings(options, config)
        profile = _measured_lines(options.profile or config.resolve(config.profile))
        if fixing is None:
            result = engine.run(paths, settings, excludes)
        else:
            from cudalint.fixes import run_with_fixes

            # Every enabled rule's fixes apply, notes below --min-level included.
            files = engine.discover(paths, config, excludes)[0]
            outcome = run_with_fixes(files, lambda: engine.run(paths, settings, excludes), fixing)
            if options.diff:
                return _diff_command(outcome, os.getcwd(), options.exit_zero)
            result = outcome.result
        if profile is not None:
            result = _with_profile(result, profile, settings, config)
        result = result.at_least(min_level)
    except (ConfigError, frontend.FrontendConfigError) as exc:
        raise CommandFailed(str(exc)) from None

    # Code scanning and workflow annotations resolve paths against the repository root.
    root = repository_root() if options.format in ("sarif", "github") else os.getcwd()
    report_options = ReportOptions(
        color=options.format in ("full", "concise")
        and (options.color == "always" if options.output is not None else _use_color(options.color, sys.stdout)),
        statistics=options.statistics,
        root=root,
        unsafe_fixes=config.unsafe_fixes if options.unsafe_fixes is None else options.unsafe_fixes,
        figures=_finding_figures(result, settings, options, root) if options.format == "html" else None,
    )
    report = render(result, options.format, report_options)
    if options.output is None:
        sys.stdout.write(report)
        sys.stdout.flush()
    else:
        try:
            options.output.write_text(report, encoding="utf-8")
        except OSError as exc:
            raise CommandFailed(f"cannot write {options.output}: {exc.strerror or exc}") from None
        # The report went to a file; whoever runs the command still hears about bad input.
        for notice in result.notices:
            print(notice_line(notice, root), file=sys.stderr)

    if not result.files:
        if engine.discover(paths, config, config.exclude + list(options.exclude or []))[0]:
            print("cudalint: no file of the project includes the headers given; nothing to analyze", file=sys.stderr)
            return EXIT_CLEAN
        if engine.discover(paths, config, [])[0]:
            print("cudalint: every CUDA file given is excluded (`exclude` setting or --exclude)", file=sys.stderr)
            return EXIT_CLEAN
        raise CommandFailed(f"no CUDA sources or headers found in {' '.join(paths)}")
    # A file that failed (unreadable, or an internal error) has its own line above; the run
    # fails only when nothing at all could be analyzed.
    if not any(r.analyzed for r in result.files):
        return EXIT_ERROR
    if result.findings and not options.exit_zero:
        return EXIT_FINDINGS
    if result.fixed and options.exit_non_zero_on_fix and not options.exit_zero:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _measured_lines(path):
    """The measured-lines file at ``path`` (None: no profile given)."""
    if path is None:
        return None
    from cudalint.profile.measured import MeasuredFileError, read

    try:
        lines = read(Path(path))
    except MeasuredFileError as exc:
        raise CommandFailed(str(exc)) from None
    for problem in lines.problems:
        print(f"cudalint: note: {path}: {problem}", file=sys.stderr)
    return lines


def _with_profile(result, profile, settings: RunSettings, config: Config):
    """The run's findings (every level) joined with the measured figures, file by file."""
    from cudalint import frontend
    from cudalint.config import ignored_for_file, selector_matches
    from cudalint.profile.analysis import apply_profile

    environment = frontend.build_environment(settings.frontend, search_from=os.getcwd())

    def enabled_for(path: str) -> set[str]:
        ignores = ignored_for_file(config, path)
        return {code for code in settings.enabled if not any(selector_matches(s, code) for s in ignores)}

    joined = apply_profile(result, profile, lambda path: frontend.parse_file(path, environment), enabled_for)
    if not any(profile.figures_for(r.path) is not None for r in result.files if r.analyzed):
        print(
            f"cudalint: warning: the profile ({profile.binary.get('path', 'unknown binary')}) measured none of "
            "the files analyzed: was it built from these sources?",
            file=sys.stderr,
        )
    return joined


def _parse_one(file: Path, options: argparse.Namespace):
    """``file`` parsed and lowered with the configuration's and the command line's frontend options."""
    return _parse_with_build(file, options)[0]


def _parse_with_build(file: Path, options: argparse.Namespace, use_ptxas: bool | None = False):
    """``file`` parsed, and how the project builds it (``unit_analysis.build_context``): with
    ``use_ptxas`` (None: as configured), ptxas's figures for its kernels too."""
    from cudalint import engine, frontend
    from cudalint.config import Config, ConfigError, find_config, load_config
    from cudalint.unit_analysis import build_context
    from cudalint.units import UnitResult

    try:
        config_path = options.config_file or find_config(file if file.exists() else Path.cwd())
        config = load_config(config_path) if config_path else Config()
        settings = engine.default_settings(config)
        settings.frontend = _frontend_options(settings.frontend, options)
        environment = frontend.build_environment(settings.frontend, search_from=str(file.parent))
        tu = frontend.parse_file(str(file), environment)
    except (ConfigError, frontend.FrontendConfigError) as exc:
        raise CommandFailed(str(exc)) from None
    except frontend.SourceError as exc:
        raise CommandFailed(f"{file}: {exc}") from None
    if config.ptxas if use_ptxas is None else use_ptxas:
        settings.nvcc = _nvcc(options.cuda_path or config.resolve(config.cuda_path))
    compiled = frontend.compiled_file(str(file), environment)
    result = UnitResult(compiled)
    build = build_context(compiled, environment, settings, result)
    for notice in result.notices:
        print(notice.one_line(), file=sys.stderr)
    return tu, build


def _launches_beside(file: Path, tu, options: argparse.Namespace) -> tuple:
    """The launches of ``tu``'s kernels written in the CUDA sources beside ``file`` (where
    a kernel declared in a header is most often launched): each source that names one of
    them and launches anything is parsed for its launches."""
    from cudalint import frontend, ir
    from cudalint.dataflow.launches import launch_records

    kernels = {f.decl: f.name for f in tu.functions if f.kind is ir.FunctionKind.KERNEL and f.body is not None}
    names = {name.encode() for name in kernels.values()}
    found = []
    for path in sorted(frontend.sources_beside(os.path.abspath(file))):
        try:
            data = Path(path).read_bytes()
        except OSError:
            continue
        if not names or not any(name in data for name in names) or not (b"<<<" in data or b"cudaLaunch" in data):
            continue
        try:
            other = _parse_one(Path(path), options)
        except CommandFailed as exc:
            print(f"{path}: launches not read: {exc}", file=sys.stderr)
            continue
        found.extend(record for record in launch_records(other) if record.kernel in kernels)
    return tuple(found)


def facts_command(options: argparse.Namespace) -> int:
    """Print what cudalint derives for each memory access, branch and barrier: the facts behind its findings."""
    from cudalint.dataflow import Facts
    from cudalint.report.facts import render_facts_json, render_facts_text

    file: Path = options.file
    tu, build = _parse_with_build(file, options, options.use_ptxas)
    facts = Facts(tu, build=build, external=_launches_beside(file, tu, options))
    here = Path.cwd().resolve()
    kernels = [
        k
        for k in facts.kernels
        if k.function.in_main_file or (options.included and Path(k.function.span.file).resolve().is_relative_to(here))
    ]
    if options.kernel is not None:
        kernels = [
            k
            for k in kernels
            if options.kernel in (k.function.name, k.function.display_name, k.function.qualified_name)
        ]
        if not kernels:
            raise CommandFailed(f"no kernel or device function named {options.kernel!r} in {file}")
    root = os.getcwd()
    for error in tu.errors[:1]:
        print(f"{file}: analysis incomplete: {error.message}", file=sys.stderr)
    text = (
        render_facts_json(facts, kernels, root) if options.format == "json" else render_facts_text(facts, kernels, root)
    )
    sys.stdout.write(text)
    return EXIT_CLEAN


def explain_command(options: argparse.Namespace) -> int:
    """Draw one warp at the memory access or branch at FILE:LINE[:COL]."""
    from cudalint.dataflow import Facts
    from cudalint.explain import PositionError, explain, parse_position
    from cudalint.report import pictures

    try:
        position = parse_position(options.position)
        if not os.path.isfile(position.path):
            raise PositionError(f"{options.position}: no such file")
        tu = _parse_one(Path(position.path), options)
        for error in tu.errors[:1]:
            print(f"{options.position}: analysis incomplete: {error.message}", file=sys.stderr)
        figures = explain(Facts(tu), position, os.getcwd())
    except PositionError as exc:
        raise CommandFailed(str(exc)) from None
    if options.format == "json":
        sys.stdout.write(pictures.render_json(figures))
    elif options.format == "svg":
        sys.stdout.write(pictures.render_svg_document(figures))
    else:
        sys.stdout.write(pictures.render_text(figures, _use_color(options.color, sys.stdout)))
    return EXIT_CLEAN


def _finding_figures(result, settings: RunSettings, options: argparse.Namespace, root: str):
    """The pictures behind the run's memory and branch findings, for the HTML report."""
    from cudalint import frontend
    from cudalint.explain import finding_figures

    environment = frontend.build_environment(settings.frontend, search_from=os.getcwd())
    return finding_figures(result.findings, lambda path: frontend.parse_file(path, environment), root)


def rule_command(options: argparse.Namespace) -> int:
    """Print a rule's documentation."""
    from cudalint.rules import RULES, implemented

    if options.all_rules and options.code is not None:
        raise CommandFailed("give a rule code or --all, not both")
    if options.all_rules:
        sys.stdout.write("\n\n".join(_rule_page(RULES[code]) for code in implemented()))
        return EXIT_CLEAN
    if options.code is None:
        raise CommandFailed("give a rule code (e.g. `cudalint rule CL401`) or --all")
    code = options.code.upper()
    row = RULES.get(code)
    if row is None:
        raise CommandFailed(f"unknown rule {code}")
    if row.rule is None:
        raise CommandFailed(f"{code} ({row.name}) was removed; cudalint {__version__} no longer reports it")
    sys.stdout.write(_rule_page(row))
    return EXIT_CLEAN


def _rule_page(row) -> str:
    """A rule's documentation headed by its code, name, status and the first release that had it."""
    return f"# {row.code} {row.name}\n\nStatus: {row.status.value} · Since: {row.since}\n\n{row.rule.doc.markdown}"


def server_command(options: argparse.Namespace) -> int:
    """Serve an editor: diagnostics, fixes and facts as the file is edited."""
    from cudalint.server import serve

    return serve(options.config_file, lambda configured: _frontend_options(configured, options))


def profile_command(options: argparse.Namespace) -> int:
    """Measure a program per source line (imports nothing of the analyzer: it runs on GPU machines)."""
    from cudalint.profile.command import profile_command as measure

    return measure(options)


_HANDLERS = {
    "check": check_command,
    "facts": facts_command,
    "explain": explain_command,
    "rule": rule_command,
    "server": server_command,
    "profile": profile_command,
}


def run(argv: list[str]) -> int:
    """The exit code of ``cudalint ARGV...``. ``check`` is the default command: ``cudalint src/``."""
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help", "--version")):
        argv = ["check", *argv]
    options = _parser().parse_args(argv)
    try:
        return _HANDLERS[options.command](options)
    except CommandFailed as exc:
        print(f"cudalint: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as exc:  # noqa: BLE001 - exit code 1 means findings, never a crash
        print(f"cudalint: error: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return EXIT_ERROR


def main(argv: list[str] | None = None) -> None:
    try:
        sys.exit(run(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - never exit 1 (that means findings) on a crash
        print(f"cudalint: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(EXIT_ERROR)

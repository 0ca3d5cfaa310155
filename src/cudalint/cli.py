"""Command line: ``cudalint [check] PATH...`` and ``cudalint rule CODE``."""

from __future__ import annotations

import dataclasses
import functools
import os
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer.core import TyperGroup

from cudalint import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class _DefaultCheck(TyperGroup):
    """Runs ``check`` when the first argument is not a subcommand: ``cudalint src/``."""

    def parse_args(self, ctx, args):
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h", "--version")):
            args = ["check", *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=_DefaultCheck,
    add_completion=False,
    no_args_is_help=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Static analysis of CUDA kernels: per-thread address analysis and GPU performance hazards.",
)


class OutputFormat(str, Enum):
    full = "full"
    concise = "concise"
    json = "json"
    sarif = "sarif"
    github = "github"


class ColorChoice(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


class HeaderChoice(str, Enum):
    auto = "auto"
    toolkit = "toolkit"
    embedded = "embedded"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"cudalint {__version__}")
        raise typer.Exit(EXIT_CLEAN)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")] = False,
) -> None:
    """cudalint: find GPU performance hazards in CUDA source before the profiler does."""


def _fail(message: str) -> typer.Exit:
    typer.echo(f"cudalint: error: {message}", err=True)
    return typer.Exit(EXIT_ERROR)


def _guarded(command):
    """Turn any unexpected exception into exit code 2: exit code 1 means findings."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (typer.Exit, typer.Abort):
            raise
        except Exception as exc:  # noqa: BLE001
            raise _fail(f"internal error: {type(exc).__name__}: {exc}") from None

    return wrapper


def _use_color(choice: ColorChoice, stream) -> bool:
    if choice is ColorChoice.always:
        return True
    if choice is ColorChoice.never:
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def _frontend_options(base, headers, cuda_path, arch, compile_commands, include_dirs, defines, undefines,
                      pre_includes, std):
    """The configured frontend options with the command line's on top."""
    from cudalint import frontend

    extra_args = [f"-U{u}" for u in undefines or []]
    for header in pre_includes or []:
        extra_args += ["-include", os.path.abspath(header)]
    if std:
        extra_args.append(f"-std={std.removeprefix('-std=')}")
    if arch:
        frontend.parse_arch(arch)
    return dataclasses.replace(
        base,
        header_mode=headers.value,
        extra_args=tuple(extra_args),
        cuda_path=cuda_path or base.cuda_path,
        arch=arch or base.arch,
        compile_commands=compile_commands or base.compile_commands,
        include_dirs=base.include_dirs + tuple(os.path.abspath(d) for d in include_dirs or []),
        defines=base.defines + tuple(defines or []),
    )


def _nvcc(cuda_path: str | None) -> str | None:
    from cudalint.ptxas import find_nvcc

    nvcc = find_nvcc(cuda_path)
    if nvcc is None:
        typer.echo("cudalint: warning: --ptxas: nvcc not found (set cuda-path or put nvcc on PATH); "
                   "register findings are estimates", err=True)
    return nvcc


@app.command("check")
@_guarded
def check_command(
    paths: Annotated[Optional[list[str]], typer.Argument(help="Files or directories (.cu/.cuh found recursively). Default: current directory.")] = None,
    format: Annotated[OutputFormat, typer.Option("--format", help="Output format.", case_sensitive=False)] = OutputFormat.full,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write the report to this file instead of standard output.")] = None,
    select: Annotated[Optional[list[str]], typer.Option("--select", help="Rules to enable: codes (CL401), prefixes (CL4) or ALL. Replaces the configured selection, ignores included.")] = None,
    extend_select: Annotated[Optional[list[str]], typer.Option("--extend-select", help="Rules to enable in addition to the configured set.")] = None,
    ignore: Annotated[Optional[list[str]], typer.Option("--ignore", help="Rules to disable, in addition to the configured ignores.")] = None,
    statistics: Annotated[bool, typer.Option("--statistics", help="Print the number of findings per rule instead of the findings (JSON with --format json).")] = False,
    exit_zero: Annotated[bool, typer.Option("--exit-zero", help="Exit with 0 even when there are findings.")] = False,
    jobs: Annotated[Optional[int], typer.Option("--jobs", "-j", min=1, help="Worker processes (default: all cores).")] = None,
    color: Annotated[ColorChoice, typer.Option("--color", help="Colored output; auto respects NO_COLOR and FORCE_COLOR.", case_sensitive=False)] = ColorChoice.auto,
    config_file: Annotated[Optional[Path], typer.Option("--config", help="Configuration file (default: nearest cudalint.toml, .cudalint.toml or pyproject.toml [tool.cudalint]).")] = None,
    cuda_path: Annotated[Optional[str], typer.Option("--cuda-path", help="CUDA toolkit root for toolkit mode.")] = None,
    headers: Annotated[HeaderChoice, typer.Option("--headers", help="CUDA headers: the toolkit's, the embedded set, or auto (toolkit when found).", case_sensitive=False)] = HeaderChoice.auto,
    arch: Annotated[Optional[str], typer.Option("--arch", help="GPU architecture for the device-side parse, e.g. sm_80 (capped at sm_90).")] = None,
    compile_commands: Annotated[Optional[str], typer.Option("--compile-commands", "-p", help="Build directory holding compile_commands.json, or the file itself.")] = None,
    include_dirs: Annotated[Optional[list[str]], typer.Option("--include-dir", "-I", help="Add an include directory.")] = None,
    defines: Annotated[Optional[list[str]], typer.Option("--define", "-D", help="Define a macro (NAME or NAME=VALUE).")] = None,
    undefines: Annotated[Optional[list[str]], typer.Option("--undefine", "-U", help="Undefine a macro.")] = None,
    pre_includes: Annotated[Optional[list[str]], typer.Option("--include", help="Include this file before each source.")] = None,
    std: Annotated[Optional[str], typer.Option("--std", help="C++ standard, e.g. c++17.")] = None,
    exclude: Annotated[Optional[list[str]], typer.Option("--exclude", help="Glob of paths to skip (added to the configured excludes).")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Analyze every file again instead of reusing results of unchanged ones.")] = False,
    cache_dir: Annotated[Optional[Path], typer.Option("--cache-dir", help="Where results are cached (default: .cudalint_cache beside the configuration, or CUDALINT_CACHE_DIR).")] = None,
    use_ptxas: Annotated[Optional[bool], typer.Option("--ptxas/--no-ptxas", help="Compile each file with nvcc for ptxas's exact registers, stack and spills (configuration `ptxas`).")] = None,
    time_limit: Annotated[Optional[float], typer.Option("--time-limit", min=0, help="Seconds of analysis a file may take after its parse; 0: no limit (configuration `time-limit`, default 10).")] = None,
    project_includes: Annotated[Optional[bool], typer.Option("--project-includes/--no-project-includes", help="Look inside the project for headers the include path misses (configuration `project-includes`).")] = None,
) -> None:
    """Analyze CUDA sources and report performance hazards."""
    from cudalint import engine, frontend
    from cudalint.cache import CACHE_DIRECTORY_NAME
    from cudalint.config import Config, ConfigError, enabled_rules, find_config, load_config, parse_selectors
    from cudalint.report import ReportOptions, notice_line, render, repository_root

    paths = paths or ["."]
    try:
        config_path = config_file or find_config(Path(paths[0]) if Path(paths[0]).exists() else Path.cwd())
        config = load_config(config_path) if config_path else Config()
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
                    typer.echo(f"cudalint: warning: {part} selects no rule available in cudalint {__version__}", err=True)
        settings = engine.default_settings(config, enabled)
        settings.frontend = _frontend_options(
            settings.frontend, headers, cuda_path, arch, compile_commands, include_dirs, defines, undefines, pre_includes, std
        )
        settings.jobs = jobs or os.cpu_count() or 1
        if time_limit is not None:
            settings.time_limit = time_limit or None
        if project_includes is not None:
            settings.project_includes = project_includes
        if config.ptxas if use_ptxas is None else use_ptxas:
            settings.nvcc = _nvcc(cuda_path or config.resolve(config.cuda_path))
        if not no_cache:
            chosen = cache_dir or os.environ.get("CUDALINT_CACHE_DIR") or (config.root / CACHE_DIRECTORY_NAME)
            settings.cache_dir = str(Path(chosen).resolve())
        # A live progress line only for a person watching a terminal, never in CI logs.
        settings.progress = sys.stderr.isatty() and not os.environ.get("CI")
        result = engine.run(paths, settings, config.exclude + list(exclude or []))
    except (ConfigError, frontend.FrontendConfigError) as exc:
        raise _fail(str(exc)) from None

    # Code scanning and workflow annotations resolve paths against the repository root.
    root = repository_root() if format in (OutputFormat.sarif, OutputFormat.github) else os.getcwd()
    options = ReportOptions(
        color=format in (OutputFormat.full, OutputFormat.concise)
        and (color is ColorChoice.always if output is not None else _use_color(color, sys.stdout)),
        statistics=statistics,
        root=root,
    )
    report = render(result, format.value, options)
    if output is None:
        sys.stdout.write(report)
        sys.stdout.flush()
    else:
        try:
            output.write_text(report, encoding="utf-8")
        except OSError as exc:
            raise _fail(f"cannot write {output}: {exc.strerror or exc}") from None
        # The report went to a file; whoever runs the command still hears about bad input.
        for notice in result.notices:
            typer.echo(notice_line(notice, root), err=True)

    if not result.files:
        if engine.discover(paths, config, config.exclude + list(exclude or []))[0]:
            typer.echo("cudalint: no file of the project includes the headers given; nothing to analyze", err=True)
            raise typer.Exit(EXIT_CLEAN)
        if engine.discover(paths, config, [])[0]:
            typer.echo("cudalint: every CUDA file given is excluded (`exclude` setting or --exclude)", err=True)
            raise typer.Exit(EXIT_CLEAN)
        raise _fail(f"no CUDA sources or headers found in {' '.join(paths)}")
    # A file that failed (unreadable, or an internal error) has its own line above; the run
    # fails only when nothing at all could be analyzed.
    if not any(r.analyzed for r in result.files):
        raise typer.Exit(EXIT_ERROR)
    if result.findings and not exit_zero:
        raise typer.Exit(EXIT_FINDINGS)
    raise typer.Exit(EXIT_CLEAN)


class FactsFormat(str, Enum):
    text = "text"
    json = "json"


@app.command("facts")
@_guarded
def facts_command(
    file: Annotated[Path, typer.Argument(help="A .cu or .cuh file.")],
    kernel: Annotated[Optional[str], typer.Option("--kernel", help="Only this kernel or device function (name, or name<args>).")] = None,
    format: Annotated[FactsFormat, typer.Option("--format", help="Output format.", case_sensitive=False)] = FactsFormat.text,
    config_file: Annotated[Optional[Path], typer.Option("--config", help="Configuration file.")] = None,
    cuda_path: Annotated[Optional[str], typer.Option("--cuda-path", help="CUDA toolkit root for toolkit mode.")] = None,
    headers: Annotated[HeaderChoice, typer.Option("--headers", help="CUDA headers: toolkit, embedded or auto.", case_sensitive=False)] = HeaderChoice.auto,
    arch: Annotated[Optional[str], typer.Option("--arch", help="GPU architecture for the device-side parse.")] = None,
    compile_commands: Annotated[Optional[str], typer.Option("--compile-commands", "-p", help="Build directory holding compile_commands.json.")] = None,
    include_dirs: Annotated[Optional[list[str]], typer.Option("--include-dir", "-I", help="Add an include directory.")] = None,
    defines: Annotated[Optional[list[str]], typer.Option("--define", "-D", help="Define a macro.")] = None,
) -> None:
    """Print what cudalint derives for each memory access, branch and barrier: the facts behind its findings."""
    from cudalint import engine, frontend
    from cudalint.config import Config, ConfigError, find_config, load_config
    from cudalint.dataflow import Facts
    from cudalint.report.facts import render_facts_json, render_facts_text

    try:
        config_path = config_file or find_config(file if file.exists() else Path.cwd())
        config = load_config(config_path) if config_path else Config()
        options = _frontend_options(engine.default_settings(config).frontend, headers, cuda_path, arch,
                                    compile_commands, include_dirs, defines, None, None, None)
        environment = frontend.build_environment(options, search_from=str(file.parent))
        tu = frontend.parse_file(str(file), environment)
    except (ConfigError, frontend.FrontendConfigError) as exc:
        raise _fail(str(exc)) from None
    except frontend.SourceError as exc:
        raise _fail(f"{file}: {exc}") from None
    facts = Facts(tu)
    kernels = [k for k in facts.kernels if k.function.in_main_file]
    if kernel is not None:
        kernels = [k for k in kernels if kernel in (k.function.name, k.function.display_name, k.function.qualified_name)]
        if not kernels:
            raise _fail(f"no kernel or device function named {kernel!r} in {file}")
    root = os.getcwd()
    for error in tu.errors[:1]:
        typer.echo(f"{file}: analysis incomplete: {error.message}", err=True)
    typer.echo(render_facts_json(kernels, root) if format is FactsFormat.json else render_facts_text(facts, kernels, root), nl=False)


@app.command("rule")
@_guarded
def rule_command(
    code: Annotated[Optional[str], typer.Argument(help="Rule code, e.g. CL401.")] = None,
    all_rules: Annotated[bool, typer.Option("--all", help="Print every rule's documentation.")] = False,
) -> None:
    """Print a rule's documentation."""
    from cudalint.rules import CATALOG, REGISTRY

    if all_rules and code is not None:
        raise _fail("give a rule code or --all, not both")
    if all_rules:
        typer.echo("\n\n".join(f"# {r.code} {r.name}\n\n{r.doc.markdown}" for r in REGISTRY.values()), nl=False)
        return
    if code is None:
        raise _fail("give a rule code (e.g. `cudalint rule CL401`) or --all")
    code = code.upper()
    rule = REGISTRY.get(code)
    if rule is None:
        if code in CATALOG:
            raise _fail(f"{code} ({CATALOG[code]}) is reserved for a rule not implemented in cudalint {__version__}")
        raise _fail(f"unknown rule {code}")
    typer.echo(f"# {rule.code} {rule.name}\n\n{rule.doc.markdown}", nl=False)


def main() -> None:
    try:
        app(prog_name="cudalint")
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # noqa: BLE001 - never exit 1 (that means findings) on a crash
        print(f"cudalint: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(EXIT_ERROR)

from __future__ import annotations

import contextlib
import difflib
import importlib.util
import io
import json
import os
import re
import sys
import tempfile
import textwrap
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from cudalint import engine, frontend, ir
from cudalint.config import Config
from cudalint.dataflow import BuildContext, Facts
from cudalint.rules import implemented

CORPUS = Path(__file__).parent / "corpus"
ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE_SNAPSHOTS = bool(os.environ.get("CUDALINT_UPDATE_SNAPSHOTS"))


def pytest_configure(config):
    # Results cached by an earlier build of the code under test must never answer for it.
    os.environ["CUDALINT_CACHE_DIR"] = tempfile.mkdtemp(prefix="cudalint-test-cache-")
    # The frontend raises the limit for deeply nested source; raise it once up front so that
    # tests that reset it between examples (hypothesis) do not warn.
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))


def load_script(name: str):
    """A script of scripts/ as a module (they are run as programs, not installed)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class CliResult:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        """What a terminal would show: both streams."""
        return self.stdout + self.stderr


def run_cli(*args, env: dict[str, str | None] | None = None) -> CliResult:
    """``cudalint ARGS...`` in this process, with its output captured; ``env`` sets
    variables for the call (None removes one)."""
    from cudalint import cli

    stdout, stderr = io.StringIO(), io.StringIO()
    saved = dict(os.environ)
    try:
        for name, value in (env or {}).items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                cli.main([str(arg) for arg in args])
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return CliResult(code, stdout.getvalue(), stderr.getvalue())


def toolkit_available() -> bool:
    try:
        return frontend.flags.find_toolkit(None) is not None
    except frontend.FrontendConfigError:
        return False


HEADER_MODES = ["embedded"] + (["toolkit"] if toolkit_available() else [])


@dataclass(frozen=True, order=True)
class Expected:
    line: int
    code: str
    level: str


def markers(path: Path):
    """The corpus markers of a file (``scripts/corpus_markers.py``: ``// expect:``,
    ``// expect-miss:``, ``// known false positive:``), in line order."""
    return load_script("corpus_markers").file_markers(path)


def expectations(path: Path) -> Counter[Expected]:
    """The findings a file's markers say cudalint makes, each on its line, as a multiset: a
    line with two findings of one code and level names it twice (``// expect: CL401
    warning[, CL101 note]``; a ``// known false positive:`` names a finding made too)."""
    return Counter(Expected(m.line, m.code, m.level) for m in markers(path) if m.reported)


def as_expectations(findings) -> Counter[Expected]:
    """What ``expectations`` would have to say for ``findings``."""
    return Counter(Expected(f.span.line, f.code, f.level.value) for f in findings)


def case_files(path: Path) -> list[Path]:
    """A corpus file and the corpus headers it includes (whose kernels it provides with
    types, macros and launches)."""
    return [path, *load_script("measure_gpu").corpus_headers(path)]


def case_expectations(path: Path) -> Counter[tuple[str, Expected]]:
    """``expectations`` of a corpus file and of the corpus headers it includes, each keyed
    by the file's name."""
    return Counter({(file.name, e): n for file in case_files(path) for e, n in expectations(file).items()})


def as_case_expectations(findings) -> Counter[tuple[str, Expected]]:
    """What ``case_expectations`` would have to say for ``findings``."""
    return Counter((Path(f.span.file).name, Expected(f.span.line, f.code, f.level.value)) for f in findings)


_BUILD = re.compile(r"^// build: -maxrregcount=(\d+)")


def build_config(path: Path | str) -> Config:
    """A corpus file's ``// build: -maxrregcount=N`` first line, as configuration."""
    with open(path, encoding="utf-8", errors="replace") as source:
        match = _BUILD.match(source.readline())
    return Config(max_registers=int(match.group(1))) if match else Config()


def analyze(
    path: Path | str,
    header_mode: str = "embedded",
    select: list[str] | None = None,
    config: Config | None = None,
    nvcc: str | None = None,
):
    config = config or build_config(path)
    settings = engine.default_settings(config, select or list(implemented()), header_mode=header_mode)
    settings.nvcc = nvcc
    environment = frontend.build_environment(settings.frontend, search_from=str(path))
    return engine.analyze_file(os.path.abspath(path), environment, settings)


def _analyze_case(path: Path, header_mode: str) -> engine.FileResult:
    """A corpus file as one result; with the corpus headers it includes named in the same
    run, so that their kernels' findings are reported at the headers' lines."""
    headers = load_script("measure_gpu").corpus_headers(path)
    if not headers:
        return analyze(path, header_mode)
    settings = engine.default_settings(build_config(path), list(implemented()), header_mode=header_mode)
    run = engine.run([str(path), *map(str, headers)], settings, exclude=[])
    return engine.FileResult(str(path), run.findings, run.notices, all(result.analyzed for result in run.files))


class Snippets:
    """CUDA source a test writes, parsed, reduced to facts or analyzed as cudalint does it.

    Each snippet gets a directory of its own, so that names may repeat and no snippet is
    taken for another's includer; its text is dedented and leading blank lines dropped, so
    line 1 is its first line of code."""

    def __init__(self, directory: Path):
        self.directory = directory
        self._environments: dict[str, frontend.ParseEnvironment] = {}
        self._written = 0

    def write(self, source: str | bytes, name: str = "case.cu") -> Path:
        self._written += 1
        path = self.directory / str(self._written) / name
        path.parent.mkdir(parents=True)
        if isinstance(source, bytes):
            path.write_bytes(source)
        else:
            path.write_text(textwrap.dedent(source).lstrip("\n"), encoding="utf-8")
        return path

    def environment(self, header_mode: str = "embedded") -> frontend.ParseEnvironment:
        if header_mode not in self._environments:
            options = frontend.FrontendOptions(header_mode=header_mode)
            self._environments[header_mode] = frontend.build_environment(options)
        return self._environments[header_mode]

    def unit(
        self, source: str, name: str = "case.cu", header_mode: str = "embedded", errors: bool = False
    ) -> ir.TranslationUnit:
        """The snippet parsed and lowered; parse errors fail the test unless ``errors``."""
        tu = frontend.parse_file(str(self.write(source, name)), self.environment(header_mode))
        assert errors or not tu.errors, [e.message for e in tu.errors]
        return tu

    def facts(self, source: str, name: str = "case.cu", build: BuildContext | None = None) -> Facts:
        return Facts(self.unit(source, name), build=build)

    def findings(self, source: str, select: list[str] | None = None, name: str = "case.cu"):
        """The snippet's findings through the engine, as ``cudalint`` reports them; no notices allowed."""
        result = analyze(self.write(source, name), "embedded", select=select)
        assert result.analyzed and not result.notices, [n.one_line() for n in result.notices]
        return result.findings


@pytest.fixture(scope="session")
def snippets(tmp_path_factory) -> Snippets:
    return Snippets(tmp_path_factory.mktemp("snippets"))


class CorpusResults:
    """Every corpus file analyzed with every rule on, and parsed for the tests that read its
    facts, once per header mode for the whole session, however many tests read it."""

    def __init__(self, snippets: Snippets):
        self._snippets = snippets
        self._results: dict[tuple[Path, str], engine.FileResult] = {}
        self._units: dict[tuple[Path, str], ir.TranslationUnit] = {}

    def __call__(self, path: Path, header_mode: str = "embedded") -> engine.FileResult:
        key = (Path(path).resolve(), header_mode)
        if key not in self._results:
            self._results[key] = _analyze_case(key[0], header_mode)
        return self._results[key]

    def unit(self, path: Path, header_mode: str = "embedded") -> ir.TranslationUnit:
        """The file parsed and lowered, as the dataflow tests take it."""
        key = (Path(path).resolve(), header_mode)
        if key not in self._units:
            self._units[key] = frontend.parse_file(str(key[0]), self._snippets.environment(header_mode))
        return self._units[key]


@pytest.fixture(scope="session")
def corpus_results(snippets) -> CorpusResults:
    return CorpusResults(snippets)


def render_findings(findings, root: Path, case: Path | None = None) -> str:
    """Findings as a snapshot holds them: every field a user sees, one finding a paragraph;
    a finding outside ``case`` (in a header it includes) names its file."""
    blocks = []
    for finding in findings:
        span = finding.span
        elsewhere = case is not None and os.path.realpath(span.file) != os.path.realpath(case)
        lines = [
            (f"{os.path.relpath(span.file, root)}:" if elsewhere else "")
            + f"{span.line}:{span.column}-{span.end_line}:{span.end_column} {finding.code} {finding.level.value}"
            + (f" in {finding.function}" if finding.function else ""),
            f"  {finding.message}",
        ]
        if span.spelling is not None:
            lines.append(f"  expanded from {os.path.relpath(span.spelling.file, root)}:{span.spelling.line}")
        if finding.properties:
            lines.append(f"  properties: {json.dumps(finding.properties, sort_keys=True)}")
        if finding.fix is not None:
            lines.append(f"  {finding.fix.safety.value} fix: {finding.fix.description}")
            lines += [
                f"    {e.span.line}:{e.span.column}-{e.span.end_line}:{e.span.end_column} -> {e.replacement!r}"
                for e in finding.fix.edits
            ]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n" if blocks else ""


def check_snapshot(snapshot: Path, rendered: str) -> None:
    """``rendered`` must equal the stored ``snapshot``; with CUDALINT_UPDATE_SNAPSHOTS=1 it is stored first."""
    if UPDATE_SNAPSHOTS:
        snapshot.parent.mkdir(parents=True, exist_ok=True)
        snapshot.write_text(rendered, encoding="utf-8")
    assert snapshot.is_file(), f"no snapshot {snapshot.relative_to(ROOT)}; set CUDALINT_UPDATE_SNAPSHOTS=1"
    stored = snapshot.read_text(encoding="utf-8")
    assert rendered == stored, (
        f"{snapshot.relative_to(ROOT)} differs (CUDALINT_UPDATE_SNAPSHOTS=1 rewrites it, "
        f"review the diff):\n{_diff(stored, rendered)}"
    )


def _diff(stored: str, rendered: str) -> str:
    return "\n".join(difflib.unified_diff(stored.splitlines(), rendered.splitlines(), "stored", "now", lineterm=""))


@pytest.fixture(params=HEADER_MODES)
def header_mode(request) -> str:
    return request.param

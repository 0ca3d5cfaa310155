from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from cudalint import engine, frontend
from cudalint.config import Config
from cudalint.rules import REGISTRY

CORPUS = Path(__file__).parent / "corpus"
SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"
EXPECT = re.compile(r"//.*?\bexpect:\s*(.+?)\s*$")
EXPECT_ITEM = re.compile(r"(CL\d{3})\s+(error|warning|note)")


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


@dataclass(frozen=True)
class Expected:
    line: int
    code: str
    level: str


def expectations(path: Path) -> set[Expected]:
    """``// expect: CL401 warning[, CL101 note]`` on the line the finding belongs to."""
    found = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = EXPECT.search(line)
        if match:
            for code, level in EXPECT_ITEM.findall(match.group(1)):
                found.add(Expected(number, code, level))
    return found


_BUILD = re.compile(r"^// build: -maxrregcount=(\d+)")


def build_config(path: Path | str) -> Config:
    """A corpus file's ``// build: -maxrregcount=N`` first line, as configuration."""
    with open(path, encoding="utf-8", errors="replace") as source:
        match = _BUILD.match(source.readline())
    return Config(max_registers=int(match.group(1))) if match else Config()


def analyze(path: Path | str, header_mode: str = "embedded", select: list[str] | None = None, config: Config | None = None,
            nvcc: str | None = None):
    config = config or build_config(path)
    settings = engine.default_settings(config, select or list(REGISTRY), header_mode=header_mode)
    settings.nvcc = nvcc
    environment = frontend.build_environment(settings.frontend, search_from=str(path))
    return engine.analyze_file(os.path.abspath(path), environment, settings)


@pytest.fixture(params=HEADER_MODES)
def header_mode(request) -> str:
    return request.param

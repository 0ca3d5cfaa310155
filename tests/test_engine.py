"""Run-level behaviour: discovery, worker isolation, deterministic order."""

from __future__ import annotations

import json
import os
import sys
import time

from cudalint import cli, engine
from cudalint.config import Config
from cudalint.diagnostics import NoticeKind
from cudalint.progress import Progress

KERNEL = "__global__ void k{n}(float* a) {{ a[threadIdx.x] = a[threadIdx.x] * 0.1; }}\n"


def _tree(tmp_path, count=6):
    for n in range(count):
        (tmp_path / f"k{n}.cu").write_text(KERNEL.format(n=n))
    return tmp_path


def _run(paths, jobs, exclude=()):
    settings = engine.default_settings(Config(), header_mode="embedded")
    settings.jobs = jobs
    return engine.run([str(p) for p in paths], settings, list(exclude))


def test_output_order_does_not_depend_on_jobs(tmp_path):
    _tree(tmp_path)
    serial = _run([tmp_path], jobs=1)
    parallel = _run([tmp_path], jobs=4)
    assert [(f.path, f.span.line, f.message) for f in serial.findings] == [
        (f.path, f.span.line, f.message) for f in parallel.findings
    ]
    assert len(serial.findings) == 6


def test_a_parser_crash_costs_only_that_file(tmp_path, monkeypatch):
    _tree(tmp_path, count=3)
    (tmp_path / "crash.cu").write_text(KERNEL.format(n=9))
    original = engine.analyze_unit

    def crashing(unit, environment, settings, project=None, **options):
        if unit.main.endswith("crash.cu"):
            os._exit(134)  # dies like a libclang abort, without a core dump in the test output
        return original(unit, environment, settings, project, **options)

    # Workers are forked, so they inherit the patched function.
    monkeypatch.setattr(engine, "analyze_unit", crashing)
    result = _run([tmp_path], jobs=2)
    crashed = [r for r in result.files if r.path.endswith("crash.cu")]
    assert crashed and crashed[0].internal_error
    assert "crashed" in crashed[0].notices[0].message
    assert sum(1 for r in result.files if r.analyzed) == 3


def test_a_worker_dying_while_units_are_handed_out_costs_no_unit(tmp_path, monkeypatch):
    """A pool a crashed worker broke refuses the units not yet submitted; they run alone."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    _tree(tmp_path, count=4)
    original = ProcessPoolExecutor.submit
    submitted = []

    def breaking(pool, *args, **kwargs):
        if pool._max_workers > 1 and len(submitted) == 2:
            raise BrokenProcessPool("a child process terminated abruptly")
        submitted.append(args)
        return original(pool, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", breaking)
    result = _run([tmp_path], jobs=2)
    assert len(result.files) == 4
    assert all(r.analyzed and not r.internal_error for r in result.files)


def test_discovery_recurses_excludes_and_reports_missing_paths(tmp_path):
    (tmp_path / "src" / "deep").mkdir(parents=True)
    (tmp_path / "src" / "deep" / "a.cuh").write_text("__device__ float f(float x) { return x; }\n")
    (tmp_path / "src" / "b.cu").write_text("__global__ void b() {}\n")
    (tmp_path / "src" / "notes.txt").write_text("not cuda")
    (tmp_path / "third_party").mkdir()
    (tmp_path / "third_party" / "c.cu").write_text("__global__ void c() {}\n")
    config = Config(path=tmp_path / "cudalint.toml")
    files, notices = engine.discover([str(tmp_path), str(tmp_path / "missing.cu")], config, ["third_party"])
    assert [os.path.relpath(f, tmp_path) for f in files] == ["src/b.cu", "src/deep/a.cuh"]
    assert [(n.kind, n.message) for n in notices] == [(NoticeKind.ERROR, "no such file or directory")]


def test_symlink_loops_do_not_hang_discovery(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "k.cu").write_text("__global__ void k() {}\n")
    os.symlink(tmp_path, tmp_path / "a" / "loop")
    files, _ = engine.discover([str(tmp_path)], Config(), [])
    assert [os.path.basename(f) for f in files] == ["k.cu"]


def test_progress_line_only_when_asked(tmp_path, capsys):
    _tree(tmp_path, count=3)
    settings = engine.default_settings(Config(), header_mode="embedded")
    settings.progress = True
    engine.run([str(tmp_path)], settings, [])
    assert "cudalint: 3/3 files" in capsys.readouterr().err
    settings.progress = False
    engine.run([str(tmp_path)], settings, [])
    assert capsys.readouterr().err == ""


def test_a_long_run_shows_its_time_even_for_one_file(tmp_path, capsys, monkeypatch):
    """A single template-heavy unit can take minutes: after ``DELAY`` the line ticks with
    the time taken, and it is wiped when the run ends."""
    monkeypatch.setattr(Progress, "DELAY", 0.05)
    monkeypatch.setattr(Progress, "INTERVAL", 0.05)
    progress = Progress(1, enabled=True, already=0)
    time.sleep(0.3)
    progress.advance()
    progress.finish()
    err = capsys.readouterr().err
    assert "\rcudalint: 0/1 files, 0 s" in err
    assert err.endswith("\r") and err.rsplit("\r", 2)[-2].strip() == ""
    quiet = Progress(1, enabled=False, already=0)
    time.sleep(0.2)
    quiet.finish()
    assert capsys.readouterr().err == ""


def test_a_short_run_shows_no_time(capsys):
    progress = Progress(3, enabled=True, already=0)
    progress.advance()
    progress.finish()
    err = capsys.readouterr().err
    assert "cudalint: 1/3 files" in err and " s" not in err


def test_progress_stays_off_standard_output(tmp_path, capsys, monkeypatch):
    """On a terminal the line goes to standard error; a SARIF report on standard output
    stays valid JSON."""
    monkeypatch.setattr(Progress, "DELAY", 0.0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.delenv("CI", raising=False)
    _tree(tmp_path, count=2)
    cli.run(["check", str(tmp_path), "--headers", "embedded", "--format", "sarif", "--no-cache", "--exit-zero"])
    captured = capsys.readouterr()
    assert "cudalint: 2/2 files" in captured.err
    assert json.loads(captured.out)["runs"]

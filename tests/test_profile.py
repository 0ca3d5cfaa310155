"""``cudalint profile`` and ``cudalint check --profile``: measured-lines files, the join of
measured figures with findings, and the profile command's paths that need no GPU (an
imported CSV export with its disassembly, a stand-in for ncu replaying a recorded export).
Recorded exports of corpus drivers (tests/fixtures/profile) come from an H200 run of the
command; everything here runs offline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import ROOT, run_cli
from cudalint import ir
from cudalint.diagnostics import Finding, Level
from cudalint.profile import analysis, join, measured
from cudalint.profile.source_lines import COLUMNS, LineFigures

FIXTURES = Path(__file__).parent / "fixtures" / "profile"


def _figures(**values) -> LineFigures:
    return LineFigures(**values)


def _lines(path: str, figures: dict[int, LineFigures]) -> measured.MeasuredLines:
    return measured.MeasuredLines(
        binary={"path": "/build/app", "size": 1, "sha256": "ab"},
        gpu="NVIDIA H200",
        ncu="2025.3.1.0",
        lines={path: figures},
    )


# ---------------------------------------------------------------------------- measured-lines files


def test_measured_lines_file_round_trips_with_one_line_per_source_line(tmp_path):
    lines = _lines("/src/k.cu", {12: _figures(sass=3, inst=64, gsec=512, gideal=128, gworst=4.0)})
    text = lines.to_json()
    assert '      "12": [3, 64, 0, 0, 0, 0, 512, 128, 4, 0, 0, 0, 0, 0, 0, 0]' in text.splitlines()
    path = tmp_path / "app.measured.json"
    path.write_text(text)
    again = measured.read(path)
    assert again.lines == lines.lines and again.binary == lines.binary
    assert again.provenance == "ncu 2025.3.1.0, NVIDIA H200"
    assert json.loads(text)["columns"] == list(COLUMNS)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{", "not JSON"),
        ('{"format": "sarif"}', "not a measured-lines file"),
        ('{"format": "cudalint-measured-lines", "version": 9}', "version 9"),
        (
            '{"format": "cudalint-measured-lines", "version": 1, "columns": ["sass"], "lines": {"k.cu": {"x": [1]}}}',
            "malformed lines",
        ),
        ('{"format": "cudalint-measured-lines", "version": 1, "columns": ["nope"], "lines": {}}', "unknown columns"),
    ],
)
def test_a_bad_measured_lines_file_is_one_line(tmp_path, text, says):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(measured.MeasuredFileError, match=says):
        measured.read(path)


def test_files_match_by_path_or_by_the_longest_shared_tail():
    lines = measured.MeasuredLines(
        lines={
            "/build/src/kernels/a.cu": {1: _figures(sass=1)},
            "/build/src/other/a.cu": {2: _figures(sass=1)},
            "/build/src/kernels/b.cu": {3: _figures(sass=1)},
        }
    )
    assert lines.figures_for("/build/src/kernels/a.cu") == {1: _figures(sass=1)}
    assert lines.figures_for("/home/me/project/src/kernels/a.cu") == {1: _figures(sass=1)}
    assert lines.figures_for("/home/me/b.cu") == {3: _figures(sass=1)}
    assert lines.figures_for("/home/me/a.cu") is None  # two files named a.cu: no guess
    assert lines.figures_for("/home/me/c.cu") is None


# ---------------------------------------------------------------------------- the join


def _finding(code: str, level: Level, line: int, message: str = "cudalint's explanation") -> Finding:
    return Finding(code, level, message, ir.Span("/src/k.cu", line, 5, line, 9))


EVERY_MEASURED = {"CL091", "CL092", "CL093", "CL094", "CL095"}
CLEAN_MARK = "measured: clean in this run"
FIGURES = {
    10: _figures(sass=4, inst=100, thr=3200, pred=3200, gsec=790, gideal=100, gworst=7.9),
    11: _figures(sass=4, inst=100, thr=3200, pred=3200, gsec=100, gideal=100, gworst=1.0),
    12: _figures(sass=4, inst=100, thr=3200, pred=3200, swf=350, sideal=100, sworst=3.5),
    13: _figures(sass=2, inst=100, thr=3200, pred=3200, gsec=100, gideal=100, gworst=1.0),
    14: _figures(sass=6, fp64=3, cvt64=1),
}


def _join(findings, enabled=EVERY_MEASURED, facts=None):
    return join.join_file(
        "/src/k.cu", findings, FIGURES, _lines("/src/k.cu", FIGURES), facts or join.LineFacts(), set(enabled)
    )


def test_a_note_the_hardware_confirms_becomes_a_warning_with_the_figure():
    (joined,) = [f for f in _join([_finding("CL101", Level.NOTE, 10, "lanes follow `col[j]`")]) if f.code == "CL101"]
    assert joined.level is Level.WARNING
    assert joined.message.startswith("measured 7.9x the ideal sectors (790 L2 sectors where 100 would do); ")
    assert joined.message.endswith("lanes follow `col[j]`")
    assert joined.properties["measured"]["hazard"] is True
    assert joined.properties["measured"]["figures"]["gworst"] == 7.9
    assert joined.properties["measured"]["source"] == "ncu 2025.3.1.0, NVIDIA H200"


def test_a_refuted_note_stays_a_note_marked_clean_and_a_contradicted_warning_is_kept_and_marked():
    note, warning = _join([_finding("CL101", Level.NOTE, 11), _finding("CL101", Level.WARNING, 13)], enabled=set())
    assert note.level is Level.NOTE and note.message.startswith("measured: clean in this run (1x the ideal sectors")
    assert warning.level is Level.WARNING
    assert warning.message.startswith("cudalint's explanation (measured: clean in this run: 1x the ideal sectors")
    assert note.properties["measured"]["hazard"] is False


def test_a_measured_hazard_without_a_finding_gets_the_class_rule_with_what_cudalint_knows():
    facts = join.LineFacts(describe=lambda name, line: ("cudalint sees load `s[i * stride]`", 17))
    joined = _join([], facts=facts)
    assert [(f.code, f.span.line, f.span.column, f.level) for f in joined] == [
        ("CL091", 10, 17, Level.WARNING),
        ("CL092", 12, 17, Level.WARNING),
        ("CL094", 14, 17, Level.WARNING),
    ]
    assert [f.span.column for f in _join([])] == [1, 1, 1]  # nothing derived: the line's start
    shared = next(f for f in joined if f.code == "CL092")
    assert shared.message == (
        "measured 3.5x the ideal wavefronts (350 shared wavefronts where 100 would do); "
        "cudalint sees load `s[i * stride]`"
    )
    fp64 = next(f for f in joined if f.code == "CL094")
    assert "3 fp64 instructions in the SASS, 1 of them float-to-double conversions" in fp64.message


def test_a_finding_of_the_class_at_any_level_takes_the_place_of_the_measured_rule():
    joined = _join([_finding("CL201", Level.NOTE, 12), _finding("CL401", Level.WARNING, 14)])
    assert {f.code for f in joined} == {"CL091", "CL201", "CL401"}


def test_measured_rules_follow_the_selection_and_suppressions():
    assert {f.code for f in _join([], enabled={"CL092"})} == {"CL092"}
    facts = join.LineFacts(suppressed=lambda finding: finding.code == "CL091")
    assert {f.code for f in _join([], facts=facts)} == {"CL092", "CL094"}


def test_findings_on_unmeasured_lines_and_barrier_findings_are_left_alone():
    unmeasured = _finding("CL101", Level.NOTE, 40)
    barrier = _finding("CL302", Level.WARNING, 10)
    joined = _join([unmeasured, barrier], enabled=set())
    assert joined == sorted([unmeasured, barrier], key=Finding.sort_key)


def test_divergence_is_judged_with_the_statement_and_its_bodies():
    branch = join.Branch(20, ((21, 22),), "if", (19, 24))
    figures = {
        20: _figures(sass=2, inst=1000, thr=32000, pred=32000, bra=1000),
        21: _figures(sass=8, inst=8000, thr=256000, pred=64000),
    }
    lines = _lines("/src/k.cu", figures)
    (finding,) = join.join_file(
        "/src/k.cu",
        [_finding("CL301", Level.NOTE, 20)],
        figures,
        lines,
        join.LineFacts(branches={20: branch}),
        EVERY_MEASURED,
    )
    assert finding.level is Level.WARNING
    assert finding.message.startswith(
        "measured 0 of 1000 branch executions divergent, 25% of its body's active lanes predicated on"
    )


def test_a_profile_of_another_version_of_the_file_is_not_joined():
    source = ("__global__ void k(float* a) {", "    // a comment", "", "    *a = 1;", "}")
    assert analysis.misplaced_lines({2: _figures(sass=1), 4: _figures(sass=2), 9: _figures(sass=1)}, source) == [2, 9]
    assert analysis.misplaced_lines({4: _figures(sass=2), 3: _figures(sass=0)}, source) == []


# ---------------------------------------------------------------------------- the commands


def test_the_profile_command_imports_nothing_of_the_analyzer():
    """The GPU machine runs `cudalint profile` with the standard library only (no libclang)."""
    probe = textwrap.dedent(
        """
        import contextlib, io, sys
        from cudalint import cli
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                cli.main(["profile", "--help"])
            except SystemExit:
                pass
        from cudalint.profile import command, measured, source_lines
        heavy = sorted(
            m for m in sys.modules
            if m.split(".")[0] in ("clang", "pygls", "lsprotocol", "sarif_om")
            or m.startswith(("cudalint.frontend", "cudalint.dataflow", "cudalint.rules", "cudalint.engine",
                             "cudalint.config"))
        )
        print(heavy)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        check=True,
    )
    assert done.stdout.strip() == "[]", done.stderr


def test_check_with_a_missing_or_bad_profile_is_one_line(tmp_path):
    source = tmp_path / "k.cu"
    source.write_text("__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n")
    result = run_cli("check", source, "--headers", "embedded", "--profile", tmp_path / "none.json")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"cudalint: error: cannot read {tmp_path / 'none.json'}: No such file or directory"
    ]
    (tmp_path / "bad.json").write_text("[]")
    result = run_cli("check", source, "--headers", "embedded", "--profile", tmp_path / "bad.json")
    assert result.exit_code == 2 and "not a measured-lines file" in result.stderr and "Traceback" not in result.stderr


def test_profile_without_a_program_or_tools_is_one_line(tmp_path):
    result = run_cli("profile", "--ncu", str(tmp_path / "no-ncu"))
    assert result.exit_code == 2
    assert (
        result.stderr.strip()
        == "cudalint: error: give the program to profile after `--`: cudalint profile -- ./app args"
    )
    result = run_cli("profile", "--import", tmp_path / "missing.ncu-rep", "--binary", tmp_path / "app")
    assert result.exit_code == 2 and result.stderr.strip().endswith("missing.ncu-rep: no such file")


def test_the_html_report_shows_a_finding_s_measured_figures():
    from cudalint.report import html

    (finding,) = [f for f in _join([_finding("CL201", Level.NOTE, 12)], enabled=set())]
    shown = html._measured(finding.properties["measured"])
    assert shown == (
        '<p class="measured">Measured (ncu 2025.3.1.0, NVIDIA H200): shared hazard; 100 warp instructions '
        "executed, 350 shared wavefronts, 100 ideal, worst access 3.5x its ideal wavefronts, 3200 active thread "
        "instructions, 3200 predicated on</p>"
    )


# ---------------------------------------------------------------------------- recorded exports (H200)

RECORDED = sorted(path for path in FIXTURES.glob("*") if path.is_dir())
FAKE_NCU = """\
#!{python}
# Nsight Compute's stand-in: records its command line, writes a report, exports the recorded pages.
import shutil, sys
from pathlib import Path
recorded = Path({recorded!r})
args = sys.argv[1:]
if args == ["--version"]:
    print("NVIDIA (R) Nsight Compute Command Line Profiler\\nVersion 2025.3.1.0 (build 1)")
elif "--import" in args:
    page = args[args.index("--page") + 1]
    suffix = {{"source": ".source.csv", "details": ".details.csv", "raw": ".device.csv"}}[page]
    sys.stdout.write((recorded / (recorded.name + suffix)).read_text())
else:
    Path({log!r}).write_text(" ".join(args))
    Path(args[args.index("-o") + 1] + ".ncu-rep").write_text("report")
"""


def _recorded(folder: Path) -> measured.MeasuredLines:
    return measured.read(folder / f"{folder.name}.measured.json")


@pytest.mark.parametrize("folder", RECORDED, ids=lambda folder: folder.name)
def test_an_imported_export_maps_to_the_figures_the_gpu_machine_wrote(tmp_path, folder):
    """`cudalint profile --import source.csv --disassembly` here gives, figure for figure, the
    measured-lines file `cudalint profile -- ./driver` wrote on the GPU machine."""
    output = tmp_path / "replayed.json"
    result = run_cli(
        "profile",
        "--import",
        folder / f"{folder.name}.source.csv",
        "--disassembly",
        folder / f"{folder.name}.disasm.txt",
        "--output",
        output,
    )
    assert result.exit_code == 0, result.stderr
    replayed, recorded = measured.read(output), _recorded(folder)
    assert replayed.lines == recorded.lines and replayed.kernels == recorded.kernels
    assert replayed.gpu == recorded.gpu and recorded.gpu.startswith("NVIDIA")
    assert replayed.executed_lines() > 0


@pytest.mark.parametrize("folder", RECORDED[:1], ids=lambda folder: folder.name)
def test_a_run_under_ncu_selects_the_first_launch_of_each_kernel(tmp_path, folder):
    log = tmp_path / "ncu-args.txt"
    ncu = tmp_path / "ncu"
    ncu.write_text(FAKE_NCU.format(python=sys.executable, recorded=str(folder), log=str(log)))
    ncu.chmod(0o755)
    app = tmp_path / "app.exe"
    app.write_bytes(b"\x7fELF stand-in")
    disassembly = folder / f"{folder.name}.disasm.txt"
    output = tmp_path / "out.json"
    common = ["profile", "--ncu", ncu, "--disassembly", disassembly, "--output", output]
    result = run_cli(*common, "--", app, "7")
    assert result.exit_code == 0, result.stderr
    assert (
        "--section SourceCounters --import-source no --kernel-name-base demangled "
        "--kernel-id :::1 --launch-count 64 -f -o" in log.read_text()
    )
    assert log.read_text().endswith(f"app.exe {app} 7")
    lines = measured.read(output)
    assert lines.lines == _recorded(folder).lines
    assert lines.binary["size"] == app.stat().st_size and len(lines.binary["sha256"]) == 64
    assert lines.command == [str(app), "7"] and lines.ncu == "2025.3.1.0"
    assert "source lines executed" in result.stderr
    result = run_cli(*common, "--kernel", "gi_.*", "--launch-skip", "4", "--launch-count", "4", "--", app)
    assert result.exit_code == 0, result.stderr
    assert "--kernel-name-base demangled --launch-skip 4 --kernel-name regex:gi_.* --launch-count 4" in log.read_text()


GATHER = """\
__global__ void gather(float* out, const float* in, const int* col, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[col[i]];
}
"""


def _gather_profile(folder: Path, hazard: bool) -> None:
    ratio = 7.9 if hazard else 1.0
    lines = _lines(
        str(folder / "k.cu"),
        {
            2: _figures(sass=4, inst=64, thr=2048, pred=2048),
            3: _figures(sass=9, inst=192, thr=6144, pred=6144, gsec=round(ratio * 256), gideal=256, gworst=ratio),
        },
    )
    (folder / "k.measured.json").write_text(lines.to_json())


def test_check_joins_the_configured_profile_from_the_command_line_and_the_language_server(tmp_path):
    import dataclasses

    from cudalint.server.analysis import Workspace, analyze

    source = tmp_path / "k.cu"
    source.write_text(GATHER)
    (tmp_path / "cudalint.toml").write_text('profile = "k.measured.json"\n')
    _gather_profile(tmp_path, hazard=True)
    static = run_cli("check", source, "--headers", "embedded", "--format", "concise", "--profile", "/dev/null")
    assert static.exit_code == 2  # a profile that is no measured-lines file: one line, no run
    joined = run_cli("check", source, "--headers", "embedded", "--format", "concise")
    assert joined.exit_code == 1, joined.output
    assert ":3:" in joined.stdout and "CL101 [warning] measured 7.9x the ideal sectors" in joined.stdout
    setup = Workspace(frontend_options=lambda options: dataclasses.replace(options, header_mode="embedded")).setup(
        str(source)
    )
    for use_cache in (True, False):
        served = analyze(str(source), GATHER.encode(), setup, use_cache=use_cache)
        assert [(f.code, f.level) for f in served.findings] == [("CL101", Level.WARNING)], served.problems
        assert served.findings[0].properties["measured"]["hazard"] is True
    _gather_profile(tmp_path, hazard=False)
    clean = run_cli("check", source, "--headers", "embedded", "--format", "concise", "--min-level", "note")
    assert "CL101 [note] measured: clean in this run (1x the ideal sectors" in clean.stdout
    assert run_cli("check", source, "--headers", "embedded").exit_code == 0


def _corpus_file(lines: measured.MeasuredLines) -> Path:
    (name,) = [Path(file).name for file in lines.lines if "/tests/corpus/" in file]
    (path,) = (Path(__file__).parent / "corpus").rglob(name)
    return path


@pytest.mark.parametrize("folder", RECORDED, ids=lambda folder: folder.name)
def test_check_with_the_recorded_profile_warns_where_the_hardware_measured_a_hazard(tmp_path, folder):
    """At warning level, the joined findings of a corpus file are the hazard lines the H200
    measured (the verdicts of the real-code yardstick), per class: precision and recall
    at least 0.95, each warning carrying the measured figure."""
    from cudalint import frontend
    from cudalint.profile.source_lines import CLASSES, file_verdicts, tally
    from cudalint.profile.source_lines import Finding as Judged

    lines = _recorded(folder)
    path = _corpus_file(lines)
    figures = lines.figures_for(str(path))
    result = run_cli(
        "check",
        path,
        "--headers",
        "embedded",
        "--format",
        "json",
        "--no-cache",
        "--profile",
        folder / f"{folder.name}.measured.json",
    )
    assert result.exit_code in (0, 1), result.stderr
    findings = [
        Judged(f["code"], f["level"], "k", f["line"], f["message"]) for f in json.loads(result.stdout)["findings"]
    ]
    environment = frontend.build_environment(
        frontend.FrontendOptions(header_mode="embedded"), search_from=str(path.parent)
    )
    context = analysis.line_facts(str(path), frontend.parse_file(str(path), environment), lambda: None)
    verdicts = file_verdicts(figures, context.branches, {}, False, join.program_slots(lines))
    scores = tally(
        {name: {("k", n): v for n, v in lines_.items()} for name, lines_ in verdicts.items()},
        findings,
        ("warning", "error"),
    )
    judged = [f for f in findings if verdicts.get(join.CLASS_OF.get(f.rule, ""), {}).get(f.line) is not None]
    assert judged and all(f.message.startswith("measured") or CLEAN_MARK in f.message for f in judged)
    hazards = {name: len(t.true_positive) + len(t.false_negative) for name, t in scores.items()}
    assert sum(hazards.values()) > 0
    for name in CLASSES:
        assert (scores[name].precision or 1.0) >= 0.95 and (scores[name].recall or 1.0) >= 0.95, (name, scores[name])

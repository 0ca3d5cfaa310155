"""Fixes: which are safe, how they are applied to a file's bytes, and ``check --fix``,
``--unsafe-fixes``, ``--diff`` and ``--exit-non-zero-on-fix`` end to end."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import run_cli
from cudalint import fixes
from cudalint.cli import EXIT_CLEAN, EXIT_FINDINGS
from cudalint.diagnostics import Edit, Finding, Fix, Level, NoticeKind, Safety
from cudalint.engine import FileResult, RunResult
from cudalint.ir import Span
from cudalint.ptxas import find_nvcc

ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
HEADERS = "embedded"


def suffix(path: str, line: int, column: int, text: str, safety: Safety = Safety.SAFE) -> Fix:
    """The fix CL401 makes of an unsuffixed literal at ``line:column``."""
    span = Span(path, line, column, line, column + len(text))
    return Fix("use single-precision literals", (Edit(span, text + "f"),), safety)


# ---------------------------------------------------------------------------- applying to bytes


def test_fixes_are_applied_in_source_order_whatever_the_order_given():
    data = b"float a = x * 0.5 + y * 0.25;\n"
    applied = fixes.apply_fixes(data, [suffix("f.cu", 1, 25, "0.25"), suffix("f.cu", 1, 15, "0.5")], "f.cu")
    assert applied.data == b"float a = x * 0.5f + y * 0.25f;\n" and len(applied.fixes) == 2


def test_an_overlapping_fix_waits_for_the_next_pass():
    data = b"float a = x * 0.5;\n"
    first = suffix("f.cu", 1, 15, "0.5")
    overlapping = Fix("rewrite", (Edit(Span("f.cu", 1, 11, 1, 18), "x * 0.5f"),), Safety.SAFE)
    touching = Fix("touch", (Edit(Span("f.cu", 1, 18, 1, 18), " /* */"),), Safety.SAFE)
    applied = fixes.apply_fixes(data, [overlapping, first, touching], "f.cu")
    # Source order: the wider edit starts first and wins; the others are left, never mixed in.
    assert applied.data == b"float a = x * 0.5f;\n" and applied.fixes == [overlapping]


def test_identical_fixes_apply_once_and_count_for_every_finding():
    data = b"__shared__ float tile[32][32];\n"
    pad = Fix("pad", (Edit(Span("f.cu", 1, 26, 1, 30), "[33]"),), Safety.SAFE)
    applied = fixes.apply_fixes(data, [pad, pad], "f.cu")
    assert applied.data == b"__shared__ float tile[32][33];\n" and len(applied.fixes) == 2


def test_line_endings_and_byte_order_mark_are_kept():
    data = b"\xef\xbb\xbf// crlf\r\nfloat a = x * 0.5;\r\n\rfloat b = y * 0.5;\r\n"
    applied = fixes.apply_fixes(data, [suffix("f.cu", 2, 15, "0.5"), suffix("f.cu", 4, 15, "0.5")], "f.cu")
    assert applied.data == b"\xef\xbb\xbf// crlf\r\nfloat a = x * 0.5f;\r\n\rfloat b = y * 0.5f;\r\n"


def test_columns_count_characters_and_other_bytes_are_kept():
    # A Windows-1252 apostrophe (not UTF-8: one replacement character to the frontend) and
    # two-byte UTF-8 characters before the literal on its line: 4 characters, 6 bytes.
    data = b"/* it\x92s \xc3\xa9t\xc3\xa9 */ float b = x * 0.5; // \xc3\xa9\n"
    column = data.decode("utf-8", errors="replace").find("0.5") + 1
    assert column == data.find(b"0.5") + 1 - 2
    applied = fixes.apply_fixes(data, [suffix("f.cu", 1, column, "0.5")], "f.cu")
    assert applied.data == b"/* it\x92s \xc3\xa9t\xc3\xa9 */ float b = x * 0.5f; // \xc3\xa9\n"


def test_a_fix_outside_the_text_or_in_another_file_is_left_out():
    data = b"float a = x * 0.5;\n"
    beyond = [suffix("f.cu", 1, 40, "0.5"), suffix("f.cu", 9, 1, "0.5"), suffix("other.cu", 1, 15, "0.5")]
    applied = fixes.apply_fixes(data, beyond, "f.cu")
    assert applied.data == data and applied.fixes == []


# ---------------------------------------------------------------------------- the passes


class Analyses:
    """A stand-in for the engine: each call returns the next result, after running ``before``."""

    def __init__(self, path: Path, results: list[RunResult], before=None):
        self.path, self.results, self.before, self.calls = path, results, before, 0

    def __call__(self) -> RunResult:
        if self.before is not None:
            self.before(self.calls)
        self.calls += 1
        return self.results[min(self.calls, len(self.results)) - 1]


def result_with(path: Path, fix: Fix | None, errors: tuple[str, ...] = ()) -> RunResult:
    findings = [] if fix is None else [Finding("CL401", Level.NOTE, "m", fix.edits[0].span, fix)]
    return RunResult([FileResult(str(path), findings, analyzed=True, parse_errors=list(errors))])


def test_a_file_changed_while_it_was_analyzed_is_left_alone(tmp_path):
    path = tmp_path / "k.cu"
    path.write_bytes(b"float a = x * 0.5;\n")
    edited = b"float a = x * 0.5; // edited\n"
    analyze = Analyses(path, [result_with(path, suffix(str(path), 1, 15, "0.5"))], lambda _: path.write_bytes(edited))
    outcome = fixes.run_with_fixes([str(path)], analyze, fixes.FixSettings())
    assert path.read_bytes() == edited and outcome.fixed == 0 and not outcome.changes
    (notice,) = outcome.result.notices
    assert notice.kind is NoticeKind.NOTE and "changed on disk" in notice.message


def test_a_fix_that_brings_a_parse_error_is_rolled_back(tmp_path):
    path = tmp_path / "k.cu"
    original = b"float a = x * 0.5;\n"
    path.write_bytes(original)
    broken = Fix("break", (Edit(Span(str(path), 1, 18, 1, 19), ""),), Safety.SAFE)
    results = [result_with(path, broken), result_with(path, None, ("expected ';'",)), result_with(path, None)]
    analyze = Analyses(path, results)
    outcome = fixes.run_with_fixes([str(path)], analyze, fixes.FixSettings())
    assert path.read_bytes() == original and outcome.fixed == 0 and not outcome.changes
    assert analyze.calls == 3  # The findings reported are those of the file put back.
    (notice,) = outcome.result.notices
    assert notice.kind is NoticeKind.ERROR
    assert notice.message == "fixes (CL401) rolled back: they introduce a parse error: expected ';'"


def test_an_error_the_file_already_had_does_not_roll_back(tmp_path):
    path = tmp_path / "k.cu"
    path.write_bytes(b"float a = x * 0.5;\n")
    errors = ("unknown type name 'T'",)
    results = [result_with(path, suffix(str(path), 1, 15, "0.5"), errors), result_with(path, None, errors)]
    outcome = fixes.run_with_fixes([str(path)], Analyses(path, results), fixes.FixSettings())
    assert path.read_bytes() == b"float a = x * 0.5f;\n" and outcome.fixed == 1 and not outcome.result.notices


def test_unsafe_fixes_apply_only_when_asked(tmp_path):
    path = tmp_path / "k.cu"
    path.write_bytes(b"float a = x * 0.1;\n")
    unsafe = suffix(str(path), 1, 15, "0.1", Safety.UNSAFE)
    outcome = fixes.run_with_fixes([str(path)], Analyses(path, [result_with(path, unsafe)]), fixes.FixSettings())
    assert outcome.fixed == 0 and path.read_bytes() == b"float a = x * 0.1;\n"
    results = [result_with(path, unsafe), result_with(path, None)]
    outcome = fixes.run_with_fixes([str(path)], Analyses(path, results), fixes.FixSettings(unsafe=True))
    assert outcome.fixed == 1 and path.read_bytes() == b"float a = x * 0.1f;\n"


def test_passes_stop_at_the_limit(tmp_path):
    path = tmp_path / "k.cu"
    path.write_bytes(b"x")
    grow = Fix("grow", (Edit(Span(str(path), 1, 1, 1, 1), "x"),), Safety.SAFE)
    outcome = fixes.run_with_fixes([str(path)], Analyses(path, [result_with(path, grow)]), fixes.FixSettings())
    assert outcome.fixed == fixes.MAX_PASSES and path.read_bytes() == b"x" * (fixes.MAX_PASSES + 1)
    (notice,) = outcome.result.notices
    assert f"after {fixes.MAX_PASSES} passes" in notice.message


# ---------------------------------------------------------------------------- which fixes are safe


TILE_KERNEL = """
__global__ void k(const float* in, float* out) {{
    __shared__ float tile[32][32];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
    {extra}
}}
void launch(const float* in, float* out) {{ k<<<1, dim3(32, 32)>>>(in, out); }}
"""


@pytest.mark.parametrize(
    ("extra", "private"),
    [
        ("", True),
        ("atomicAdd(&tile[threadIdx.y][threadIdx.x], 1.0f);", True),
        ("out[1] = (&tile[0][0])[threadIdx.x];", False),
        ("float* row = tile[threadIdx.y]; out[2] = row[1];", False),
        ("out[3] = sizeof(tile);", False),
        ("memcpy(out, tile, 4);", False),
        ("out[4] = reinterpret_cast<float*>(tile)[threadIdx.x];", False),
    ],
)
def test_a_tile_is_private_only_when_reached_through_its_rows_and_columns(snippets, extra, private):
    (kernel,) = snippets.facts(TILE_KERNEL.format(extra=extra)).kernels
    array = kernel.shared_arrays["tile"]
    assert array.in_kernel and array.layout_is_private is private
    (finding,) = [f for f in snippets.findings(TILE_KERNEL.format(extra=extra), select=["CL201"])]
    assert finding.fix.safety is (Safety.SAFE if private else Safety.UNSAFE)


def test_a_file_scope_tile_is_not_private(snippets):
    source = TILE_KERNEL.format(extra="").replace("    __shared__ float tile[32][32];\n", "")
    (kernel,) = snippets.facts("__shared__ float tile[32][32];\n" + source).kernels
    assert not kernel.shared_arrays["tile"].in_kernel and not kernel.shared_arrays["tile"].layout_is_private


# ---------------------------------------------------------------------------- the command line


def invoke(*args, cwd: Path):
    return run_cli("--headers", HEADERS, "--format", "json", *args, cwd, env={"NO_COLOR": "1"})


def reported(result) -> list[tuple[str, int, str, str | None]]:
    """(file, line, code, fix safety) of each finding a JSON report holds."""
    document = json.loads(result.stdout)
    return sorted(
        (f["file"].rsplit("/", 1)[-1], f["line"], f["code"], (f["fix"] or {}).get("safety"))
        for f in document["findings"]
    )


def snapshot(directory: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(directory.iterdir())}


@pytest.fixture
def examples(tmp_path) -> Path:
    copy = tmp_path / "examples"
    shutil.copytree(EXAMPLES, copy)
    return copy


def test_fix_on_the_examples_leaves_the_unsafe_fixes_and_twice_changes_nothing(examples):
    result = invoke("--fix", "--min-level", "note", cwd=examples)
    assert result.exit_code == EXIT_FINDINGS
    assert reported(result) == [
        ("reduce.cu", 14, "CL301", None),
        ("row_sums.cu", 16, "CL201", "unsafe"),
        ("saxpy.cu", 13, "CL401", "unsafe"),
        ("saxpy.cu", 15, "CL401", "unsafe"),
        ("transpose.cu", 10, "CL101", None),
    ]
    saxpy = (examples / "saxpy.cu").read_text()
    assert "v[i] = x * 0.5f;" in saxpy and "1e-6)" in saxpy and "pow(x, 2.5) * 0.1;" in saxpy
    assert "__shared__ float tile[TILE][TILE + 1];" in (examples / "transpose.cu").read_text()
    assert (examples / "row_sums.cu").read_bytes() == (EXAMPLES / "row_sums.cu").read_bytes()
    before = snapshot(examples)
    again = invoke("--fix", "--min-level", "note", cwd=examples)
    assert snapshot(examples) == before and reported(again) == reported(result)
    # Served from the cache, the findings are those of the fixed files.
    assert reported(invoke("--min-level", "note", cwd=examples)) == reported(result)


def test_unsafe_fixes_on_the_examples_leave_nothing_fixable(examples):
    result = invoke("--fix", "--unsafe-fixes", "--min-level", "note", cwd=examples)
    assert reported(result) == [("reduce.cu", 14, "CL301", None), ("transpose.cu", 10, "CL101", None)]
    assert "powf(x, 2.5f) * 0.1f" in (examples / "saxpy.cu").read_text()


@pytest.mark.skipif(find_nvcc(None) is None, reason="nvcc not found (CUDA toolkit not installed or not on PATH)")
def test_the_examples_fixed_with_unsafe_fixes_compile(examples, tmp_path):
    invoke("--fix", "--unsafe-fixes", cwd=examples)
    for source in sorted(examples.glob("*.cu")):
        command = [find_nvcc(None), "-c", "-arch=sm_90", str(source), "-o", str(tmp_path / f"{source.stem}.o")]
        compiled = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert compiled.returncode == 0, compiled.stderr


def test_diff_writes_nothing_and_exits_1_when_there_is_a_change(examples):
    before = snapshot(examples)
    result = run_cli("--headers", HEADERS, "--diff", examples, env={"NO_COLOR": "1"})
    assert snapshot(examples) == before
    assert result.exit_code == EXIT_FINDINGS
    assert "-    v[i] = x * 0.5;" in result.stdout and "+    v[i] = x * 0.5f;" in result.stdout
    assert "+    __shared__ float tile[TILE][TILE + 1];" in result.stdout
    assert "powf" not in result.stdout and result.stderr.endswith("Would apply 2 fixes to 2 files.\n")
    unsafe = run_cli("--headers", HEADERS, "--diff", "--unsafe-fixes", examples, env={"NO_COLOR": "1"})
    assert "+    v[i] += powf(x, 2.5f) * 0.1f;" in unsafe.stdout and snapshot(examples) == before
    clean = run_cli("--headers", HEADERS, "--diff", examples / "transpose.cu", "--select", "CL101")
    assert clean.exit_code == EXIT_CLEAN and clean.stdout == ""


def test_exit_non_zero_on_fix(tmp_path):
    source = "__global__ void halve(float* v, int i) {\n    v[i] = v[i] * 0.5;\n}\n"
    cases = (
        ((), EXIT_CLEAN),
        (("--exit-non-zero-on-fix",), EXIT_FINDINGS),
        (("--exit-non-zero-on-fix", "--exit-zero"), EXIT_CLEAN),
    )
    for flags, expected in cases:
        path = tmp_path / f"halve{len(flags)}.cu"
        path.write_text(source)
        result = run_cli("--headers", HEADERS, "--fix", *flags, path)
        assert result.exit_code == expected, result.output
        assert "v[i] * 0.5f;" in path.read_text() and "Fixed 1 finding." in result.stdout
    # Nothing left to fix: the flag changes nothing.
    assert run_cli("--headers", HEADERS, "--fix", "--exit-non-zero-on-fix", path).exit_code == EXIT_CLEAN


def test_fix_from_the_configuration_and_no_fix_from_the_command_line(tmp_path, monkeypatch):
    path = tmp_path / "halve.cu"
    path.write_text("__global__ void halve(float* v, int i) {\n    v[i] = v[i] * 0.1;\n    v[0] = v[0] * 0.5;\n}\n")
    (tmp_path / "cudalint.toml").write_text("fix = true\nunsafe-fixes = false\n")
    monkeypatch.chdir(tmp_path)
    assert run_cli("--headers", HEADERS, "--no-fix", "halve.cu").exit_code == EXIT_FINDINGS
    assert "0.5f" not in path.read_text()
    run_cli("--headers", HEADERS, "halve.cu")
    assert "v[i] * 0.1;" in path.read_text() and "v[0] * 0.5f;" in path.read_text()
    (tmp_path / "cudalint.toml").write_text("fix = true\nunsafe-fixes = true\n")
    run_cli("--headers", HEADERS, "halve.cu")
    assert "v[i] * 0.1f;" in path.read_text()


def test_the_text_report_marks_what_fix_fixes(examples):
    result = run_cli("--headers", HEADERS, "--format", "concise", examples / "saxpy.cu", env={"NO_COLOR": "1"})
    lines = result.stdout.splitlines()
    assert not any("[*]" in line for line in lines[:-2])
    assert lines[-1] == "No safe fix available (2 more with --fix --unsafe-fixes)."
    notes = run_cli("--headers", HEADERS, "--min-level", "note", "--format", "concise", examples / "saxpy.cu")
    assert [line for line in notes.stdout.splitlines() if "[*]" in line] == [
        f"{examples / 'saxpy.cu'}:14:16: CL401 [*] [note] `x * 0.5` is written in double precision (unsuffixed "
        "literal `0.5` is a double); the compiler narrows this single operation to fp32, but the source should "
        "say float; write `0.5f`",
        "[*] 1 fixable with --fix (2 more with --fix --unsafe-fixes).",
    ]
    unsafe = run_cli("--headers", HEADERS, "--unsafe-fixes", "--format", "concise", examples / "saxpy.cu")
    assert unsafe.stdout.splitlines()[-1] == "[*] 2 fixable with --fix."


def test_no_file_is_edited_without_fix(examples):
    before = snapshot(examples)
    run_cli("--headers", HEADERS, "--unsafe-fixes", "--exit-non-zero-on-fix", examples)
    assert snapshot(examples) == before


def test_parse_errors_are_kept_per_file(tmp_path):
    path = tmp_path / "broken.cu"
    path.write_text("__global__ void k(float* v) {\n    v[0] = 1.0f\n}\n")
    from cudalint import engine
    from cudalint.config import Config

    settings = engine.default_settings(Config(), header_mode=HEADERS)
    (file,) = engine.run([str(path)], settings, []).files
    assert file.parse_errors == ["expected ';' after expression"]


@pytest.mark.parametrize("code", ["CL201", "CL401"])
def test_the_rule_documentation_says_which_fixes_are_safe(code):
    result = run_cli("rule", code)
    assert "## Fix safety" in result.stdout and "- Safe " in result.stdout and "- Unsafe " in result.stdout


def test_the_readme_shows_what_fix_prints_on_the_examples(examples, monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = "$ cudalint check --fix examples/ --format concise\n"
    shown = readme[readme.index(command) + len(command) :].split("```", 1)[0]
    monkeypatch.chdir(examples.parent)
    result = run_cli("check", "--headers", HEADERS, "--fix", "examples/", "--format", "concise", env={"NO_COLOR": "1"})
    assert result.stdout == shown


def test_a_literal_suffix_is_safe_only_where_the_compiler_already_computes_in_float(snippets):
    source = """
    __global__ void k(float* v, int i) {
        if (i < 0.5) v[0] = 1.0f;
        v[1] = v[1] * 0.5;
        v[2] = v[2] * 0.1;
    }
    """
    findings = snippets.findings(source, select=["CL401"])
    assert [(f.span.line, f.level, f.fix.safety) for f in findings] == [
        (2, Level.NOTE, Safety.UNSAFE),  # an integer comparison: `i < 0.5f` would convert `i` to float
        (3, Level.NOTE, Safety.SAFE),
        (4, Level.WARNING, Safety.UNSAFE),
    ]


def test_fix_keeps_every_byte_outside_its_edits_on_a_real_file(tmp_path):
    # A byte-order mark, CRLF line endings, and on the literal's line a Windows-1252 byte
    # and a two-byte UTF-8 character before it: the frontend's columns, mapped back to bytes.
    lines = [
        b"\xef\xbb\xbf// r\xc3\xa9sum\xc3\xa9\r\n",
        b"__global__ void halve(float* v, int i) {\r\n",
        b"    /* it\x92s \xc3\xa9 */ v[i] = v[i] * 0.5; // \xc3\xa9\r\n",
        b"}\r\n",
    ]
    path = tmp_path / "halve.cu"
    path.write_bytes(b"".join(lines))
    result = run_cli("--headers", HEADERS, "--fix", path)
    assert result.exit_code == EXIT_CLEAN, result.output
    lines[2] = lines[2].replace(b"0.5;", b"0.5f;")
    assert path.read_bytes() == b"".join(lines)

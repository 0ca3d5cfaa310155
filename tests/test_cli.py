"""The command line: every option, output format and exit code."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import run_cli
from cudalint import __version__, cli, engine
from cudalint.cli import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS

FIXTURES = Path(__file__).parent / "fixtures" / "lint"
# The embedded header set: fast, and needs no CUDA installation.
HEADERS = "embedded"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

FP64_WARNING = "fp64.cu:4:33: warning[CL401] `in[i] * 0.1` runs in double precision"


@pytest.fixture
def workdir(tmp_path, monkeypatch) -> Path:
    """A copy of the fixtures as the current directory, away from any configuration file."""
    for name in ("fp64.cu", "clean.cu", "suppressions.cu"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def invoke(*args: str, env: dict[str, str | None] | None = None):
    # Color must not depend on the environment the tests happen to run in.
    return run_cli(*args, env={"NO_COLOR": None, "FORCE_COLOR": None, **(env or {})})


def analyze(*args: str, env=None):
    """A check that reports notes too: the fixtures exercise every level."""
    return invoke("--headers", HEADERS, "--min-level", "note", *args, env=env)


# --- informational -----------------------------------------------------------------


def test_version():
    result = invoke("--version")
    assert result.exit_code == EXIT_CLEAN and result.stdout == f"cudalint {__version__}\n"


def test_check_help_lists_every_option():
    result = invoke("check", "--help")
    assert result.exit_code == EXIT_CLEAN
    for option in (
        "--format",
        "--output",
        "--select",
        "--ignore",
        "--extend-select",
        "--statistics",
        "--exit-zero",
        "--jobs",
        "--color",
        "--config",
        "--headers",
        "--exclude",
        "--min-level",
        "--fix",
        "--unsafe-fixes",
        "--diff",
        "--exit-non-zero-on-fix",
    ):
        assert option in result.stdout


# --- levels ------------------------------------------------------------------------


def test_notes_are_shown_only_when_asked_for(workdir):
    """fp64.cu has warnings and notes: by default the summary counts the notes it leaves out."""
    default = invoke("--headers", HEADERS, "fp64.cu")
    with_notes = analyze("fp64.cu")
    assert "note[" not in default.stdout and "note[" in with_notes.stdout
    notes = with_notes.stdout.count("note[CL")
    assert f"Not shown: {notes} note{'s' if notes > 1 else ''} (--min-level note shows them)." in default.stdout
    assert default.exit_code == with_notes.exit_code == EXIT_FINDINGS


def test_min_level_setting_and_option(workdir):
    (workdir / "cudalint.toml").write_text('min-level = "error"\n')
    quiet = invoke("--headers", HEADERS, "fp64.cu")
    assert "warning[" not in quiet.stdout and quiet.exit_code == EXIT_CLEAN
    assert "Not shown:" in quiet.stdout
    assert "note[" in invoke("--headers", HEADERS, "--min-level", "note", "fp64.cu").stdout
    (workdir / "cudalint.toml").write_text('min-level = "hint"\n')
    bad = invoke("--headers", HEADERS, "fp64.cu")
    assert bad.exit_code == EXIT_ERROR and "`min-level` must be one of note, warning, error" in bad.stderr


# --- output formats ----------------------------------------------------------------


def test_default_command_is_check_in_full_format(workdir):
    result = analyze("fp64.cu")
    assert result.exit_code == EXIT_FINDINGS
    lines = result.stdout.splitlines()
    start = lines.index(
        FP64_WARNING
        + " (unsuffixed literal `0.1` is a double, not exact in float); write `0.1f`".replace(
            " (unsuffixed", ": 1 fp64 operation (unsuffixed"
        )
    )
    assert lines[start + 1 : start + 8] == [
        "  |",
        "4 |     if (i < n) out[i] = in[i] * 0.1;",
        "  | " + " " * 32 + "^^^",
        "  = in scale",
        "  = unsafe fix: use single-precision literals and functions: `0.1f`",
        "  = help: Double-precision arithmetic in device code that nobody asked for. (cudalint rule CL401)",
        "",
    ]
    assert "8 | \tv[i] = v[i] * 0.5;" in lines
    assert "  = safe fix: use single-precision literals and functions: `0.5f`" in lines
    assert lines[-2:] == [
        "Found 2 findings (1 warning, 1 note) in 1 file.",
        "[*] 1 fixable with --fix (1 more with --fix --unsafe-fixes).",
    ]


def test_check_subcommand_concise_format(workdir):
    result = invoke("check", "--headers", HEADERS, "--min-level", "note", "--format", "concise", "fp64.cu")
    assert result.exit_code == EXIT_FINDINGS
    lines = result.stdout.splitlines()
    assert len(lines) == 4
    assert lines[0].startswith("fp64.cu:4:33: CL401 [warning] `in[i] * 0.1` runs in double precision")
    # The note's fix is safe: `--fix` applies it, and the report marks it so.
    assert lines[1].startswith("fp64.cu:8:16: CL401 [*] [note] `v[i] * 0.5` is written in double precision")


def test_json_format_is_never_colored(workdir):
    result = analyze("--format", "json", "--color", "always", "fp64.cu")
    assert result.exit_code == EXIT_FINDINGS
    document = json.loads(result.stdout)
    assert [(f["file"], f["line"], f["level"]) for f in document["findings"]] == [
        ("fp64.cu", 4, "warning"),
        ("fp64.cu", 8, "note"),
    ]


def test_github_format(workdir):
    result = analyze("--format", "github", "fp64.cu")
    assert result.exit_code == EXIT_FINDINGS
    first, second = result.stdout.splitlines()
    assert first.startswith("::warning file=fp64.cu,line=4,col=33,endLine=4,endColumn=36,title=CL401 implicit-fp64::")
    assert second.startswith("::notice file=fp64.cu,line=8,col=16,")


def test_github_paths_are_relative_to_the_repository_root(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    monkeypatch.chdir(tmp_path / "src")
    Path("empty.cu").write_text("")
    result = invoke("--format", "github", "empty.cu")
    assert result.stdout == (
        "::error file=src/empty.cu,title=cudalint::src/empty.cu: error: empty file, nothing to analyze\n"
    )


def test_color_always_keeps_brackets_verbatim(workdir):
    result = analyze("--color", "always", "fp64.cu")
    assert "\x1b[" in result.stdout
    assert "`in[i] * 0.1` runs in double precision" in result.stdout
    assert "    if (i < n) out[i] = in[i] * 0.1;" in result.stdout
    assert FP64_WARNING in ANSI.sub("", result.stdout)


@pytest.mark.parametrize(
    "args, env, colored",
    [
        ([], {}, False),  # not a terminal
        (["--color", "always"], {"NO_COLOR": "1"}, True),
        (["--color", "never"], {"FORCE_COLOR": "1"}, False),
        ([], {"FORCE_COLOR": "1"}, True),
        (["--color", "auto"], {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False),
        ([], {"NO_COLOR": "", "FORCE_COLOR": "1"}, True),  # an empty NO_COLOR does not count
    ],
)
def test_color_choice(tmp_path, monkeypatch, args, env, colored):
    monkeypatch.chdir(tmp_path)
    Path("empty.cu").write_text("")  # its notice is painted, and needs no parse
    result = invoke(*args, "empty.cu", env=env)
    assert ("\x1b[" in result.stdout) == colored


def test_output_file(workdir):
    result = analyze("--format", "json", "--color", "always", "--output", "report.json", "fp64.cu", "missing.cu")
    assert result.exit_code == EXIT_FINDINGS
    assert result.stdout == ""
    assert result.stderr == "missing.cu: error: no such file or directory\n"
    document = json.loads(Path("report.json").read_text(encoding="utf-8"))
    assert len(document["findings"]) == 2 and document["notices"][0]["file"] == "missing.cu"


def test_unwritable_output_exits_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("empty.cu").write_text("")
    result = invoke("--output", str(tmp_path / "no" / "such" / "dir.txt"), "empty.cu")
    assert result.exit_code == EXIT_ERROR and "cannot write" in result.stderr


# --- rule selection ------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, codes",
    [
        (["--select", "CL4"], {"CL401"}),
        (["--ignore", "cl0"], {"CL401"}),
        (["--select", "CL001"], {"CL001"}),  # only unknown codes: CL401 did not run
        (["--select", "CL0", "--extend-select", "CL401"], {"CL001", "CL401"}),
        (["--select", "ALL", "--ignore", "CL401"], {"CL001"}),
    ],
)
def test_select_ignore_extend_select(workdir, args, codes):
    result = analyze("--format", "json", *args, "suppressions.cu")
    assert {f["code"] for f in json.loads(result.stdout)["findings"]} == codes


def test_statistics(workdir):
    result = analyze("--statistics", "fp64.cu")
    assert result.exit_code == EXIT_FINDINGS
    assert result.stdout.splitlines() == [
        "     2  CL401  implicit-fp64",
        "Found 2 findings (1 warning, 1 note) in 1 file.",
    ]


def test_exit_zero(workdir):
    result = analyze("--exit-zero", "--format", "concise", "fp64.cu")
    assert result.exit_code == EXIT_CLEAN and "CL401" in result.stdout


def test_clean_file_exits_0(workdir):
    result = analyze("clean.cu")
    assert result.exit_code == EXIT_CLEAN
    assert result.stdout == "All checks passed (1 file analyzed).\n"


def test_jobs(workdir):
    result = analyze("--jobs", "2", "--format", "concise", "clean.cu", "fp64.cu")
    assert result.exit_code == EXIT_FINDINGS
    assert [line.split(":")[:2] for line in result.stdout.splitlines()] == [
        ["fp64.cu", "4"],
        ["fp64.cu", "8"],
        ["Found 2 findings (1 warning, 1 note) in 1 file."],
        ["[*] 1 fixable with --fix (1 more with --fix --unsafe-fixes)."],
    ]


def test_define_option(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("k.cu").write_text("__global__ void k(float* v) {\n#ifdef SLOW\n    v[0] = v[0] * 0.1;\n#endif\n}\n")
    result = analyze("-D", "SLOW", "--format", "concise", "k.cu")
    assert result.exit_code == EXIT_FINDINGS and result.stdout.startswith("k.cu:3:")


# --- bad input ------------------------------------------------------------------------


def test_each_bad_input_gets_one_line_and_the_rest_continue(workdir, monkeypatch):
    Path("empty.cu").write_text("")
    Path("blank.cuh").write_text("  \n\n")
    Path("binary.cu").write_bytes(b"\x7fELF\x00\x00\x01\x02")
    Path("dir.cu").mkdir()
    Path("locked.cu").write_text("__global__ void k() {}\n")
    # Root reads anything, so refuse the read itself (forked workers inherit the patch).
    read_bytes = Path.read_bytes

    def refuse_locked(path):
        if path.name == "locked.cu":
            raise PermissionError(13, "Permission denied")
        return read_bytes(path)

    monkeypatch.setattr(Path, "read_bytes", refuse_locked)
    bad = {
        "missing.cu": "no such file",
        "empty.cu": "empty file",
        "blank.cuh": "empty file",
        "binary.cu": "binary file",
        "dir.cu": "is a directory",
        "locked.cu": "Permission denied",
    }
    result = analyze("--format", "concise", "fp64.cu", *bad)
    assert result.exit_code == EXIT_FINDINGS
    lines = result.stdout.splitlines()
    for name, reason in bad.items():
        (line,) = [line for line in lines if line.startswith(name)]
        assert line.startswith(f"{name}: error: ") and reason in line
    assert sum(line.startswith("fp64.cu:") for line in lines) == 2
    assert lines[-2].endswith("6 files could not be analyzed.")


def test_nothing_analyzable_exits_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("empty.cu").write_text("")
    result = invoke("empty.cu", "missing.cu")
    assert result.exit_code == EXIT_ERROR
    assert sorted(result.stdout.splitlines()[:2]) == [
        "empty.cu: error: empty file, nothing to analyze",
        "missing.cu: error: no such file or directory",
    ]


def test_directories_are_searched_for_cu_and_cuh(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in (
        "src/a.cu",
        "src/deep/b.cuh",
        "src/c.cpp",
        "src/notes.txt",
        "src/.hidden/d.cu",
        "src/third_party/e.cu",
        "src/f_generated.cu",
        "top.cu",
    ):
        Path(name).parent.mkdir(parents=True, exist_ok=True)
        Path(name).write_text("")  # empty: each file found gets a one-line notice and no parse
    result = invoke("--format", "concise", "--exclude", "third_party", "--exclude", "*_generated.cu", "src")
    found = sorted(line.split(":")[0] for line in result.stdout.splitlines()[:-1])
    assert found == ["src/a.cu", "src/deep/b.cuh"]
    everything = invoke("--format", "concise")  # no path: the current directory
    assert len(everything.stdout.splitlines()) - 1 == 5


def test_no_cuda_files_exits_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("main.cpp").write_text("int main() {}\n")
    result = invoke(".")
    assert result.exit_code == EXIT_ERROR and "no CUDA sources or headers found" in result.stderr


def test_headers_nothing_includes_exit_0(tmp_path, monkeypatch):
    """A directory of headers that no source includes: nothing compiles them, nothing to report."""
    monkeypatch.chdir(tmp_path)
    Path("lonely.h").write_text("__device__ inline int twice(int x) { return 2 * x; }\n")
    result = invoke(".")
    assert result.exit_code == EXIT_CLEAN and "includes the headers given" in result.stderr


def test_files_all_excluded_exit_0(tmp_path, monkeypatch):
    """pre-commit passes excluded files too: that is not an error."""
    monkeypatch.chdir(tmp_path)
    Path("gen.cu").write_text("")
    result = invoke("--exclude", "gen.cu", "gen.cu")
    assert result.exit_code == EXIT_CLEAN and "excluded" in result.stderr


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "xml", "k.cu"],
        ["--color", "sometimes", "k.cu"],
        ["--jobs", "0", "k.cu"],
        ["--no-such-option", "k.cu"],
        ["--select", "CL9", "k.cu"],
        ["--arch", "banana", "k.cu"],
    ],
)
def test_usage_errors_exit_2(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    Path("k.cu").write_text("")
    assert invoke(*args).exit_code == EXIT_ERROR


def test_unusable_cuda_path_exits_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("k.cu").write_text("__global__ void k() {}\n")
    result = invoke("--headers", "toolkit", "--cuda-path", str(tmp_path / "nowhere"), "k.cu")
    assert result.exit_code == EXIT_ERROR and "cuda-path" in result.stderr


def test_internal_error_exits_2_not_1(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def explode(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "run", explode)
    result = invoke("k.cu")
    assert result.exit_code == EXIT_ERROR
    assert "internal error: RuntimeError: boom" in result.stderr


def test_crash_outside_a_command_exits_2(monkeypatch, capsys):
    def explode(argv):
        raise RuntimeError("boom")

    monkeypatch.setattr(cli, "run", explode)
    with pytest.raises(SystemExit) as exit_info:
        cli.main([])
    assert exit_info.value.code == EXIT_ERROR
    assert "internal error: RuntimeError: boom" in capsys.readouterr().err

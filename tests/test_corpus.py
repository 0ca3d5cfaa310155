"""Every corpus file, checked completely, as clang-tidy checks its tests and ruff its snapshots.

- Its findings are exactly the ones its ``// expect: CL101 warning`` and ``// known false
  positive: CL301 warning REASON`` markers name (its own and those of the corpus headers
  it includes, whose kernels it launches), file, line, code and level compared as
  multisets: a line with two findings of one code names it twice (``// expect: CL101
  warning, CL101 warning``), so a duplicate finding fails.
- A marker that gives a column (``@12``) or a part of the message (``"4-way bank
  conflict"``) is met by a finding that starts there and says that; a ``// expect-miss:
  CL501 REASON`` line has no such finding, so a fix that reports it fails here until the
  marker becomes an ``expect:``. The syntax is in scripts/corpus_markers.py.
- Everything else a user sees of them (column and range, message, function, fix and its
  edits, the figures behind them) equals the snapshot in tests/snapshots/findings/. A
  header set whose findings read differently (a type spelt through the toolkit's own
  declarations) has a snapshot of its own beside it, ``<file>.cu.<header set>.txt``.
  After an intended change, rewrite the snapshots with
  ``CUDALINT_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_corpus.py`` and review the diff.

Each file is analyzed once per header set for the whole session (``corpus_results``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import (
    CORPUS,
    SNAPSHOTS,
    UPDATE_SNAPSHOTS,
    as_case_expectations,
    case_expectations,
    case_files,
    check_snapshot,
    load_script,
    markers,
    render_findings,
)

MARKERS = load_script("corpus_markers")

CASES = sorted(CORPUS.rglob("*.cu"))
FINDINGS = SNAPSHOTS / "findings"
IDS = [str(p.relative_to(CORPUS)) for p in CASES]


def _snapshot(path, header_mode: str = "embedded"):
    name = path.relative_to(CORPUS)
    suffix = ".txt" if header_mode == "embedded" else f".{header_mode}.txt"
    return FINDINGS / name.parent / (name.name + suffix)


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_findings_are_the_expected_ones(path, header_mode, corpus_results):
    result = corpus_results(path, header_mode)
    assert result.analyzed, result.notices
    assert not result.notices, [n.one_line() for n in result.notices]
    got, want = as_case_expectations(result.findings), case_expectations(path)
    unexpected = sorted((got - want).elements())
    missing = sorted((want - got).elements())
    assert not unexpected and not missing, f"unexpected: {unexpected}\nmissing: {missing}"


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_findings_say_what_their_markers_say(path, header_mode, corpus_results):
    """Columns and message parts where markers give them; no finding where a marker records a miss."""
    shown: dict[tuple[str, int], list] = {}
    for f in corpus_results(path, header_mode).findings:
        key = (Path(f.span.file).name, f.span.line)
        shown.setdefault(key, []).append(MARKERS.Shown(f.code, f.level.value, f.span.column, f.message))
    problems = []
    for file in case_files(path):
        lines: dict[int, list] = {}
        for marker in markers(file):
            lines.setdefault(marker.line, []).append(marker)
        for line, marked in sorted(lines.items()):
            problems += [f"{file.name}:{line}: {p}" for p in MARKERS.unmet(marked, shown.get((file.name, line), []))]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", CASES, ids=IDS)
def test_findings_match_their_snapshot(path, header_mode, corpus_results):
    rendered = render_findings(corpus_results(path, header_mode).findings, CORPUS, path)
    own = _snapshot(path, header_mode)
    if header_mode != "embedded" and rendered == render_findings(corpus_results(path).findings, CORPUS, path):
        if UPDATE_SNAPSHOTS:
            own.unlink(missing_ok=True)
        assert not own.exists(), f"{own.name} repeats the embedded header set's snapshot; delete it"
        return
    check_snapshot(own, rendered)


def test_every_snapshot_belongs_to_a_corpus_file():
    snapshots = set(FINDINGS.rglob("*.txt"))
    assert {_snapshot(p) for p in CASES} <= snapshots
    assert snapshots <= {_snapshot(p, mode) for p in CASES for mode in ("embedded", "toolkit")}


def test_corpus_is_not_empty():
    assert len(CASES) >= 5
    assert sum(case_expectations(p).total() for p in CASES) >= 10

"""Every corpus file: the findings are exactly the ones its ``expect:`` markers name."""

from __future__ import annotations

import pytest

from conftest import CORPUS, Expected, analyze, expectations

CASES = sorted(CORPUS.rglob("*.cu"))


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(CORPUS)) for p in CASES])
def test_corpus_file(path, header_mode):
    result = analyze(path, header_mode)
    assert result.analyzed, result.notices
    assert not result.notices, [n.one_line() for n in result.notices]
    got = {Expected(f.span.line, f.code, f.level.value) for f in result.findings}
    want = expectations(path)
    unexpected = sorted(got - want, key=lambda e: e.line)
    missing = sorted(want - got, key=lambda e: e.line)
    assert not unexpected and not missing, f"unexpected: {unexpected}\nmissing: {missing}"


def test_corpus_is_not_empty():
    assert len(CASES) >= 5
    assert sum(len(expectations(p)) for p in CASES) >= 10

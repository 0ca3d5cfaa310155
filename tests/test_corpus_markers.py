"""The corpus marker syntax (scripts/corpus_markers.py): what each marker asserts, and what
a line's findings must be to meet it."""

from __future__ import annotations

import pytest

from conftest import load_script

MARKERS = load_script("corpus_markers")
Marker, Shown = MARKERS.Marker, MARKERS.Shown


def parse(text: str) -> list:
    return MARKERS.line_markers(text, 7)


def test_plain_expect_items_are_counted():
    assert parse("    s[i] += s[i + 1];  // expect: CL201 warning, CL201 warning") == [
        Marker(7, "CL201", "expect", "warning"),
        Marker(7, "CL201", "expect", "warning"),
    ]


def test_column_and_message_part_with_a_comma_inside_the_quotes():
    assert parse('x = s[t * 4];  // expect: CL201 warning @9 "4-way, 4 wavefronts", CL101 note') == [
        Marker(7, "CL201", "expect", "warning", 9, "4-way, 4 wavefronts"),
        Marker(7, "CL101", "expect", "note"),
    ]


def test_marker_after_other_text_of_the_comment():
    (marker,) = parse("f(x);  // cudalint: ignore[CL401]  expect: CL001 warning")
    assert (marker.code, marker.level) == ("CL001", "warning")


def test_a_miss_beside_an_expectation_on_one_line():
    expect, miss = parse("a[j];  // expect: CL101 note  // expect-miss: CL101 warning the gather's start is loaded")
    assert expect == Marker(7, "CL101", "expect", "note")
    assert miss == Marker(7, "CL101", "expect-miss", "warning", reason="the gather's start is loaded")
    assert not miss.reported


def test_a_miss_without_a_level_is_a_miss_at_every_level():
    (miss,) = parse("acc[i] += 1;  // expect-miss: CL501 160 registers: ptxas spills 32 bytes")
    assert miss.level is None and miss.reason == "160 registers: ptxas spills 32 bytes"
    assert miss.misses("CL501", "note") and not miss.misses("CL502", "warning")


def test_known_false_positive_names_a_reported_finding_and_why():
    (marker,) = parse('if (t & 1) return;  // known false positive: CL301 warning @5 "idles" - nvcc predicates it')
    assert marker.reported and (marker.level, marker.column, marker.message) == ("warning", 5, "idles")
    assert marker.reason == "nvcc predicates it"


@pytest.mark.parametrize(
    "text",
    [
        "// expect: CL201",  # no level
        "// expect: CL201 warnng",
        "// expect: CL201 warning, and more",
        "// expect-miss: CL201 warning",  # no reason
        "// known false positive: CL301 nvcc predicates it",  # no level
        '// expect-miss: CL201 warning @4 "x" reason',  # a miss has nothing to show
        "// expect:",
    ],
)
def test_malformed_markers_are_refused(text):
    with pytest.raises(MARKERS.MarkerError, match="line 7"):
        parse("x = 1;  " + text)


def test_prose_with_expected_figures_is_not_a_marker():
    assert parse("// Expected: gld 2.00, gst 4.00.") == []


FINDING = Shown("CL201", "warning", 9, "shared load: 4-way bank conflict, 4 wavefronts per request")


def test_column_and_message_are_checked_when_given():
    assert MARKERS.unmet(parse('// expect: CL201 warning @9 "4-way bank conflict"'), [FINDING]) == []
    assert MARKERS.unmet(parse("// expect: CL201 warning"), [FINDING]) == []
    assert MARKERS.unmet(parse("// expect: CL201 warning @10"), [FINDING])
    assert MARKERS.unmet(parse('// expect: CL201 warning "2-way"'), [FINDING])


def test_each_detailed_marker_needs_a_finding_of_its_own():
    other = Shown("CL201", "warning", 30, "shared store: 2-way bank conflict")
    marked = parse('// expect: CL201 warning "bank conflict", CL201 warning @30')
    assert MARKERS.unmet(marked, [FINDING, other]) == []
    assert MARKERS.unmet(parse('// expect: CL201 warning "4-way", CL201 warning "4-way"'), [FINDING, other])


def test_a_miss_fails_once_the_tool_reports_it():
    assert MARKERS.unmet(parse("// expect-miss: CL201 warning not modelled yet"), []) == []
    (problem,) = MARKERS.unmet(parse("// expect-miss: CL201 warning not modelled yet"), [FINDING])
    assert "says it is missed" in problem
    note = Shown("CL201", "note", 9, "")
    assert MARKERS.unmet(parse("// expect-miss: CL201 warning only a note"), [note]) == []
    assert MARKERS.unmet(parse("// expect-miss: CL201 not at any level"), [note])

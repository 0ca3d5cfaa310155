"""`cudalint explain FILE:LINE[:COL]`: one warp drawn at an access or a branch, as text, SVG and JSON."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import run_cli
from cudalint.dataflow.banks import BANKS, request_wavefronts
from cudalint.figures import FigureBook, Position

ROOT = Path(__file__).resolve().parent.parent
TRANSPOSE = ROOT / "examples" / "transpose.cu"
BRANCHES = ROOT / "tests" / "corpus" / "divergence" / "branch_costs.cu"
RECORDS = ROOT / "tests" / "corpus" / "global" / "records.cu"
GATHER = ROOT / "tests" / "corpus" / "access" / "realworld_global.cu"
SVG = "{http://www.w3.org/2000/svg}"


def _explain(position: str, *options: str) -> str:
    result = run_cli("explain", position, *options)
    assert result.exit_code == 0, result.output
    assert not result.stderr
    return result.stdout


def _figures(position: str) -> list[dict]:
    return json.loads(_explain(position, "--format", "json"))["figures"]


def test_column_read_of_a_tile_draws_the_32_way_conflict_and_its_padding():
    text = _explain(f"{TRANSPOSE}:22:22", "--color", "never")
    assert "kernel transpose_shared, block 32x32x1 (launch at transpose.cu:41)" in text
    assert "address: tile + 128*threadIdx.x + 4*threadIdx.y" in text
    assert "32 wavefronts for this warp, ideal 1: 32-way bank conflict" in text
    declared, padded = text.split("warp padded as tile[32][33]")
    # Every lane of warp 0 in bank 0, each marked as in conflict.
    bank_rows = [line.split()[1:] for line in declared.splitlines() if line.strip().startswith("bank ")]
    assert bank_rows[:2] == [["0!"] * 16, ["0!"] * 16]
    assert "bank 0 delivers 32 words, to lanes 0-31" in declared
    assert padded.startswith(" (CL201's fix): 1 wavefronts (ideal 1)")
    padded_banks = [line.split()[1:] for line in padded.splitlines() if line.strip().startswith("bank ")]
    assert padded_banks == [[str(b) for b in range(16)], [str(b) for b in range(16, 32)]]
    assert "!" not in padded


def test_the_padded_picture_is_what_the_padded_kernel_does():
    """The padding drawn for `transpose_shared` is costed by the bank model exactly as the
    facts cost the same read of the tile `transpose_padded` declares padded."""
    (shared,) = _figures(f"{TRANSPOSE}:22:22")
    (padded_kernel,) = _figures(f"{TRANSPOSE}:34:22")
    proposed = shared["panels"][1]
    assert padded_kernel["panels"][0]["cost"] == proposed["cost"] == 1
    assert [lane["slots"] for lane in proposed["lanes"]] == [
        lane["slots"] for lane in padded_kernel["panels"][0]["lanes"]
    ]
    request = [lane["offset"] for lane in proposed["lanes"]]
    assert request_wavefronts(request, 4).taken == proposed["cost"]
    assert len(padded_kernel["panels"]) == 1, "a conflict-free access has nothing to pad"


def test_padding_that_breaks_a_merged_load_is_drawn_one_element_at_a_time():
    # `tile[threadIdx.x][k]` over an unrolled k is loaded 16 bytes at a time; rows of 33
    # floats no longer line up for that, so the padded warp loads single floats, one bank each.
    text = _explain(f"{ROOT / 'examples' / 'row_sums.cu'}:16:43", "--color", "never")
    assert "issued as one 16-byte\n      access per lane" in text
    assert "32 wavefronts for this warp, ideal 4: 8-way bank conflict" in text
    padded = text.split("warp padded as tile[32][33] (CL201's fix)")[1]
    assert padded.startswith(": 1 wavefronts (ideal 1)")
    assert "4-byte loads: padded rows no longer line up for one 16-byte load" in padded
    assert "!" not in padded


def test_uncoalesced_store_spreads_the_warp_over_32_sectors():
    figures = {f["location"].rsplit(":", 1)[1]: f for f in _figures(f"{TRANSPOSE}:10")}
    assert set(figures) == {"42", "25", "5"}, "all the line's accesses and its branch"
    store = figures["25"]
    assert store["kind"] == "global"
    (panel,) = store["panels"]
    assert (panel["cost"], panel["ideal"]) == (32, 4)
    assert len(panel["sectors"]) == 32
    assert all(sum(sector["used"]) == 4 and len(sector["lanes"]) == 1 for sector in panel["sectors"])
    assert store["values"].startswith("the costliest of the values tried: n = ")
    text = _explain(f"{TRANSPOSE}:10:25", "--color", "never")
    assert "32 sectors per request, ideal 4 (12% efficiency)" in text
    assert "####............................  0\n" in text


def test_coalesced_load_fills_four_sectors():
    (load,) = _figures(f"{TRANSPOSE}:10:42")
    (panel,) = load["panels"]
    assert (panel["cost"], panel["ideal"]) == (4, 4)
    assert [sector["lanes"] for sector in panel["sectors"]] == [list(range(k, k + 8)) for k in (0, 8, 16, 24)]
    assert all(all(sector["used"]) for sector in panel["sectors"])
    assert load["values"] == "", "exact: the picture holds for every n"


def test_struct_moved_in_pieces_draws_the_costliest_piece():
    (load,) = _figures(f"{RECORDS}:24:16")
    (panel,) = load["panels"]
    assert (panel["cost"], panel["ideal"]) == (32, 4)
    assert "moved as 4-byte pieces, each a request" in panel["note"]
    assert sum(sum(sector["used"]) for sector in panel["sectors"]) == 32 * 4, "4 bytes per lane"


def test_divergent_branch_shows_each_warps_lanes():
    text = _explain(f"{BRANCHES}:69", "--color", "never")
    assert "condition: ((threadIdx.x % 4) == 0)" in text
    assert "warps 0-3: 8 of 32 lanes take it" in text
    assert "lanes 0-31  " + "T..." * 8 in text
    (reduction,) = [f for f in _figures(f"{BRANCHES}:41") if f["kind"] == "branch"]
    first, rest = reduction["panels"]
    assert (first["title"], first["cost"], first["ideal"]) == ("warp 0", 16, 32)
    assert (rest["title"], rest["cost"]) == ("warps 1-3", 0)
    assert "trip 2 of the loop at line 40" in reduction["values"]


def test_data_dependent_address_is_not_drawn():
    (gather,) = [f for f in _figures(f"{GATHER}:164:14")]
    assert gather["panels"] == []
    assert gather["unavailable"] == "no picture: the address depends on an index each lane loads at run time"
    assert "no picture" in _explain(f"{GATHER}:164:14")


def test_text_fits_80_columns_and_colours_only_when_asked():
    for position in (f"{TRANSPOSE}:22", f"{TRANSPOSE}:10", f"{BRANCHES}:41"):
        plain = _explain(position, "--color", "never")
        assert "\x1b[" not in plain
        assert max(len(line) for line in plain.splitlines()) <= 80
    assert "\x1b[31m" in _explain(f"{TRANSPOSE}:22:22", "--color", "always")
    assert "\x1b[" not in run_cli("explain", f"{TRANSPOSE}:22:22", env={"NO_COLOR": "1"}).stdout


@pytest.mark.parametrize("position", [f"{TRANSPOSE}:22:22", f"{TRANSPOSE}:10:25", f"{BRANCHES}:69", f"{GATHER}:164:14"])
def test_svg_is_well_formed(position):
    drawing = ET.fromstring(_explain(position, "--format", "svg"))
    assert drawing.tag == f"{SVG}svg"
    assert drawing.find(f"{SVG}title") is not None
    if "164" not in position:
        assert len(drawing.findall(f"{SVG}rect")) >= 32, "a cell per lane at least"


def test_svg_of_a_whole_line_is_one_document():
    drawing = ET.fromstring(_explain(f"{TRANSPOSE}:22", "--format", "svg"))
    figures = drawing.findall(f"{SVG}svg")
    assert [figure.get("data-kind") for figure in figures] == ["shared", "global"]
    assert int(figures[1].get("y")) == int(figures[0].get("height"))
    assert int(drawing.get("height")) == sum(int(figure.get("height")) for figure in figures)


def test_json_holds_the_figure_model():
    (figure,) = _figures(f"{TRANSPOSE}:22:22")
    assert set(figure) == {
        "kind", "location", "source", "kernel", "block", "block_source", "subject",
        "formula", "values", "panels", "summary", "unavailable",
    }  # fmt: skip
    assert figure["block"] == [32, 32, 1]
    panel = figure["panels"][0]
    assert set(panel) == {"title", "lanes", "cost", "ideal", "sectors", "bank_ways", "note"}
    assert len(panel["bank_ways"]) == BANKS and panel["bank_ways"][0] == 32
    assert set(panel["lanes"][0]) == {"lane", "thread", "offset", "slots", "ways", "side"}
    assert panel["lanes"][31] == {"lane": 31, "thread": [31, 0, 0], "offset": 31 * 128, "slots": [0], "ways": 32,
                                  "side": ""}  # fmt: skip


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("missing.cu:3", "missing.cu:3: no such file"),
        (f"{TRANSPOSE}", "is not FILE:LINE or FILE:LINE:COLUMN"),
        (f"{TRANSPOSE}:x", "is not FILE:LINE or FILE:LINE:COLUMN"),
        (f"{TRANSPOSE}:0", "lines and columns count from 1"),
        (f"{TRANSPOSE}:400", "has 43 lines; there is no line 400"),
        (f"{TRANSPOSE}:3", "transpose.cu:3: no memory access or branch of a kernel there"),
        (f"{TRANSPOSE}:22:2", "transpose.cu:22:2: no memory access or branch of a kernel there"),
    ],
)
def test_bad_positions_get_one_line(position, message):
    result = run_cli("explain", position)
    assert result.exit_code == 2
    assert not result.stdout
    assert len(result.stderr.splitlines()) == 1 and message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_column_inside_an_access_picks_the_narrowest(snippets):
    source = "__global__ void k(float* a, const float* b) { a[threadIdx.x] = b[2 * threadIdx.x]; }\n"
    facts = snippets.facts(source)
    inside = source.index("2 * threadIdx") + 1
    (figure,) = FigureBook(facts, str(ROOT)).at(Position(facts.tu.path, 1, inside))
    assert figure.formula == "b + 8*threadIdx.x"
    assert figure.summary.startswith("8 sectors per request, ideal 4")

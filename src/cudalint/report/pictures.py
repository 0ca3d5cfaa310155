"""The figures of ``cudalint.figures`` drawn three ways: text (80 columns, ANSI colours on
request), SVG (self-contained, for the HTML report or a page of one's own) and JSON (the
figure model itself). All three draw the same figure; none computes anything of its own."""

from __future__ import annotations

import dataclasses
import json
import textwrap
from xml.sax.saxutils import escape

from cudalint.dataflow.banks import BANKS
from cudalint.dataflow.warps import SECTOR_BYTES
from cudalint.figures import Figure, Lane, Panel, Sector, lane_ranges

WIDTH = 80
LANES_PER_ROW = 16
"""Lanes per row of the text bank table: 16 cells of 4 characters fit 80 columns."""
MOST_SECTOR_ROWS = 16
"""Sectors drawn as text; the others are summed up in one line."""
MOST_BANKS_LISTED = 4
_ANSI = {"red": "31", "green": "32", "yellow": "33", "cyan": "36", "dim": "2", "bold": "1"}


# ---------------------------------------------------------------------------- text


def _painter(enabled: bool):
    def paint(text: str, style: str | None) -> str:
        return f"\x1b[{_ANSI[style]}m{text}\x1b[0m" if enabled and style else text

    return paint


def _runs(marks: list[tuple[str, str]], paint) -> str:
    """Marks and their styles, painted a run of one style at a time."""
    out, run, style = [], "", None
    for mark, mark_style in marks:
        if mark_style != style and run:
            out.append(paint(run, style))
            run = ""
        run, style = run + mark, mark_style
    return "".join(out) + (paint(run, style) if run else "")


def render_text(figures: list[Figure], color: bool = False) -> str:
    paint = _painter(color)
    return "\n".join(_figure_text(figure, paint) for figure in figures)


def _wrapped(text: str, indent: str = "  ", follow: str = "      ") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=follow, break_on_hyphens=False) or [""]


def _figure_text(figure: Figure, paint) -> str:
    block = "x".join(str(d) for d in figure.block)
    out = [paint(line, "bold") for line in _wrapped(f"{figure.location}: {figure.subject}", "")]
    out += _wrapped(f"kernel {figure.kernel}, block {block} ({figure.block_source})")
    out.append(f"  | {figure.source}")
    out += _wrapped(f"{'condition' if figure.kind == 'branch' else 'address'}: {figure.formula}")
    if figure.values:
        out += _wrapped(f"drawn for {figure.values}")
    if figure.unavailable:
        out += [paint(line, "yellow") for line in _wrapped(figure.unavailable)]
        return "\n".join(out) + "\n"
    out += _wrapped(figure.summary)
    draw = {"global": _sectors_text, "shared": _banks_text, "branch": _sides_text}[figure.kind]
    for panel in figure.panels:
        out.append("")
        out.extend(draw(panel, paint))
    return "\n".join(out) + "\n"


def _sectors_text(panel: Panel, paint) -> list[str]:
    wasted = panel.cost > panel.ideal
    out = _wrapped(f"{panel.title}: {panel.cost} sectors of 32 B (ideal {panel.ideal}); one mark per byte, # used")
    if panel.note:
        out += _wrapped(f"({panel.note})")
    out.append("   line sector  bytes                             lanes")
    previous = None
    for sector in panel.sectors[:MOST_SECTOR_ROWS]:
        if previous is not None and sector.index > previous + 1:
            out.append(
                paint(f"   {'':>4} {'':>6}  ... {_count(sector.index - previous - 1, 'sector')} not touched", "dim")
            )
        marks = _runs([("#", "red" if wasted else "green") if used else (".", "dim") for used in sector.used], paint)
        out.append(f"   {sector.index // 4:>4} {sector.index % 4:>6}  {marks}  {lane_ranges(list(sector.lanes))}")
        previous = sector.index
    rest = panel.sectors[MOST_SECTOR_ROWS:]
    if rest:
        lanes = sorted({lane for sector in rest for lane in sector.lanes})
        out.append(f"   ... {len(rest)} more sectors (lanes {lane_ranges(lanes)})")
    return out


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _banks_text(panel: Panel, paint) -> list[str]:
    if not panel.lanes:
        return _wrapped(f"{panel.title}: {panel.note}")
    legend = "; ! marks a lane in a conflict" if panel.cost > panel.ideal else ""
    out = _wrapped(f"{panel.title}: {panel.cost} wavefronts (ideal {panel.ideal}){legend}")
    if panel.note:
        out += _wrapped(f"({panel.note})")
    for first in range(0, len(panel.lanes), LANES_PER_ROW):
        row = panel.lanes[first : first + LANES_PER_ROW]
        out.append(("   lane " + "".join(f"{lane.lane:>3} " for lane in row)).rstrip())
        out.append(("   bank " + "".join(_bank_cell(lane, paint) for lane in row)).rstrip())
    out.append("   words per bank, banks 0-31 (. idle, * 10 or more):")
    out.append("     " + "".join(_ways_mark(ways, paint) for ways in panel.bank_ways))
    crowded = sorted(range(BANKS), key=lambda bank: -panel.bank_ways[bank])
    crowded = [bank for bank in crowded if panel.bank_ways[bank] > 1]
    for bank in crowded[:MOST_BANKS_LISTED]:
        lanes = [lane.lane for lane in panel.lanes if bank in lane.slots]
        out.append(f"   bank {bank} delivers {panel.bank_ways[bank]} words, to lanes {lane_ranges(lanes)}")
    if len(crowded) > MOST_BANKS_LISTED:
        out.append(f"   ... and {len(crowded) - MOST_BANKS_LISTED} more banks in conflict")
    return out


def _bank_cell(lane: Lane, paint) -> str:
    if lane.offset is None:
        return "  - "
    # A lane of a wide word covers several banks: its first stands for them.
    cell = f"{lane.slots[0]:>3}" + ("!" if lane.ways > 1 else " ")
    return paint(cell, "red" if lane.ways > 1 else "green")


def _ways_mark(ways: int, paint) -> str:
    if ways == 0:
        return paint(".", "dim")
    return paint(str(ways) if ways < 10 else "*", "red" if ways > 1 else "green")


_SIDE_MARKS = {"taken": ("T", "green"), "not taken": (".", "yellow"), "off": ("-", "dim")}


def _sides_text(panel: Panel, paint) -> list[str]:
    reaching = panel.ideal
    out = _wrapped(f"{panel.title}: {panel.cost} of {reaching} lanes take it (T takes, . does not, - not there)")
    first, last = panel.lanes[0].thread, panel.lanes[-1].thread
    marks = _runs([_SIDE_MARKS[lane.side] for lane in panel.lanes], paint)
    out.append(f"   lanes 0-{len(panel.lanes) - 1}  {marks}")
    out.append(f"   threadIdx {first} to {last}" + (" in the first of them" if panel.title.startswith("warps") else ""))
    return out


# ---------------------------------------------------------------------------- SVG

CELL = 20
LEFT = 60
SVG_WIDTH = LEFT + 32 * CELL + 20
GAP_SHARE = 0.4
"""Width of the mark for untouched sectors, in sectors."""
# Classes, not attributes, on the many small shapes: the figures of a large HTML report stay small.
SVG_STYLE = (
    ".cl-t{font:10px monospace;fill:#222}.cl-m{text-anchor:middle}.cl-b{font-weight:bold}"
    ".cl-ok{fill:#4caf50}.cl-bad{fill:#e53935}.cl-idle{fill:#e0e0e0}.cl-taken{fill:#43a047}"
    ".cl-not-taken{fill:#fb8c00}.cl-off{fill:#e0e0e0}.cl-w{fill:#e53935;font:10px monospace;text-anchor:middle}"
    "rect.cl-c{stroke:#fff}line.cl-ok{stroke:#4caf50}line.cl-bad{stroke:#e53935}line.cl-g{stroke:#777}"
    "line.cl-edge{stroke:#333}"
)


def render_svg(figure: Figure, heading: bool = True) -> str:
    """The figure as one self-contained ``<svg>`` element; without ``heading``, without the
    lines that name the place and repeat the summary (the HTML report shows them beside it)."""
    return _svg(figure, heading, 0)[0]


def render_svg_document(figures: list[Figure]) -> str:
    """One SVG document of the figures, one under the other."""
    if len(figures) == 1:
        return render_svg(figures[0]) + "\n"
    drawings, top = [], 0
    for figure in figures:
        drawing, height = _svg(figure, True, top)
        drawings.append(drawing)
        top += height
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{SVG_WIDTH}" height="{top}" '
        f'viewBox="0 0 {SVG_WIDTH} {top}">' + "".join(drawings) + "</svg>\n"
    )


def _svg(figure: Figure, heading: bool, top: int) -> tuple[str, int]:
    """The figure's ``<svg>`` element, placed ``top`` pixels down inside an enclosing one, and its height."""
    parts: list[str] = []
    y = 4
    if heading:
        y += 14
        parts.append(_text(8, y, f"{figure.location}  {figure.subject}", "cl-b"))
        y += 16
        parts.append(_text(8, y, figure.unavailable or figure.summary))
        if figure.values:
            y += 14
            parts.append(_text(8, y, f"drawn for {figure.values}"))
    draw = {"global": _sectors_svg, "shared": _banks_svg, "branch": _sides_svg}[figure.kind]
    for panel in figure.panels:
        drawn, y = draw(panel, y + 10)
        parts.extend(drawn)
    # Without the heading the drawing names no place: findings that draw the same warp share it.
    label = escape((figure.location + ": " if heading else "") + (figure.unavailable or figure.summary))
    height = round(y + 10)
    placed = f'y="{top}" ' if top else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cudalint-figure" data-kind="{figure.kind}" {placed}'
        f'width="{SVG_WIDTH}" height="{height}" viewBox="0 0 {SVG_WIDTH} {height}" role="img">'
        f"<title>{label}</title><style>{SVG_STYLE}</style>" + "".join(parts) + "</svg>",
        height,
    )


def _text(x: float, y: float, text: object, classes: str = "") -> str:
    return f'<text x="{x:g}" y="{y:g}" class="cl-t {classes}">{escape(str(text))}</text>'


def _rect(x: float, y: float, w: float, h: float, kind: str) -> str:
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" class="cl-c cl-{kind}"/>'


def _bar(x: float, y: float, w: float, h: float, kind: str) -> str:
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" class="cl-{kind}"/>'


def _line(x1: float, y1: float, x2: float, y2: float, kind: str) -> str:
    return f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" class="cl-{kind}"/>'


def _lane_row(lanes: tuple[Lane, ...], y: float, fill_of) -> list[str]:
    parts = [_text(8, y + 14, "lane")]
    for lane in lanes:
        x = LEFT + lane.lane * CELL
        parts.append(_rect(x, y, CELL, CELL, fill_of(lane)))
        parts.append(_text(x + CELL / 2, y + 14, lane.lane, "cl-m"))
    return parts


def _banks_svg(panel: Panel, y: float) -> tuple[list[str], float]:
    parts = [_text(8, y + 10, f"{panel.title}: {panel.cost} wavefronts (ideal {panel.ideal}) {panel.note}")]
    if not panel.lanes:
        return parts, y + 16
    top = y + 18
    parts += _lane_row(panel.lanes, top, _bank_lane_fill)
    bottom = top + 70
    for lane in panel.lanes:
        for bank in lane.slots:
            color = "bad" if lane.ways > 1 else "ok"
            x1 = LEFT + lane.lane * CELL + CELL / 2
            parts.append(_line(x1, top + CELL, LEFT + bank * CELL + CELL / 2, bottom, color))
    parts.append(_text(8, bottom + 14, "bank"))
    for bank, ways in enumerate(panel.bank_ways):
        x = LEFT + bank * CELL
        parts.append(_rect(x, bottom, CELL, CELL, "idle" if ways == 0 else "ok" if ways == 1 else "bad"))
        parts.append(_text(x + CELL / 2, bottom + 14, bank, "cl-m"))
        if ways > 1:
            parts.append(f'<text x="{x + CELL / 2:g}" y="{bottom + CELL + 12:g}" class="cl-w">{ways}x</text>')
    return parts, bottom + CELL + 16


def _bank_lane_fill(lane: Lane) -> str:
    return "idle" if lane.offset is None else "ok" if lane.ways <= 1 else "bad"


def _sector_slots(sectors: tuple[Sector, ...]) -> list[Sector | None]:
    """The sectors in order with a None between two that are not neighbours (a gap)."""
    slots: list[Sector | None] = []
    for sector in sectors:
        if slots and slots[-1] is not None and sector.index > slots[-1].index + 1:
            slots.append(None)
        slots.append(sector)
    return slots


def _used_runs(used: tuple[bool, ...]) -> list[tuple[int, int]]:
    """(first byte, bytes) of each run of used bytes."""
    runs: list[tuple[int, int]] = []
    for byte, on in enumerate(used):
        if not on:
            continue
        if runs and sum(runs[-1]) == byte:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((byte, 1))
    return runs


def _sectors_svg(panel: Panel, y: float) -> tuple[list[str], float]:
    wasted = panel.cost > panel.ideal
    title = f"{panel.title}: {panel.cost} sectors (ideal {panel.ideal}) {panel.note}"
    parts = [_text(8, y + 10, title)]
    top = y + 18
    running = "bad" if wasted else "ok"
    parts += _lane_row(panel.lanes, top, lambda lane: "idle" if lane.offset is None else running)
    slots = _sector_slots(panel.sectors)
    span = 32 * CELL
    gaps = slots.count(None)
    slot_width = min(4 * CELL * 2, span / max(1, len(slots) - gaps + GAP_SHARE * gaps))
    byte_width = slot_width / SECTOR_BYTES
    bottom = top + 70
    x_of: dict[int, float] = {}
    parts.append(_text(8, bottom + 14, "sector"))
    x = LEFT
    for sector in slots:
        if sector is None:
            parts.append(_text(x + GAP_SHARE * slot_width / 2, bottom + 14, "..", "cl-m"))
            x += GAP_SHARE * slot_width
            continue
        x_of[sector.index] = x
        parts.append(_rect(x, bottom, slot_width, CELL, "idle"))
        for first, count in _used_runs(sector.used):
            parts.append(_bar(x + first * byte_width, bottom + 2, count * byte_width, CELL - 4, running))
        if sector.index % 4 == 0:
            parts.append(_line(x, bottom - 4, x, bottom + CELL + 4, "edge"))
        x += slot_width
    for lane in panel.lanes:
        if lane.offset is None or lane.slots[0] not in x_of:
            continue
        x2 = x_of[lane.slots[0]] + (lane.offset % SECTOR_BYTES) * byte_width
        parts.append(_line(LEFT + lane.lane * CELL + CELL / 2, top + CELL, x2, bottom, "g"))
    parts.append(_text(LEFT, bottom + CELL + 12, "dark ticks: 128-byte line boundaries; filled: bytes the warp uses"))
    return parts, bottom + CELL + 18


def _sides_svg(panel: Panel, y: float) -> tuple[list[str], float]:
    legend = "green: takes it, orange: does not, grey: not there"
    parts = [_text(8, y + 10, f"{panel.title}: {panel.cost} of {panel.ideal} lanes take it ({legend})")]
    top = y + 16
    parts += _lane_row(panel.lanes, top, lambda lane: lane.side.replace(" ", "-"))
    return parts, top + CELL + 4


# ---------------------------------------------------------------------------- JSON


def render_json(figures: list[Figure]) -> str:
    return json.dumps({"figures": [dataclasses.asdict(figure) for figure in figures]}, indent=2) + "\n"

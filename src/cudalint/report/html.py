"""One self-contained HTML page: a summary per file and per kernel, then each finding with
its source lines, message, fix and, for memory and branch findings, the picture of the warp
(``report.pictures``'s SVG).

Built to stay quick with a thousand findings: files and findings are collapsed
``<details>``; each distinct picture is written once, in an inert ``<template>``, and put
into a finding only when the finding is opened (or on ``#expand-all``, which opens every
finding at load, for printing and for headless browsers). A small inline script filters by
rule and level. Nothing is fetched: no network, no external asset.
"""

from __future__ import annotations

import html
from collections import Counter, defaultdict

from cudalint import __version__
from cudalint.diagnostics import Finding, Level
from cudalint.engine import RunResult
from cudalint.figures import PICTURED_RULES
from cudalint.report import ReportOptions, display_path, source_line
from cudalint.report.pictures import render_svg
from cudalint.rules import rule_name

CONTEXT_LINES = 1
"""Source lines shown before and after a finding's own."""
MOST_SOURCE_LINES = 8

_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;max-width:1100px}
h1{font-size:1.4em}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}th{background:#f4f4f4}
td.n{text-align:right}
details.file{border:1px solid #ccc;border-radius:4px;margin:.4em 0;padding:.2em .6em}
details.file>summary{font-weight:bold;cursor:pointer}
details.finding{border-left:4px solid #999;margin:.4em 0 .4em .5em;padding:.1em .6em;background:#fafafa}
details.finding>summary{cursor:pointer}
.error{border-left-color:#d32f2f!important}.warning{border-left-color:#f9a825!important}
.note{border-left-color:#0288d1!important}
.lvl{font-weight:bold;text-transform:uppercase;font-size:.8em}
.lvl.error{color:#d32f2f}.lvl.warning{color:#b26a00}.lvl.note{color:#0277bd}
pre.src{background:#272822;color:#eee;padding:.4em;overflow:auto;font-size:12px}
pre.src .hit{background:#5a4a00;display:block}
.fix{color:#2e7d32}.nofig{color:#666;font-style:italic}
.measured{color:#4a148c}.measured.clean{color:#555}
.figure svg{max-width:100%;height:auto;display:block;margin:.3em 0}
select{max-width:18em}
#filters{position:sticky;top:0;background:#fff;padding:.4em 0;border-bottom:1px solid #ddd}
[hidden]{display:none!important}
"""

_SCRIPT = """
(function(){
  function fill(finding){
    var box=finding.querySelector('.figure');
    if(!box||box.dataset.filled)return;
    box.dataset.filled='1';
    (box.dataset.figures||'').split(' ').forEach(function(id){
      var t=document.getElementById(id);
      if(t)box.appendChild(t.content.cloneNode(true));
    });
  }
  document.addEventListener('toggle',function(e){
    if(e.target.classList&&e.target.classList.contains('finding')&&e.target.open)fill(e.target);
  },true);
  var rule=document.getElementById('rule'),level=document.getElementById('level');
  var shown=document.getElementById('shown');
  function apply(){
    var n=0;
    document.querySelectorAll('details.file').forEach(function(file){
      var visible=0;
      file.querySelectorAll('details.finding').forEach(function(f){
        var ok=(!rule.value||f.dataset.rule===rule.value)&&(!level.value||f.dataset.level===level.value);
        f.hidden=!ok;if(ok)visible++;
      });
      file.hidden=!visible;n+=visible;
    });
    shown.textContent=n+' shown';
  }
  rule.addEventListener('change',apply);level.addEventListener('change',apply);
  document.getElementById('expand').addEventListener('click',function(){
    document.querySelectorAll('details.file,details.finding').forEach(function(d){
      if(!d.hidden){d.open=true;if(d.classList.contains('finding'))fill(d);}
    });
  });
  if(location.hash==='#expand-all'){
    document.querySelectorAll('details.file,details.finding').forEach(function(d){d.open=true;});
    document.querySelectorAll('details.finding').forEach(fill);
  }
  apply();
})();
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def render_html(result: RunResult, options: ReportOptions) -> str:
    findings = result.findings
    figures = options.figures or {}
    pictures: dict[str, str] = {}  # SVG -> template id: a picture drawn by many findings is written once
    by_file: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        by_file[finding.path].append(finding)
    cache: dict[str, list[str]] = {}
    body = [
        f"<h1>cudalint report</h1><p>{_e(_headline(result))}</p>",
        _summary(by_file, options.root),
        _filters(findings),
    ]
    for number, (path, found) in enumerate(sorted(by_file.items())):
        items = "".join(
            _finding(f"f{number}-{index}", finding, figures.get(finding), pictures, cache, options.root)
            for index, finding in enumerate(found)
        )
        body.append(
            f'<details class="file"><summary>{_e(display_path(path, options.root))} '
            f"({len(found)} finding{'s' if len(found) != 1 else ''})</summary>{items}</details>"
        )
    notices = [notice.one_line() for notice in result.notices]
    if notices:
        body.append("<h2>Notices</h2><ul>" + "".join(f"<li>{_e(n)}</li>" for n in notices) + "</ul>")
    templates = "".join(f'<template id="{ident}">{svg}</template>' for svg, ident in pictures.items())
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>cudalint report</title><style>{_STYLE}</style></head><body>"
        + "".join(body)
        + templates
        + f"<p><small>cudalint {_e(__version__)}</small></p><script>{_SCRIPT}</script></body></html>\n"
    )


def _headline(result: RunResult) -> str:
    findings = result.findings
    levels = Counter(f.level for f in findings)
    detail = ", ".join(f"{levels[level]} {level.value}s" for level in Level if levels[level])
    files = len({f.path for f in findings})
    analyzed = sum(1 for r in result.files if r.analyzed)
    if not findings:
        return f"No findings in {analyzed} analyzed files."
    return f"{len(findings)} findings ({detail}) in {files} of {analyzed} analyzed files."


def _counts_row(label: str, found: list[Finding]) -> str:
    levels = Counter(f.level for f in found)
    cells = "".join(f'<td class="n">{levels[level] or ""}</td>' for level in Level)
    return f'<tr><td>{_e(label)}</td><td class="n">{len(found)}</td>{cells}</tr>'


def _summary(by_file: dict[str, list[Finding]], root: str) -> str:
    head = "<tr><th>{}</th><th>findings</th>" + "".join(f"<th>{level.value}s</th>" for level in Level) + "</tr>"
    files = "".join(_counts_row(display_path(path, root), found) for path, found in sorted(by_file.items()))
    kernels: dict[tuple[str, str], list[Finding]] = defaultdict(list)
    for path, found in by_file.items():
        for finding in found:
            kernels[(display_path(path, root), finding.function or "(file scope)")].append(finding)
    kernel_rows = "".join(
        _counts_row(f"{function}  ({path})", found) for (path, function), found in sorted(kernels.items())
    )
    return (
        f'<details open class="summary"><summary>Per file</summary><table>{head.format("file")}{files}'
        "</table></details>"
        f'<details class="summary"><summary>Per kernel ({len(kernels)})</summary><table>'
        f"{head.format('kernel or function')}{kernel_rows}</table></details>"
    )


def _filters(findings: list[Finding]) -> str:
    rules = sorted({f.code for f in findings})
    rule_options = "".join(f'<option value="{code}">{code} {_e(rule_name(code))}</option>' for code in rules)
    level_options = "".join(f'<option value="{level.value}">{level.value}</option>' for level in Level)
    return (
        '<div id="filters">Rule <select id="rule"><option value="">all</option>'
        f'{rule_options}</select> Level <select id="level"><option value="">all</option>{level_options}'
        '</select> <button id="expand" type="button">Expand all</button> <span id="shown"></span></div>'
    )


def _finding(ident: str, finding: Finding, figures, pictures: dict[str, str], cache: dict, root: str) -> str:
    span = finding.span
    where = f"{display_path(span.file, root)}:{span.line}:{span.column}"
    level = finding.level.value
    parts = [
        f'<details class="finding {level}" id="{ident}" data-rule="{finding.code}" data-level="{level}">'
        f'<summary><span class="lvl {level}">{level}</span> {finding.code} {_e(rule_name(finding.code))} '
        f"&middot; line {span.line}" + (f" &middot; {_e(finding.function)}" if finding.function else "") + "</summary>",
        f"<p><code>{_e(where)}</code></p>",
        _source(span, cache),
        f'<p class="message">{_e(finding.message)}</p>',
    ]
    measured = finding.properties.get("measured")
    if measured:
        parts.append(_measured(measured))
    if finding.fix is not None:
        edits = ", ".join(f"<code>{_e(edit.replacement)}</code>" for edit in finding.fix.edits)
        parts.append(f'<p class="fix">Fix: {_e(finding.fix.description)}' + (f": {edits}" if edits else "") + "</p>")
    if figures is not None or finding.code in PICTURED_RULES:
        parts.append(_figures(figures or [], pictures))
    parts.append("</details>")
    return "".join(parts)


MEASURED_FIGURES = (
    ("inst", "{:g} warp instructions executed"),
    ("gsec", "{:g} L2 sectors"),
    ("gideal", "{:g} ideal"),
    ("gworst", "worst access {:g}x its ideal sectors"),
    ("swf", "{:g} shared wavefronts"),
    ("sideal", "{:g} ideal"),
    ("sworst", "worst access {:g}x its ideal wavefronts"),
    ("bra", "{:g} branch executions"),
    ("div", "{:g} divergent"),
    ("thr", "{:g} active thread instructions"),
    ("pred", "{:g} predicated on"),
    ("fp64", "{:g} fp64 instructions"),
    ("cvt64", "{:g} float-to-double conversions"),
    ("local", "{:g} local-memory instructions"),
)
"""The figures of a measured line the report shows (when not zero), in reading order."""


def _measured(measured: dict) -> str:
    """The line's measured figures (``cudalint check --profile``) and the verdict."""
    figures = measured.get("figures", {})
    shown = ", ".join(label.format(figures[key]) for key, label in MEASURED_FIGURES if figures.get(key))
    verdict = f"{measured.get('class', '')} hazard" if measured.get("hazard") else "clean in this run"
    kind = "measured" if measured.get("hazard") else "measured clean"
    return f'<p class="{kind}">Measured ({_e(measured.get("source", ""))}): {_e(verdict)}; {_e(shown)}</p>'


def _figures(figures, pictures: dict[str, str]) -> str:
    drawn, reasons = [], []
    for figure in figures:
        if figure.unavailable:
            reasons.append(figure.unavailable)
            continue
        svg = render_svg(figure, heading=False)
        ident = pictures.setdefault(svg, f"p{len(pictures)}")
        drawn.append((ident, figure))
    named = len(drawn) > 1  # Several pictures (a line's accesses in several kernels): say which is which.
    text = "".join(
        f"<p>{_e(figure.location) + ': ' if named else ''}{_e(figure.summary)}"
        + (f" (drawn for {_e(figure.values)})" if figure.values else "")
        + "</p>"
        for _, figure in drawn
    )
    text += "".join(f'<p class="nofig">{_e(reason)}</p>' for reason in reasons)
    if not figures:
        text += '<p class="nofig">no picture: the facts behind this finding could not be drawn</p>'
    ids = " ".join(ident for ident, _ in drawn)
    return f'<div class="figure" data-figures="{ids}">{text}</div>'


def _source(span, cache: dict) -> str:
    first = max(1, span.line - CONTEXT_LINES)
    last = min(span.end_line + CONTEXT_LINES, first + MOST_SOURCE_LINES - 1)
    rows = []
    for number in range(first, last + 1):
        text = source_line(span.file, number, cache)
        if text is None:
            break
        hit = span.line <= number <= span.end_line
        row = f"{number:>5} | {_e(text)}"
        rows.append(f'<span class="hit">{row}</span>' if hit else row + "\n")
    return f'<pre class="src">{"".join(rows)}</pre>' if rows else ""

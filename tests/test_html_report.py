"""`cudalint check --format html`: one self-contained page, a picture for each memory and
branch finding, and a structure that stays small and collapsed with a thousand findings."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PICTURED = {"CL101", "CL102", "CL201", "CL301", "CL302"}


class Page(HTMLParser):
    """The page's findings (their attributes and the markup inside them) and its picture templates."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.findings: list[dict] = []
        self.templates: dict[str, str] = {}
        self._stack: list[tuple[str, dict]] = []
        self._template: str | None = None
        self.feed(text)
        self.text = text

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "details" and "finding" in (attributes.get("class") or "").split():
            self.findings.append({**attributes, "figures": None, "svg": False})
        if tag == "template":
            self._template = attributes["id"]
            self.templates[self._template] = ""
        if self._template is not None and tag == "svg":
            self.templates[self._template] += "<svg"
        if tag == "div" and attributes.get("class") == "figure" and self.findings:
            self.findings[-1]["figures"] = attributes.get("data-figures", "").split()
        if tag == "svg" and self.findings and self._template is None:
            self.findings[-1]["svg"] = True

    def handle_endtag(self, tag):
        if tag == "template":
            self._template = None


def _report(tmp_path: Path, *paths: Path) -> str:
    output = tmp_path / "report.html"
    result = run_cli("check", *paths, "--format", "html", "-o", output, "--no-cache", "--time-limit", "0")
    assert result.exit_code == 1, result.output
    return output.read_text(encoding="utf-8")


def _no_external_assets(text: str) -> None:
    assert "<link" not in text and "@import" not in text and "url(" not in text
    assert not re.search(r"\b(src|href)=", text)
    assert set(re.findall(r"https?://[^\s\"'<>]+", text)) <= {"http://www.w3.org/2000/svg"}


def test_report_of_the_examples_pictures_every_memory_and_branch_finding(tmp_path):
    text = _report(tmp_path, EXAMPLES)
    assert text.startswith("<!DOCTYPE html>")
    _no_external_assets(text)
    page = Page(text)
    rules = sorted(f["data-rule"] for f in page.findings)
    assert rules == ["CL101", "CL201", "CL201", "CL301", "CL401", "CL401"]
    for finding in page.findings:
        if finding["data-rule"] in PICTURED:
            assert finding["figures"], finding
            assert all(page.templates[ident] == "<svg" for ident in finding["figures"])
        else:
            assert finding["figures"] is None
    pictures = []
    for conflict in (f for f in page.findings if f["data-rule"] == "CL201"):
        (drawing,) = conflict["figures"]
        picture = text[text.index(f'<template id="{drawing}">') :]
        pictures.append(picture[: picture.index("</template>")])
    assert any("32x" in p and "tile[32][33]" in p for p in pictures), "transpose's conflict and the padding"
    # The summary tables and the filter.
    assert ">examples/transpose.cu</td>" in text and ">transpose_shared  (examples/transpose.cu)</td>" in text
    assert '<option value="CL201">CL201 shared-bank-conflict</option>' in text


def _many_findings_source(kernels: int) -> str:
    """Kernels of one 32-thread warp, each with 19 findings: 6 strided stores (CL101), 5
    column reads of a shared tile (CL201), 4 divergent branches (CL301), 4 fp64 multiplies (CL401)."""
    body = [f"    out[threadIdx.x * {32 + j}] = in[threadIdx.x];\n" for j in range(6)]
    body += [f"    out[{j} + threadIdx.x] = tile[threadIdx.x][{j}];\n" for j in range(5)]
    body += [
        f"    if ((threadIdx.x + {j}) % 2) {{ out[threadIdx.x + {j}] = in[threadIdx.x] * out[threadIdx.x + 64]; "
        f"out[threadIdx.x + 64] = sinf(in[threadIdx.x + {j + 1}]); }}\n"
        for j in range(4)
    ]
    body += [f"    out[threadIdx.x + {j + 128}] = in[threadIdx.x + {j}] * {j}.1;\n" for j in range(4)]
    kernel = (
        "__global__ void k{i}(float* out, const float* in) {{\n"
        "    __shared__ float tile[32][32];\n"
        "    tile[threadIdx.x][0] = in[threadIdx.x];\n"
        "    __syncthreads();\n" + "".join(body).replace("{", "{{").replace("}", "}}") + "}}\n"
    )
    launches = "".join(f"    k{i}<<<1, 32>>>(o, i);\n" for i in range(kernels))
    return (
        "#include <cuda_runtime.h>\n"
        + "".join(kernel.format(i=i) for i in range(kernels))
        + f"void run(float* o, const float* i) {{\n{launches}}}\n"
    )


def test_a_thousand_findings_stay_collapsed_small_and_pictured(tmp_path):
    source = tmp_path / "many.cu"
    source.write_text(_many_findings_source(53), encoding="utf-8")
    text = _report(tmp_path, source)
    page = Page(text)
    assert len(page.findings) >= 1000
    assert {f["data-rule"] for f in page.findings} == {"CL101", "CL201", "CL301", "CL401"}
    # Collapsed: no finding open, no picture drawn until one is opened.
    assert not any("open" in f for f in page.findings)
    assert not any(f["svg"] for f in page.findings)
    pictured = [f for f in page.findings if f["data-rule"] in PICTURED]
    assert all(f["figures"] and all(i in page.templates for i in f["figures"]) for f in pictured)
    # Findings that draw the same warp share one picture: a few dozen at most, whatever the count.
    assert len(page.templates) <= 40
    assert len(text.encode()) < 1500 * len(page.findings)
    assert text.count("<script>") == 1 and text.count("<style>") == 1 + len(page.templates)

"""The HTML report in a real browser: headless Chromium opens the report of examples/ with
every finding expanded, and each memory and branch finding shows its picture.

Skipped where Chromium is not installed (.ci/run installs Debian's `chromium` package
where apt-get works)."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from conftest import run_cli
from test_html_report import PICTURED, Page

ROOT = Path(__file__).resolve().parent.parent
BROWSER_SECONDS = 120


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None and os.access("/usr/bin/chromium", os.X_OK):
        found = "/usr/bin/chromium"
    if found is None:
        pytest.skip("chromium is not installed: no browser to render the HTML report in (.ci/run installs it)")
    return found


def _headless(browser: str, profile: Path, *arguments: str) -> subprocess.CompletedProcess:
    command = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        *arguments,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=BROWSER_SECONDS, check=False)


def _png_pixels(path: Path) -> tuple[int, int, bytes]:
    """Width, height and the decompressed (still filtered) image data of a PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, width, height, image = 8, 0, 0, b""
    while position < len(data):
        (length,) = struct.unpack(">I", data[position : position + 4])
        kind = data[position + 4 : position + 8]
        chunk = data[position + 8 : position + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", chunk[:8])
        elif kind == b"IDAT":
            image += chunk
        position += 12 + length
    return width, height, zlib.decompress(image)


def test_every_memory_and_branch_finding_shows_its_picture(tmp_path):
    browser = _chromium()
    report = tmp_path / "report.html"
    result = run_cli("check", ROOT / "examples", "--format", "html", "-o", report, "--no-cache")
    assert result.exit_code == 1, result.output
    url = report.as_uri() + "#expand-all"

    dumped = _headless(browser, tmp_path / "profile-dom", "--dump-dom", url)
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    page = Page(dumped.stdout)
    pictured = [f for f in page.findings if f["data-rule"] in PICTURED]
    assert {f["data-rule"] for f in pictured} == {"CL101", "CL201", "CL301"}
    for finding in page.findings:
        # The script placed each picture inside its finding; other findings have none.
        assert finding["svg"] == (finding["data-rule"] in PICTURED), finding

    screenshot = tmp_path / "report.png"
    shot = _headless(browser, tmp_path / "profile-shot", f"--screenshot={screenshot}", "--window-size=1000,1400", url)
    assert shot.returncode == 0 and screenshot.is_file(), shot.stderr[-2000:]
    width, height, pixels = _png_pixels(screenshot)
    assert (width, height) == (1000, 1400)
    # A blank page compresses to a handful of values; text, tables and pictures do not.
    assert len(set(pixels)) > 64

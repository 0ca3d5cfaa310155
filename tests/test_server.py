"""``cudalint server`` driven over standard input and output by a language client."""

from __future__ import annotations

import asyncio
import dataclasses
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import run_cli
from cudalint.server import AnalysisCancelled, AnalysisThread
from cudalint.server.analysis import Workspace, analyze

# A stride-2 load (CL101: half of each sector wasted) and a double constant that cannot be
# rounded to float (CL401, with a fix).
STRIDED = """\
__global__ void scale(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[2 * i] * 0.1;
    }
}

void launch(const float* in, float* out, int n) {
    scale<<<(n + 255) / 256, 256>>>(in, out, n);
}
"""
LOAD_LINE = 3  # 0-based line of the strided load
FIXED = STRIDED.replace("in[2 * i] * 0.1", "in[i] * 0.1f")
# A name declared nowhere and a declaration without its value: clang recovers the rest.
BROKEN = """\
__global__ void strided(const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[2 * i] + undeclared_scale;
    int x = ;
}
"""
WAIT = 60  # seconds: generous for a loaded machine; a test normally takes about one


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "cudalint", "server", "--headers", "embedded"])
)
async def client(lsp_client: LanguageClient):
    capabilities = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                related_information=True, code_description_support=True, version_support=True
            ),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(value_set=list(types.CodeActionKind))
                ),
                is_preferred_support=True,
            ),
        ),
        window=types.WindowClientCapabilities(work_done_progress=True),
    )
    await lsp_client.initialize_session(types.InitializeParams(capabilities=capabilities))
    yield
    await lsp_client.shutdown_session()


async def published(
    client: LanguageClient, uri: str, wanted: Callable[[list[types.Diagnostic]], bool] = lambda _: True
) -> list[types.Diagnostic]:
    """The diagnostics published for ``uri`` once they are as ``wanted`` (a test fails on
    the time limit when they never are)."""

    async def poll() -> list[types.Diagnostic]:
        while (found := client.diagnostics.get(uri)) is None or not wanted(found):
            await asyncio.sleep(0.05)
        return found

    return await asyncio.wait_for(poll(), WAIT)


def open_file(client: LanguageClient, path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="cuda", version=1, text=text))
    )
    return uri


def change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def codes(diagnostics: list[types.Diagnostic]) -> list[str | None]:
    return sorted(str(d.code) for d in diagnostics if d.code is not None)


def has(*wanted: str) -> Callable[[list[types.Diagnostic]], bool]:
    return lambda diagnostics: codes(diagnostics) == sorted(wanted)


@pytest.mark.asyncio
async def test_diagnostics_follow_the_unsaved_buffer_and_the_save(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "scale.cu"
    uri = open_file(client, path, STRIDED)
    found = await published(client, uri)
    assert codes(found) == ["CL101", "CL401"]
    strided = next(d for d in found if d.code == "CL101")
    assert strided.range.start.line == LOAD_LINE
    assert strided.severity == types.DiagnosticSeverity.Warning
    assert strided.source == "cudalint"
    assert strided.code_description.href.endswith("docs/rules/CL101.md")

    # Fixed in the editor, not on disk: the buffer is what is analyzed.
    change(client, uri, 2, FIXED)
    await published(client, uri, has())
    assert path.read_text(encoding="utf-8") == STRIDED

    # Saved: analyzed from the file, the same.
    path.write_text(FIXED, encoding="utf-8")
    client.diagnostics.pop(uri)
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri=uri)))
    assert codes(await published(client, uri)) == []


@pytest.mark.asyncio
async def test_hover_shows_the_address_formula_and_cost(client: LanguageClient, tmp_path: Path):
    uri = open_file(client, tmp_path / "scale.cu", STRIDED)
    await published(client, uri)
    column = STRIDED.splitlines()[LOAD_LINE].index("in[2")
    result = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(LOAD_LINE, column + 3))
    )
    assert result is not None and result.contents.kind == types.MarkupKind.Markdown
    text = " ".join(result.contents.value.split())
    assert "global load 4B" in text
    assert "threadIdx.x" in text and "lane stride 8 B" in text
    assert "blockDim 256 (launch" in text
    assert "sectors of 32 B" in text and "lanes" in text, "one warp drawn as `cudalint explain` draws it"
    too_wide = [line for line in result.contents.value.splitlines()[1:] if len(line) > 80]
    assert not too_wide, "an 80-column float shows every line unbroken"
    branch = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(LOAD_LINE - 1, 5))
    )
    words = " ".join(branch.contents.value.split())  # Lines are wrapped at 80 columns.
    assert "if (" in words and "bounds guard" in words
    # An fp64 constant: no access nor branch, but its finding and what its rule is about.
    constant = STRIDED.splitlines()[LOAD_LINE].index("0.1")
    fp64 = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(LOAD_LINE, constant + 1))
    )
    assert "**CL401**" in fp64.contents.value and "0.1" in fp64.contents.value
    # Between accesses, nothing.
    assert (
        await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(LOAD_LINE + 3, 0))
        )
        is None
    )


@pytest.mark.asyncio
async def test_code_actions_fix_and_suppress(client: LanguageClient, tmp_path: Path):
    uri = open_file(client, tmp_path / "scale.cu", STRIDED)
    await published(client, uri)
    line = types.Position(LOAD_LINE, 0)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri=uri), types.Range(line, line), types.CodeActionContext(diagnostics=[])
        )
    )
    titles = {action.title: action for action in actions}
    fix = next(action for title, action in titles.items() if title.startswith("CL401:"))
    assert "(unsafe fix)" in fix.title and fix.kind == "quickfix.unsafe" and not fix.is_preferred
    (edit,) = fix.edit.changes[uri]
    assert edit.new_text == "0.1f"
    assert STRIDED.splitlines()[LOAD_LINE][edit.range.start.character : edit.range.end.character] == "0.1"

    on_line = titles["Suppress CL101 on this line"].edit.changes[uri][0]
    assert on_line.new_text == "  // cudalint: ignore[CL101]"
    assert on_line.range.start == types.Position(LOAD_LINE, len(STRIDED.splitlines()[LOAD_LINE]))
    in_file = titles["Suppress CL401 in this file"].edit.changes[uri][0]
    assert in_file.new_text == "// cudalint: ignore-file[CL401]\n" and in_file.range.start == types.Position(0, 0)

    # Applied, the suppressions silence their findings.
    lines = STRIDED.splitlines(keepends=True)
    lines[LOAD_LINE] = lines[LOAD_LINE].rstrip("\n") + on_line.new_text + "\n"
    change(client, uri, 2, in_file.new_text + "".join(lines))
    await published(client, uri, has())


@pytest.mark.asyncio
async def test_a_broken_file_gets_recovered_findings_and_a_notice(client: LanguageClient, tmp_path: Path):
    uri = open_file(client, tmp_path / "broken.cu", BROKEN)
    found = await published(client, uri)
    assert codes(found) == ["CL101"]
    (notice,) = [d for d in found if d.code is None]
    assert notice.message.startswith("analysis incomplete: use of undeclared identifier 'undeclared_scale'")
    assert notice.range.start.line == 2

    # Emptied, as a new document starts: nothing to say of it (no "empty file" error), and
    # the server carries on.
    change(client, uri, 2, "   \n")
    assert not await published(client, uri, lambda found: not found)
    change(client, uri, 3, STRIDED)
    await published(client, uri, has("CL101", "CL401"))


@pytest.mark.asyncio
async def test_configuration_changes_are_picked_up(client: LanguageClient, tmp_path: Path):
    uri = open_file(client, tmp_path / "scale.cu", STRIDED)
    assert codes(await published(client, uri)) == ["CL101", "CL401"]
    (tmp_path / "cudalint.toml").write_text('ignore = ["CL401"]\n', encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            [types.FileEvent(uri=(tmp_path / "cudalint.toml").as_uri(), type=types.FileChangeType.Created)]
        )
    )
    await published(client, uri, has("CL101"))

    # Changed without a word from the editor (which watches no files for the server): seen
    # all the same, without an edit.
    (tmp_path / "cudalint.toml").write_text('ignore = ["CL401", "CL101"]\n', encoding="utf-8")
    await published(client, uri, has())


def progress_of(client: LanguageClient, kind: type) -> list:
    return [value for values in client.progress_reports.values() for value in values if isinstance(value, kind)]


@pytest.mark.asyncio
async def test_an_edit_cancels_the_analysis_under_way(client: LanguageClient, tmp_path: Path):
    # Long enough to analyze that the edit arrives while it runs, on any machine.
    many = "".join(STRIDED.replace("scale", f"scale_{n}") for n in range(150))
    uri = open_file(client, tmp_path / "many.cu", many)

    async def begun() -> None:
        while not progress_of(client, types.WorkDoneProgressBegin):
            await asyncio.sleep(0.01)

    await asyncio.wait_for(begun(), WAIT)
    (begin,) = progress_of(client, types.WorkDoneProgressBegin)
    assert begin.title == "cudalint: many.cu"
    change(client, uri, 2, STRIDED)
    assert len(await published(client, uri)) == 2, "only the edited text's findings are published"
    ends = [end.message for end in progress_of(client, types.WorkDoneProgressEnd)]
    assert ends == ["cancelled: the text changed", "2 findings"]


def test_a_cancelled_job_stops_even_when_one_interruption_is_lost():
    analyses = AnalysisThread()
    started = threading.Event()

    def busy(seconds: float) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            pass
        return "ran to its end"

    def losing_the_first_interruption() -> str:
        started.set()
        try:
            busy(10)
        except AnalysisCancelled:
            pass  # What a ctypes callback does with an exception: the repeat must still land.
        return busy(10)

    outcomes: dict[str, object] = {}

    async def drive() -> None:
        running = analyses.submit(losing_the_first_interruption)
        queued = analyses.submit(lambda: "ran")
        while not started.is_set():
            await asyncio.sleep(0.01)
        cancelled_at = time.monotonic()
        analyses.cancel(running, "the text changed")
        analyses.cancel(queued, "the text changed")
        for name, job in (("running", running), ("queued", queued)):
            try:
                outcomes[name] = await job.future
            except AnalysisCancelled:
                outcomes[name] = "cancelled"
        outcomes["seconds"] = time.monotonic() - cancelled_at
        analyses.stop()

    previous = signal.getsignal(signal.SIGURG)
    driver = threading.Thread(target=asyncio.run, args=(drive(),))
    driver.start()
    try:
        analyses.serve()
    finally:
        signal.signal(signal.SIGURG, previous)
        driver.join()
    assert outcomes["running"] == outcomes["queued"] == "cancelled"
    assert outcomes["seconds"] < 5


# The server with an analysis that fails on a buffer holding `FAIL_HERE`: what any internal
# error looks like from outside.
FAILING_SERVER = """\
import sys
import cudalint.server as server
from cudalint.cli import main

analyze = server.analyze

def failing(path, text, setup, use_cache=True):
    if b"FAIL_HERE" in text:
        raise RuntimeError("an analysis failure")
    return analyze(path, text, setup, use_cache)

server.analyze = failing
main(["server", "--headers", "embedded"])
"""


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-c", FAILING_SERVER]))
async def failing_client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_an_internal_error_is_logged_and_keeps_the_diagnostics(failing_client: LanguageClient, tmp_path: Path):
    client = failing_client
    uri = open_file(client, tmp_path / "scale.cu", STRIDED)
    await published(client, uri, has("CL101", "CL401"))
    change(client, uri, 2, STRIDED + "// FAIL_HERE\n")

    async def logged() -> types.LogMessageParams:
        while not any("an analysis failure" in m.message for m in client.log_messages):
            await asyncio.sleep(0.05)
        return next(m for m in client.log_messages if "an analysis failure" in m.message)

    message = await asyncio.wait_for(logged(), WAIT)
    assert message.type == types.MessageType.Error
    assert "internal error: RuntimeError" in message.message and "diagnostics left as they were" in message.message
    assert codes(client.diagnostics[uri]) == ["CL101", "CL401"]
    change(client, uri, 3, FIXED)
    await published(client, uri, has())


def test_saved_files_share_the_command_line_cache(tmp_path: Path):
    path = tmp_path / "scale.cu"
    path.write_text(STRIDED, encoding="utf-8")
    assert run_cli("--headers", "embedded", path).exit_code == 1
    setup = Workspace(frontend_options=lambda options: dataclasses.replace(options, header_mode="embedded")).setup(
        str(path)
    )
    saved = analyze(str(path), STRIDED.encode(), setup)
    assert saved.from_cache and [f.code for f in saved.findings] == ["CL101", "CL401"]
    # The facts hover needs come from an analysis; an edited buffer is never cached.
    analyzed = analyze(str(path), STRIDED.encode(), setup, use_cache=False)
    assert not analyzed.from_cache and analyzed.facts
    edited = analyze(str(path), FIXED.encode(), setup)
    assert not edited.from_cache and edited.findings == []
    assert not analyze(str(path), FIXED.encode(), setup).from_cache


def test_a_header_changed_under_the_server_is_seen_and_never_poisons_the_cache(tmp_path: Path):
    header, path = tmp_path / "defs.h", tmp_path / "main.cu"
    source = '#include "defs.h"\n' + STRIDED.replace("in[2 * i]", "in[STRIDE * i]")
    header.write_text("#define STRIDE 1\n", encoding="utf-8")
    path.write_text(source, encoding="utf-8")
    setup = Workspace(frontend_options=lambda options: dataclasses.replace(options, header_mode="embedded")).setup(
        str(path)
    )
    assert [f.code for f in analyze(str(path), source.encode(), setup).findings] == ["CL401"]
    for stride, expected in ((2, ["CL101", "CL401"]), (1, ["CL401"]), (2, ["CL101", "CL401"])):
        header.write_text(f"#define STRIDE {stride}\n", encoding="utf-8")
        served = analyze(str(path), source.encode(), setup)
        fresh = analyze(str(path), source.encode(), setup, use_cache=False)
        assert [f.code for f in served.findings] == [f.code for f in fresh.findings] == expected
        # What the server stored is what the command line finds, with its cache or without.
        cached, uncached = (run_cli("--headers", "embedded", *flag, path) for flag in ((), ("--no-cache",)))
        assert (cached.exit_code, cached.stdout) == (uncached.exit_code, uncached.stdout)


# A transpose with characters of one to four UTF-8 bytes (one or two UTF-16 units) before
# each finding: the reads of the shared tile conflict (CL201, whose safe fix pads the
# declaration).
MULTIBYTE = """\
#define TILE 32
__global__ void transpose(const float* in, float* out, int n) {
    __shared__ float /* 32×32 tuile 🧱 */ tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    /* lecture → colonne 🚀 */ out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

void launch(const float* in, float* out, int n) {
    transpose<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(in, out, n);
}
"""
READ_LINE, DECLARATION_LINE = 7, 2
_CODECS = {"utf-8": ("utf-8", 1), "utf-16": ("utf-16-le", 2), "utf-32": ("utf-32-le", 4)}


def in_units(line: str, encoding: str) -> bytes:
    return line.encode(_CODECS[encoding][0])


def units_before(line: str, text: str, encoding: str) -> int:
    """The protocol's character offset of the first ``text`` on ``line``."""
    return len(in_units(line[: line.index(text)], encoding)) // _CODECS[encoding][1]


def applied(source: str, edits: list[types.TextEdit], encoding: str) -> str:
    """``source`` with ``edits`` (on one line each) applied as a client using ``encoding`` does."""
    lines = source.split("\n")
    codec, width = _CODECS[encoding]
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        assert edit.range.start.line == edit.range.end.line
        units = in_units(lines[edit.range.start.line], encoding)
        start, end = edit.range.start.character * width, edit.range.end.character * width
        lines[edit.range.start.line] = (units[:start] + edit.new_text.encode(codec) + units[end:]).decode(codec)
    return "\n".join(lines)


def ranged(source: str, range_: types.Range, encoding: str) -> str:
    assert range_.start.line == range_.end.line
    codec, width = _CODECS[encoding]
    units = in_units(source.split("\n")[range_.start.line], encoding)
    return units[range_.start.character * width : range_.end.character * width].decode(codec)


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[sys.executable, "-m", "cudalint", "server", "--headers", "embedded"]),
    params=["utf-8", "utf-16", "utf-32"],
)
async def encoded_client(lsp_client: LanguageClient, request):
    capabilities = types.ClientCapabilities(
        general=types.GeneralClientCapabilities(position_encodings=[request.param]),
        text_document=types.TextDocumentClientCapabilities(
            hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(value_set=list(types.CodeActionKind))
                ),
            ),
        ),
    )
    result = await lsp_client.initialize_session(types.InitializeParams(capabilities=capabilities))
    assert result.capabilities.position_encoding == request.param
    lsp_client.encoding = request.param
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_positions_are_in_the_negotiated_encoding(encoded_client: LanguageClient, tmp_path: Path):
    client, encoding = encoded_client, encoded_client.encoding
    uri = open_file(client, tmp_path / "transpose.cu", MULTIBYTE)
    (read,) = await published(client, uri, has("CL201"))
    assert ranged(MULTIBYTE, read.range, encoding) == "tile[threadIdx.x][threadIdx.y]"

    line = MULTIBYTE.split("\n")[READ_LINE]
    at = types.Position(READ_LINE, units_before(line, "tile[threadIdx.x]", encoding) + 2)
    hovered = await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri=uri), at))
    assert "shared load" in hovered.contents.value
    assert ranged(MULTIBYTE, hovered.range, encoding) == "tile[threadIdx.x][threadIdx.y]"

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri=uri), types.Range(at, at), types.CodeActionContext(diagnostics=[])
        )
    )
    titles = {action.title: action for action in actions}
    pad = next(action for title, action in titles.items() if title.startswith("CL201:"))
    padded = applied(MULTIBYTE, pad.edit.changes[uri], encoding).split("\n")
    assert padded[DECLARATION_LINE] == "    __shared__ float /* 32×32 tuile 🧱 */ tile[TILE][TILE + 1];"
    suppressed = applied(MULTIBYTE, titles["Suppress CL201 on this line"].edit.changes[uri], encoding)
    assert suppressed.split("\n")[READ_LINE] == line + "  // cudalint: ignore[CL201]"
    change(client, uri, 2, suppressed)
    await published(client, uri, has())


@pytest.mark.asyncio
async def test_code_actions_asked_right_after_an_edit_are_placed_in_the_edited_text(
    client: LanguageClient, tmp_path: Path
):
    uri = open_file(client, tmp_path / "scale.cu", STRIDED)
    await published(client, uri, has("CL101", "CL401"))
    edited = "// a line added above\n" + STRIDED
    change(client, uri, 2, edited)
    # Asked before the edited text's diagnostics come: the load is one line lower now.
    line = types.Position(LOAD_LINE + 1, 0)
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(uri=uri), types.Range(line, line), types.CodeActionContext(diagnostics=[])
        )
    )
    titles = {action.title: action for action in actions}
    (on_line,) = titles["Suppress CL101 on this line"].edit.changes[uri]
    assert on_line.range.start == types.Position(LOAD_LINE + 1, len(edited.splitlines()[LOAD_LINE + 1]))
    (fix,) = next(action for title, action in titles.items() if title.startswith("CL401:")).edit.changes[uri]
    assert edited.splitlines()[LOAD_LINE + 1][fix.range.start.character : fix.range.end.character] == "0.1"


@pytest.mark.asyncio
async def test_a_cached_open_is_published_once(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "scale.cu"
    path.write_text(STRIDED, encoding="utf-8")
    assert run_cli("--headers", "embedded", path).exit_code == 1  # The shared cache now has it.
    uri = open_file(client, path, STRIDED)
    await published(client, uri, has("CL101", "CL401"))
    column = STRIDED.splitlines()[LOAD_LINE].index("in[2")
    at = types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(LOAD_LINE, column + 3))

    async def facts_come() -> None:  # From the analysis that follows the cached result.
        while await client.text_document_hover_async(at) is None:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(facts_come(), WAIT)
    assert len(progress_of(client, types.WorkDoneProgressBegin)) == 1
    assert [end.message for end in progress_of(client, types.WorkDoneProgressEnd)] == ["2 findings"]


def test_a_missing_header_comes_with_the_command_lines_advice(tmp_path: Path):
    path = tmp_path / "scale.cu"
    source = '#include "absent.h"\n' + STRIDED
    path.write_text(source, encoding="utf-8")
    setup = Workspace(frontend_options=lambda options: dataclasses.replace(options, header_mode="embedded")).setup(
        str(path)
    )
    (notice,) = analyze(str(path), source.encode(), setup, use_cache=False).notices
    assert "'absent.h' file not found" in notice.message
    assert "add its directory to the `include` setting or -I" in notice.message


def test_results_are_cached_at_the_workspace_root(tmp_path: Path, monkeypatch):
    monkeypatch.delenv("CUDALINT_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path)  # The editor's working directory: not where results go.
    workspace = Workspace()
    workspace.roots = [tmp_path / "project"]
    (tmp_path / "project" / "src").mkdir(parents=True)
    setup = workspace.setup(str(tmp_path / "project" / "src" / "scale.cu"))
    assert setup.settings.cache_dir == str(tmp_path / "project" / ".cudalint_cache")
    # Outside every workspace folder: the repository holding the document.
    (tmp_path / "elsewhere" / ".git").mkdir(parents=True)
    (tmp_path / "elsewhere" / "deep").mkdir()
    setup = Workspace().setup(str(tmp_path / "elsewhere" / "deep" / "scale.cu"))
    assert setup.settings.cache_dir == str(tmp_path / "elsewhere" / ".cudalint_cache")

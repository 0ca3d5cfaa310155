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
    branch = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri=uri), types.Position(LOAD_LINE - 1, 5))
    )
    words = " ".join(branch.contents.value.split())  # Lines are wrapped at 80 columns.
    assert "if (" in words and "bounds guard" in words
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

    # Changed without a word from the editor: seen before the next analysis.
    (tmp_path / "cudalint.toml").write_text('ignore = ["CL401", "CL101"]\n', encoding="utf-8")
    change(client, uri, 2, STRIDED + "\n")
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

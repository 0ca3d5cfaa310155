"""``cudalint server``: a language server over standard input and output.

Editors get the command line's findings as they type. A document is analyzed when it is
opened, when it is saved, and 300 ms after the last of a run of edits, on the editor's
unsaved text; its diagnostics are published only if it has not changed since. Each
document has at most one analysis under way, and an edit cancels it: the text it reads is
gone, and the edited one is analyzed after the pause. Clients that show progress see each
analysis begin and end, with what it found or why it stopped.

Every position is in the encoding negotiated with the client (see ``lsp.Text``). A code
action's edits are placed in the text the analysis read, so one asked for between an edit
and its analysis waits for that analysis. The configuration is read again when the client
says a watched file changed, or, for clients that watch no files for the server, when a
poll of its files finds one changed.

Analyses run one at a time on the main thread, the protocol on another: the engine's
per-file time limit interrupts Python code through a processor-time signal, which only the
main thread receives, so a document gets the same time limit as on the command line and a
runaway analysis ends as it does there. Cancelling interrupts the analysis the same way,
through a signal of its own. A failure inside the server is logged to the client
(``window/logMessage``) and the document keeps the diagnostics it had.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import queue
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from cudalint import __version__, engine, frontend, interruptions
from cudalint.config import ConfigError
from cudalint.diagnostics import Notice, NoticeKind
from cudalint.server import lsp
from cudalint.server.analysis import WATCHED_NAMES, Analysis, Workspace, analyze

DEBOUNCE_SECONDS = 0.3
"""The pause in typing after which the buffer is analyzed."""
CODE_ACTION_WAIT_SECONDS = 10.0
"""How long a code action asked for on text not yet analyzed waits for its analysis;
past that, none is offered: an edit placed by an older analysis would land on the wrong text."""
CONFIGURATION_POLL_SECONDS = 1.0
"""How often the configuration files of open documents are looked at, when the client
does not watch files for the server."""


class AnalysisCancelled(BaseException):
    """Raised in the analysis thread when the job it runs was cancelled. A BaseException,
    so that no ``except Exception`` in the engine takes it for a failure of the file."""


@dataclass(eq=False)
class Job:
    """Work for the analysis thread, and the future the event loop awaits it through."""

    work: Callable[[], object]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future
    cancelled: bool = False
    why: str = ""
    """Why it was cancelled."""


# The signal that interrupts a cancelled job. libclang takes over SIGUSR1 and SIGUSR2 once it
# writes a file (a precompiled header), and SIGPROF is the engine's time limit; SIGURG is
# left alone, and ignored by default, so a stray one harms nothing (Go preempts goroutines
# with it for the same reasons). Where signals cannot be sent to the analysis thread, a
# cancelled job runs to its end and its result is dropped.
_CANCEL_SIGNAL = getattr(signal, "SIGURG", None)
_CAN_INTERRUPT = hasattr(signal, "pthread_kill") and _CANCEL_SIGNAL is not None


class AnalysisThread:
    """Runs jobs for the protocol's event loop on the thread that calls ``serve`` (the main one).

    ``cancel`` stops a job: one still queued never starts; the running one is interrupted
    between two steps of its own Python code (libclang's work, a parse, and its bindings
    run to their end: see ``interruptions``). The interruption repeats every
    ``repeat_seconds`` until the job has ended: an exception raised where C code discards
    errors would be lost."""

    repeat_seconds = 0.05

    def __init__(self):
        self._jobs: queue.Queue[Job | None] = queue.Queue()
        self._running: Job | None = None
        self._thread_id: int | None = None

    def submit(self, work: Callable[[], object]) -> Job:
        loop = asyncio.get_running_loop()
        job = Job(work, loop, loop.create_future())
        self._jobs.put(job)
        return job

    def cancel(self, job: Job, why: str) -> None:
        """Called on the event loop's thread."""
        if job.cancelled or job.future.done():
            return
        job.cancelled, job.why = True, why
        self._interrupt(job)

    def _interrupt(self, job: Job) -> None:
        if job.future.done() or not _CAN_INTERRUPT or self._thread_id is None:
            return
        if self._running is job:
            signal.pthread_kill(self._thread_id, _CANCEL_SIGNAL)
        job.loop.call_later(self.repeat_seconds, self._interrupt, job)

    def stop(self) -> None:
        self._jobs.put(None)

    def serve(self) -> None:
        self._thread_id = threading.get_ident()
        if _CAN_INTERRUPT:
            signal.signal(_CANCEL_SIGNAL, self._on_signal)
        while (job := self._jobs.get()) is not None:
            outcome, value = self._run(job)
            job.loop.call_soon_threadsafe(_settle, job.future, outcome, value)

    def _run(self, job: Job) -> tuple[Callable[[object], None], object]:
        """The job's outcome: how to settle its future, and with what. Never raises: the
        interruption can only land while ``_running`` is the job, inside the outer ``try``."""
        try:
            if job.cancelled:
                raise AnalysisCancelled
            self._running = job
            try:
                return job.future.set_result, job.work()
            finally:
                self._running = None
                interruptions.clear()
        except (Exception, AnalysisCancelled, engine.TimeLimitReached) as exc:  # noqa: BLE001 - for the client
            return job.future.set_exception, exc

    def _on_signal(self, signum, frame) -> None:
        job = self._running
        if job is not None and job.cancelled:
            interruptions.interrupt(frame, AnalysisCancelled())


def _settle(future: asyncio.Future, outcome, value) -> None:
    if not future.done():
        outcome(value)


@dataclass
class _Document:
    """The analysis state of one open document."""

    timer: asyncio.TimerHandle | None = None
    running: bool = False
    job: Job | None = None
    """The analysis under way, once handed to the analysis thread."""
    again: bool = False
    """Analyze once more when the one under way ends (an edit came meanwhile)."""
    use_cache: bool = True
    refreshing: bool = False
    """The analysis to run is the one that follows a cached result, for hover's facts: it
    shows no progress, and publishes only diagnostics that differ."""
    analysis: Analysis | None = None
    """The last analysis published."""
    version: int | None = None
    text: lsp.Text | None = None
    """The text that analysis was of."""
    published: list[types.Diagnostic] | None = None
    settled: asyncio.Event = field(default_factory=asyncio.Event)
    """Set, and replaced, each time an analysis of the document ends."""

    def settle(self) -> None:
        self.settled.set()
        self.settled = asyncio.Event()


class CudalintServer(LanguageServer):
    def __init__(self, workspace: Workspace, analyses: AnalysisThread):
        super().__init__("cudalint", __version__)
        self.setups = workspace
        self.analyses = analyses
        self.documents: dict[str, _Document] = {}
        self._progress_tokens = itertools.count(1)

    def log(self, message: str, kind: types.MessageType = types.MessageType.Error) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=f"cudalint: {message}"))

    # ------------------------------------------------------------------ scheduling

    def schedule(self, uri: str, delay: float, *, stale: str | None = None) -> None:
        """Analyze ``uri`` after ``delay`` seconds, replacing any analysis not yet started;
        ``stale``: what changed since the analysis under way began, which cancels it."""
        document = self.documents.setdefault(uri, _Document())
        if document.timer is not None:
            document.timer.cancel()
        if stale is not None:
            self.cancel(document, stale)
        document.timer = asyncio.get_running_loop().call_later(delay, self._start, uri, document)

    def cancel(self, document: _Document, why: str) -> None:
        if document.job is not None:
            self.analyses.cancel(document.job, why)

    def _start(self, uri: str, document: _Document) -> None:
        document.timer = None
        if document.running:
            document.again = True
            return
        document.running = True
        asyncio.get_running_loop().create_task(self._analyze(uri, document))

    async def _analyze(self, uri: str, document: _Document) -> None:
        try:
            while True:
                document.again = False
                await self._analyze_once(uri, document)
                if not document.again or self.documents.get(uri) is not document:
                    return
        finally:
            document.running = False

    async def _analyze_once(self, uri: str, document: _Document) -> None:
        try:
            await self._analyze_text(uri, document)
        finally:
            document.settle()

    async def _analyze_text(self, uri: str, document: _Document) -> None:
        text_document = self.workspace.get_text_document(uri)
        path, version, source = text_document.path, text_document.version, text_document.source
        use_cache, refreshing = document.use_cache, document.refreshing
        document.refreshing = False
        job = document.job = self.analyses.submit(functools.partial(_analysis, path, source, use_cache, self.setups))
        progress = None if refreshing else await self._begin_progress(path)
        try:
            analysis = await job.future
        except AnalysisCancelled:
            analysis = None
        except (Exception, engine.TimeLimitReached) as exc:  # noqa: BLE001 - the server outlives any file
            if not job.cancelled:
                self._end_progress(progress, "failed, see the log")
                self.log(f"{path}: internal error: {type(exc).__name__}: {exc}; diagnostics left as they were")
                return
        finally:
            document.job = None
        if job.cancelled:
            # Whatever it ended with: an interruption that landed where ctypes converts an
            # argument comes back as ctypes' own error, and the engine's as an internal one.
            self._end_progress(progress, f"cancelled: {job.why}")
            return
        self._end_progress(progress, _found(analysis))
        for problem in analysis.problems:
            self.log(f"{path}: {problem}", types.MessageType.Warning)
        if analysis.internal_error:
            self.log(f"{path}: {analysis.internal_error}; diagnostics left as they were")
            return
        if self.documents.get(uri) is not document or self.workspace.get_text_document(uri).version != version:
            return  # Superseded: a newer text is on its way.
        # Cached results have findings but no facts for hover: analyze once more, without the cache.
        document.use_cache = not analysis.from_cache
        document.refreshing = analysis.from_cache
        document.again |= analysis.from_cache
        text = lsp.Text.of(source, self.workspace.position_encoding)
        found = lsp.diagnostics(analysis, text)
        document.analysis, document.version, document.text = analysis, version, text
        if refreshing and found == document.published:
            return  # The facts for hover came; the diagnostics are those the cached result published.
        document.published = found
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, found, version))

    async def analyzed_as_sent(self, uri: str) -> _Document | None:
        """The document, once its analysis is of the text the client has now; None when no
        such analysis comes within ``CODE_ACTION_WAIT_SECONDS`` (the text cannot be
        analyzed, or changed again meanwhile)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CODE_ACTION_WAIT_SECONDS
        wanted = self.workspace.get_text_document(uri).version
        while (document := self.documents.get(uri)) is not None:
            if document.analysis is not None and document.version == wanted:
                return document
            if self.workspace.get_text_document(uri).version != wanted:
                return None
            if document.timer is None and not document.running:
                return None  # No analysis of this text is coming.
            try:
                await asyncio.wait_for(document.settled.wait(), max(deadline - loop.time(), 0))
            except TimeoutError:
                return None
        return None

    # ------------------------------------------------------------------ progress

    async def _begin_progress(self, path: str) -> str | None:
        """A progress token for an analysis of ``path``, begun; None when the client shows no progress."""
        window = self.client_capabilities.window
        if window is None or not window.work_done_progress:
            return None
        token = f"cudalint-analysis-{next(self._progress_tokens)}"
        try:
            await self.work_done_progress.create_async(token)
        except Exception as exc:  # noqa: BLE001 - a client that refuses progress still gets diagnostics
            self.log(f"progress refused by the client: {exc}", types.MessageType.Log)
            return None
        self.work_done_progress.begin(token, types.WorkDoneProgressBegin(title=f"cudalint: {Path(path).name}"))
        return token

    def _end_progress(self, token: str | None, message: str) -> None:
        if token is not None:
            self.work_done_progress.end(token, types.WorkDoneProgressEnd(message=message))
            self.work_done_progress.tokens.pop(token, None)  # Kept by pygls for good otherwise.

    def analyzed(self, uri: str) -> _Document | None:
        document = self.documents.get(uri)
        return document if document is not None and document.analysis is not None else None


def _found(analysis: Analysis) -> str:
    count = len(analysis.findings)
    return f"{count} finding{'s' if count != 1 else ''}" if count else "no findings"


def _analysis(path: str, source: str, use_cache: bool, setups: Workspace) -> Analysis:
    """Runs on the analysis thread."""
    try:
        setup = setups.setup(path)
    except (ConfigError, frontend.FrontendConfigError) as exc:
        return Analysis(notices=[Notice(path, NoticeKind.ERROR, f"configuration: {exc}")])
    return analyze(path, source.encode("utf-8"), setup, use_cache)


def _initialized(ls: CudalintServer, params: types.InitializedParams) -> None:
    folders = [to_fs_path(folder.uri) for folder in ls.workspace.folders.values()] or [ls.workspace.root_path]
    ls.setups.roots = [Path(folder).resolve() for folder in folders if folder]
    watching = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
    if not (watching and watching.dynamic_registration):
        # Nobody tells the server of a changed configuration: it looks for itself.
        asyncio.get_running_loop().create_task(_poll_configuration(ls))
    else:
        watchers = [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in WATCHED_NAMES]
        registration = types.Registration(
            id="cudalint-watched-files",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
        )
        ls.client_register_capability(types.RegistrationParams(registrations=[registration]))


async def _poll_configuration(ls: CudalintServer) -> None:
    while True:
        await asyncio.sleep(CONFIGURATION_POLL_SECONDS)
        paths = {ls.workspace.get_text_document(uri).path: uri for uri in ls.documents}
        for path in ls.setups.changed(list(paths)):
            ls.schedule(paths[path], 0, stale="the configuration changed")


def _did_open(ls: CudalintServer, params: types.DidOpenTextDocumentParams) -> None:
    if params.text_document.uri.startswith("file:"):  # Only files can be parsed with their project.
        ls.schedule(params.text_document.uri, 0)


def _did_change(ls: CudalintServer, params: types.DidChangeTextDocumentParams) -> None:
    if params.text_document.uri in ls.documents:
        ls.schedule(params.text_document.uri, DEBOUNCE_SECONDS, stale="the text changed")


def _did_save(ls: CudalintServer, params: types.DidSaveTextDocumentParams) -> None:
    if params.text_document.uri in ls.documents:
        ls.schedule(params.text_document.uri, 0)


def _did_close(ls: CudalintServer, params: types.DidCloseTextDocumentParams) -> None:
    document = ls.documents.pop(params.text_document.uri, None)
    if document is not None:
        if document.timer is not None:
            document.timer.cancel()
        ls.cancel(document, "the document was closed")
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(params.text_document.uri, []))


def _watched_files_changed(ls: CudalintServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(Path(change.uri).name in WATCHED_NAMES for change in params.changes):
        ls.setups.forget()
        for uri in ls.documents:
            ls.schedule(uri, 0, stale="the configuration changed")


async def _code_action(ls: CudalintServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    """Fixes and suppressions alike are placed in the text the client has: asked for while an
    edit is not yet analyzed, they wait for its analysis."""
    uri = params.text_document.uri
    document = await ls.analyzed_as_sent(uri)
    if document is None:
        return None
    return lsp.code_actions(document.analysis, document.text, uri, params.range) or None


def _hover(ls: CudalintServer, params: types.HoverParams) -> types.Hover | None:
    document = ls.analyzed(params.text_document.uri)
    if document is None:
        return None
    return lsp.hover(document.analysis, document.text, params.position)


_FEATURES = (
    (types.INITIALIZED, _initialized, None),
    (types.TEXT_DOCUMENT_DID_OPEN, _did_open, None),
    (types.TEXT_DOCUMENT_DID_CHANGE, _did_change, None),
    (types.TEXT_DOCUMENT_DID_SAVE, _did_save, None),
    (types.TEXT_DOCUMENT_DID_CLOSE, _did_close, None),
    (types.WORKSPACE_DID_CHANGE_WATCHED_FILES, _watched_files_changed, None),
    (
        types.TEXT_DOCUMENT_CODE_ACTION,
        _code_action,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, lsp.UNSAFE_FIX]),
    ),
    (types.TEXT_DOCUMENT_HOVER, _hover, None),
)


def create_server(workspace: Workspace, analyses: AnalysisThread) -> CudalintServer:
    server = CudalintServer(workspace, analyses)
    for method, handler, options in _FEATURES:
        server.feature(method, options)(handler)
    return server


def serve(
    config_file: Path | None = None,
    frontend_options: Callable[[frontend.FrontendOptions], frontend.FrontendOptions] | None = None,
) -> int:
    """Serve one client over standard input and output until it exits."""
    # pygls logs to standard error; the client shows what matters through window/logMessage.
    logging.getLogger("pygls").setLevel(logging.WARNING)
    analyses = AnalysisThread()
    server = create_server(Workspace(config_file, frontend_options), analyses)

    def protocol() -> None:
        try:
            server.start_io()
        finally:
            analyses.stop()

    threading.Thread(target=protocol, name="cudalint-lsp", daemon=True).start()
    analyses.serve()
    return 0

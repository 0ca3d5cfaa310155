"""The progress line of a run on a terminal: files done and, past a few seconds, the time
taken, rewritten in place and cleared at the end."""

from __future__ import annotations

import os
import sys
import threading
import time


class Progress:
    """``cudalint: 37/150 files, 1 min 12 s`` on standard error, rewritten in place: at each
    file done, and every second once the run has taken a few seconds, so that a run of one
    long file (a template-heavy unit) shows it is alive too."""

    DELAY = 3.0
    """Seconds before the line shows the time taken; a run shorter than that shows none."""
    INTERVAL = 1.0

    def __init__(self, total: int, enabled: bool, already: int):
        self.total, self.enabled, self.count = total, enabled, already
        self._started = time.monotonic()
        self._width = 0
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        if enabled:
            self._ticker = threading.Thread(target=self._tick, name="cudalint-progress", daemon=True)
            self._ticker.start()

    def _tick(self) -> None:
        if self._stop.wait(self.DELAY):
            return
        while not self._stop.is_set():
            self._write()
            self._stop.wait(self.INTERVAL)

    def advance(self) -> None:
        self.count += 1
        if self.enabled and self.total > 1:
            self._write()

    def _write(self) -> None:
        with _PROGRESS_WRITE:
            elapsed = time.monotonic() - self._started
            line = f"cudalint: {self.count}/{self.total} files"
            if elapsed >= self.DELAY:
                line += f", {duration(elapsed)}"
            sys.stderr.write("\r" + line.ljust(self._width))
            sys.stderr.flush()
            self._width = len(line)

    def finish(self) -> None:
        if self._ticker is None:
            return
        self._stop.set()
        self._ticker.join()
        with _PROGRESS_WRITE:
            if self._width:
                sys.stderr.write("\r" + " " * self._width + "\r")
                sys.stderr.flush()
            self._width = 0


_PROGRESS_WRITE = threading.Lock()
"""Held while the progress line is written. A worker process forked in the middle of
a write would inherit standard error's own lock held by a thread it does not have."""
if hasattr(os, "register_at_fork"):
    os.register_at_fork(
        before=_PROGRESS_WRITE.acquire,
        after_in_parent=_PROGRESS_WRITE.release,
        after_in_child=_PROGRESS_WRITE.release,
    )


def duration(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"

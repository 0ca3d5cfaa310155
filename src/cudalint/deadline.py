"""The time limit of one translation unit's analysis: ``Deadline`` interrupts the code run
under it, after so many seconds of the process's processor time, with ``TimeLimitReached``,
which names what the analysis was doing (the function it was in)."""

from __future__ import annotations

import signal
import threading

from cudalint import interruptions, ir


class TimeLimitReached(BaseException):
    """Raised in the middle of a unit's analysis when its time is up. A BaseException, so
    that no ``except Exception`` on the way swallows it."""

    def __init__(self, activity: str):
        super().__init__(activity)
        self.activity = activity


def _activity(frame) -> str:
    """What the interrupted code was doing: analyzing the outermost function on the stack,
    else lowering."""
    function = None
    while frame is not None:
        found = next((value for value in frame.f_locals.values() if isinstance(value, ir.Function)), None)
        function = found or function
        frame = frame.f_back
    return f"analyzing `{function.display_name}`" if function is not None else "reading the parsed code"


class Deadline:
    """Interrupts the code run under it, after ``seconds`` of this process's processor time,
    with ``TimeLimitReached``.

    Processor time, not wall time: a file's outcome must not depend on what else the
    machine runs (a loaded CI runner or laptop would otherwise cut files short at random,
    and the cache would keep that). libclang's own work is not interrupted; Python code
    is, between any two of its steps.
    The interruption waits while libclang's bindings run (see ``interruptions``), and
    repeats until it takes: an exception raised where C code discards errors (some hash
    computations) would otherwise be lost. Once the code under it is left, the deadline
    raises nothing more."""

    repeat_seconds = 0.2

    def __init__(self, seconds: float | None):
        usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
        self.seconds = seconds if usable else None
        self.active = False
        self.stopped: TimeLimitReached | None = None
        """The interruption, once raised."""
        self._previous = None

    def __enter__(self) -> Deadline:
        if self.seconds:
            self._previous = signal.signal(signal.SIGPROF, self._expire)
            self.active = True
            signal.setitimer(signal.ITIMER_PROF, self.seconds, self.repeat_seconds)
        return self

    def __exit__(self, *exc) -> None:
        if self.active:
            self.active = False
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, self._previous)
            interruptions.clear()

    def _expire(self, signum, frame) -> None:
        if self.active:
            self.stopped = self.stopped or TimeLimitReached(_activity(frame))
            interruptions.interrupt(frame, self.stopped)

"""Second parses that recover what a first parse with errors dropped.

Two kinds of names are missing from real CUDA code:

- the runtime API that CUDA 12 and 13 removed: texture and surface references
  (``texture<float, 1> tex;``, ``tex1Dfetch(tex, i)``, ``cudaBindTexture``) and the
  thread-management calls (``cudaThreadSynchronize``): parsed with compatibility
  declarations of it, after which the code is as valid as it was with an older toolkit;
- names from headers or macros that are not there (``BLOCK_SIZE``, ``MPI_Init``): clang
  drops every statement that uses one. They are declared as unknowns and the file is
  parsed again, so the statements around them survive; the lowering turns each use into
  an unknown value. The errors stay reported, and findings in the functions they are in
  say that the code was recovered.

The include scan finds the removed API (and the project's headers the search path misses)
before the parse, which then needs no second one. Which names a missing header or an
undefined macro would have declared shows only in a parse: those units alone parse twice.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from cudalint import ir

LEGACY_HEADER = str(Path(__file__).resolve().parent / "compat" / "legacy_api.h")
UNKNOWNS_HEADER = str(Path(LEGACY_HEADER).parent / "undeclared_names.h")
"""Where the declarations of unknown names are said to be; the file exists only in memory."""

# Names whose absence means the source was written for the runtime API CUDA 12 and 13
# removed: the texture-reference API and the thread-management calls.
LEGACY_TEMPLATES = ("texture", "surface")
LEGACY_NAMES = frozenset(
    (
        *LEGACY_TEMPLATES,
        "textureReference",
        "surfaceReference",
        "cudaBindTexture",
        "cudaBindTexture2D",
        "cudaBindTextureToArray",
        "cudaBindTextureToMipmappedArray",
        "cudaUnbindTexture",
        "cudaGetTextureAlignmentOffset",
        "cudaGetTextureReference",
        "cudaBindSurfaceToArray",
        "cudaGetSurfaceReference",
        "cudaThreadSynchronize",
        "cudaThreadExit",
        "cudaThreadSetLimit",
        "cudaThreadGetLimit",
        "cudaThreadSetCacheConfig",
        "cudaThreadGetCacheConfig",
    )
)

_QUOTED_NAME = re.compile(r"'([A-Za-z_]\w*)'")
_UNDECLARED = re.compile(r"use of undeclared identifier '([A-Za-z_]\w*)'")
_CALL_FOLLOWS = re.compile(rb"\s*\(")


ACCEPTED_BY_NVCC = re.compile(
    r"reference to __global__ function '[^']*' in __(?:global|device)__ function"
    r"|initialization is not supported for __shared__ variables\.?"
)
"""Errors clang 18 raises for code nvcc compiles, whose parse is otherwise complete: a
kernel launched from device code (dynamic parallelism, built with ``-rdc=true``; clang
18 has no device-side launch, and drops the launch statement alone), and a ``__shared__``
object of a class with a constructor (``cuda::barrier``: nvcc runs no constructor for
shared memory, the program initializes the object itself; clang keeps the declaration
and its uses)."""


def accepted_by_nvcc(error: ir.ParseError) -> bool:
    return ACCEPTED_BY_NVCC.fullmatch(error.message) is not None


INVALID_ASM_ESCAPE = "invalid % escape in inline assembly string"
"""clang's error for a ``%`` that GCC's operand syntax does not know; PTX names its special
registers and often its own registers with one (``%laneid``, ``%p``), and nvcc passes them
through when the statement has operands."""
_ASM_ESCAPES = frozenset(b"%0123456789={|}[")


def asm_lines(errors: Iterable[ir.ParseError]) -> dict[str, set[int]]:
    """For each file, the lines where clang rejected a ``%`` in an inline-assembly string."""
    lines: dict[str, set[int]] = {}
    for error in errors:
        if error.message == INVALID_ASM_ESCAPE and error.span is not None:
            lines.setdefault(error.span.file, set()).add(error.span.line)
    return lines


def asm_escapes_kept(data: bytes, lines: Iterable[int]) -> bytes:
    """``data`` with each ``%`` that clang would reject in the string literals of ``lines``
    (and of the lines after each that continue its string) written ``$``: the statement
    then parses, every offset stays where it was, and the analysis, which reads no
    register of the assembly, sees the same statement."""
    rows = data.split(b"\n")
    for number in sorted(set(lines)):
        index = number - 1
        while 0 <= index < len(rows):
            rows[index] = _escapes_kept(rows[index])
            index += 1
            if index >= len(rows) or not rows[index].lstrip().startswith(b'"'):
                break
    return b"\n".join(rows)


def _escapes_kept(line: bytes) -> bytes:
    text = bytearray(line)
    inside = False
    index = 0
    while index < len(text):
        char = text[index]
        if char == ord("\\") and inside:
            index += 2
            continue
        if char == ord('"'):
            inside = not inside
        elif char == ord("%") and inside:
            following = text[index + 1 : index + 3]
            if following[:1] == b"%":
                index += 2
                continue
            modifier = len(following) == 2 and chr(following[0]).isalpha() and chr(following[1]) in "0123456789["
            if not (following[:1] and following[0] in _ASM_ESCAPES) and not modifier:
                text[index] = ord("$")
        index += 1
    return bytes(text)


MISPLACED_ATTRIBUTES = "an attribute list cannot appear here"
"""clang's error for ``alignas`` after a GNU attribute (``__shared__ alignas(16) float
tile[256];`` in a function), which nvcc accepts."""


def misplaced_alignas(errors: Iterable[ir.ParseError]) -> dict[str, set[tuple[int, int]]]:
    """For each file, the (line, column) of each attribute list clang rejected there."""
    spots: dict[str, set[tuple[int, int]]] = {}
    for error in errors:
        if error.message == MISPLACED_ATTRIBUTES and error.span is not None:
            spots.setdefault(error.span.file, set()).add((error.span.line, error.span.column))
    return spots


def alignas_moved(data: bytes, spots: Iterable[tuple[int, int]]) -> bytes:
    """``data`` with each ``alignas(...)`` at ``spots`` moved to the front of its
    declaration (``alignas(16) __shared__ float tile[256];``), where clang accepts it: the
    declaration keeps its extent and the declared name its offset."""
    rows = data.split(b"\n")
    for line, column in sorted(set(spots), reverse=True):
        if not 0 < line <= len(rows):
            continue
        text = rows[line - 1]
        at = column - 1
        if not text.startswith(b"alignas", at):
            continue
        end = _balanced_end(text, text.find(b"(", at))
        if end is None:
            continue
        start = max(text.rfind(b";", 0, at), text.rfind(b"{", 0, at), text.rfind(b"}", 0, at)) + 1
        start += len(text[start:at]) - len(text[start:at].lstrip())
        prefix = text[start:at].rstrip()
        if not prefix:
            continue
        gap = text[start + len(prefix) : at]
        rows[line - 1] = text[:start] + text[at:end] + gap + prefix + text[end:]
    return b"\n".join(rows)


def _balanced_end(text: bytes, opening: int) -> int | None:
    """The offset just past the parenthesis that closes the one at ``opening``."""
    if opening < 0:
        return None
    depth = 0
    for index in range(opening, len(text)):
        if text[index] == ord("("):
            depth += 1
        elif text[index] == ord(")"):
            depth -= 1
            if depth == 0:
                return index + 1
    return None


def needs_legacy_api(errors: Iterable[ir.ParseError]) -> bool:
    return any(LEGACY_NAMES.intersection(_QUOTED_NAME.findall(error.message)) for error in errors)


def undeclared_names(errors: Iterable[ir.ParseError]) -> dict[str, list[ir.Span]]:
    """Undeclared identifiers, with where each is used."""
    uses: dict[str, list[ir.Span]] = {}
    for error in errors:
        match = _UNDECLARED.match(error.message)
        if match and error.span is not None:
            uses.setdefault(match.group(1), []).append(error.span)
    return uses


def declared_at_file_scope(tu) -> set[str]:
    """Names the translation unit declares at file scope (a use before the declaration is
    undeclared too, and must not be declared twice)."""
    return {cursor.spelling for cursor in tu.cursor.get_children() if cursor.spelling}


def unknown_declarations(uses: dict[str, list[ir.Span]], sources: dict[str, bytes]) -> str:
    """A header declaring each name: a variadic function where every use calls it, else
    a variable. ``int`` fits most uses (sizes, strides, flags, scale factors); a use it does
    not fit stays an error, as it was."""
    lines = ["#pragma clang system_header"]
    for name, spans in sorted(uses.items()):
        if all(_is_called(span, name, sources) for span in spans):
            lines.append(f"template <class... A> __attribute__((host, device)) int {name}(A &&...);")
        else:
            lines.append(f"__attribute__((device)) int {name};")
    return "\n".join(lines) + "\n"


def _is_called(span: ir.Span, name: str, sources: dict[str, bytes]) -> bool:
    data = sources.get(span.file)
    if data is None:
        try:
            data = sources[span.file] = Path(span.file).read_bytes()
        except OSError:
            return False
    lines = data.split(b"\n")
    if not 0 < span.line <= len(lines):
        return False
    line = lines[span.line - 1]
    start = span.column - 1
    if line[start : start + len(name)] != name.encode():
        return False
    return _CALL_FOLLOWS.match(line, start + len(name)) is not None

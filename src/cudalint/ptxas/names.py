"""Kernel names as ptxas prints them (Itanium-mangled) turned back into source names."""

from __future__ import annotations

import re

# Itanium builtin type codes that can appear as kernel template arguments.
_BUILTINS = {
    "v": "void",
    "b": "bool",
    "c": "char",
    "a": "signed char",
    "h": "unsigned char",
    "s": "short",
    "t": "unsigned short",
    "i": "int",
    "j": "unsigned int",
    "l": "long",
    "m": "unsigned long",
    "x": "long long",
    "y": "unsigned long long",
    "f": "float",
    "d": "double",
    "e": "long double",
}


def _source_name(text: str, position: int) -> tuple[str, int] | None:
    match = re.match(r"\d+", text[position:])
    if not match:
        return None
    length = int(match.group(0))
    start = position + len(match.group(0))
    return text[start : start + length], start + length


def _template_args(text: str, position: int) -> tuple[list[str], int]:
    """Decode ``I...E`` with builtin, named and integer arguments; unknown codes stay raw."""
    args: list[str] = []
    position += 1  # skip "I"
    while position < len(text) and text[position] != "E":
        char = text[position]
        if char in _BUILTINS:
            args.append(_BUILTINS[char])
            position += 1
        elif text.startswith("DF16_", position):
            args.append("_Float16")
            position += 5
        elif char.isdigit():
            named = _source_name(text, position)
            if named is None:
                break
            args.append(named[0])
            position = named[1]
        elif char == "L":  # literal: L <type> <value> E
            end = text.find("E", position)
            if end < 0:
                break
            # The type is one builtin code (`i`, `b`) or, for an enumeration, its length-prefixed name.
            named = _source_name(text, position + 1)
            body = text[named[1] : end] if named is not None else text[position + 2 : end]
            args.append(body.replace("n", "-", 1) if body.startswith("n") else body)
            position = end + 1
        else:
            end = text.find("E", position)
            args.append(text[position : end if end >= 0 else len(text)])
            position = end if end >= 0 else len(text)
    return args, position + 1


def demangle(mangled: str) -> tuple[str, str]:
    """``_Z5scalePfi`` -> ("scale", "scale"); ``_Z5scaleIfEvPT_i`` -> ("scale", "scale<float>").

    The kernel's plain name (the last component of a nested name) and a label that adds
    the template arguments. ``extern "C"`` kernels are not mangled and come back as is.
    """
    if not mangled.startswith("_Z"):
        return mangled, mangled
    position = 2
    name = None
    if mangled.startswith("N", position):
        position += 1
        while position < len(mangled) and mangled[position].isdigit():
            named = _source_name(mangled, position)
            if named is None:
                break
            name, position = named
    else:
        named = _source_name(mangled, position)
        if named is not None:
            name, position = named
    if name is None:
        return mangled, mangled
    label = name
    if mangled.startswith("I", position):
        args, position = _template_args(mangled, position)
        label = f"{name}<{','.join(args)}>"
    return name, label

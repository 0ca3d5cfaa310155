"""C++ literal text and small integer expressions, as written in source."""

from __future__ import annotations

import ast
import operator
import re

FLOAT_LITERAL = re.compile(
    rb"(?:0[xX](?:[0-9a-fA-F']*\.?[0-9a-fA-F']+|[0-9a-fA-F']+\.?)[pP][+-]?\d+"
    rb"|(?:\d[\d']*\.?[\d']*|\.\d[\d']*)(?:[eE][+-]?\d+)?)[fFlL]?(?:16|32|64|128)?"
)
INT_LITERAL = re.compile(rb"(?:0[xX][0-9a-fA-F']+|0[bB][01']+|\d[\d']*)[uUlLzZ]*")
PRAGMA_UNROLL = re.compile(r"^\s*#\s*pragma\s+unroll\b\s*\(?\s*([^)\s]*)")


def parse_int_literal(text: str) -> int | None:
    digits = text.replace("'", "").rstrip("uUlLzZ")
    try:
        if digits[:2] in ("0x", "0X"):
            return int(digits, 16)
        if digits[:2] in ("0b", "0B"):
            return int(digits, 2)
        if len(digits) > 1 and digits.startswith("0"):
            return int(digits, 8)
        return int(digits)
    except ValueError:
        return None


def parse_float_literal(text: str) -> float | None:
    body = re.sub(r"(?:[fFlL](?:16|32|64|128)?|[fF](?:16|32|64|128))$", "", text.replace("'", ""))
    try:
        return float.fromhex(body) if body[:2] in ("0x", "0X") else float(body)
    except ValueError:
        return None


_SAFE_BINOPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.LShift: operator.lshift,
}


def evaluate_integer_text(text: str, macros: dict[str, str], depth: int = 0) -> int | None:
    """Value of a small integer expression such as ``256``, ``BLOCK*2`` or ``(1 << 8)``."""
    if depth > 8:
        return None
    expression = text.strip().replace("/", "//")
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        return None

    def value(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name) and node.id in macros:
            return evaluate_integer_text(macros[node.id], macros, depth + 1)
        if isinstance(node, ast.BinOp) and type(node.op) in _SAFE_BINOPS:
            left, right = value(node.left), value(node.right)
            if left is None or right is None:
                return None
            try:
                return _SAFE_BINOPS[type(node.op)](left, right)
            except ZeroDivisionError:
                return None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = value(node.operand)
            return None if inner is None else -inner
        return None

    return value(tree.body)

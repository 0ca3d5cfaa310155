"""Symbolic integer values: what an index or address is, per thread, as a formula.

A value is a polynomial with integer coefficients over *atoms*. Atoms are the things
a CUDA index is made of: ``threadIdx.x`` and the other builtins, kernel parameters,
loop iteration counters, warp-uniform unknowns, data-dependent unknowns, and the
non-polynomial operators CUDA code uses (``/``, ``%``, shifts, bitwise ops, min/max,
select), which are atoms whose arguments are themselves symbolic values.

Polynomials keep affine code exact (``blockIdx.x * blockDim.x + threadIdx.x``,
``row * n + col``) and products of symbols (``threadIdx.x * stride``) symbolic. The
operator atoms keep everything else exact enough to evaluate for each lane of a warp.

Values have a bounded size: an operation whose operands are larger than ``MAX_SIZE``
atoms (hash rounds mixing every value into every other) becomes an unknown of the same
variance, so no value costs more than a bounded amount to build, compare or evaluate.
"""

from __future__ import annotations

import enum
import itertools
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property


class Variance(enum.IntEnum):
    """How a value differs between threads, from least to most varying."""

    UNIFORM = 0
    """The same in every thread of the launch, or of the block (parameters, blockIdx)."""
    WARP_UNIFORM = 1
    """The same within a warp, different between warps (``threadIdx.x / 32``, ballots)."""
    THREAD = 2
    """Different between lanes of a warp, computed from thread indices."""
    DATA = 3
    """Different between lanes, depending on data read at run time."""


class AtomKind(enum.Enum):
    THREAD_INDEX = "threadIdx"
    BLOCK_INDEX = "blockIdx"
    BLOCK_DIM = "blockDim"
    GRID_DIM = "gridDim"
    PARAMETER = "param"
    ITERATION = "iteration"
    """How many times a loop has gone round (0, 1, ...): the same in all threads at a time."""
    UNIFORM = "uniform"
    """A value we cannot compute that is the same in all threads (a uniform load)."""
    WARP_UNIFORM = "warp-uniform"
    VARYING = "varying"
    """A value we cannot compute that differs between lanes (data-dependent)."""
    OPERATION = "op"

    # Members are singletons compared by identity: hashing by identity too spares the
    # per-lookup hash of the name that Enum computes (kinds are looked up in sets constantly).
    __hash__ = object.__hash__


@dataclass(frozen=True, slots=True)
class Atom:
    kind: AtomKind
    name: str
    """Component (``x``) for builtins, variable name for parameters and unknowns, operator for OPERATION."""
    args: tuple[Sym, ...] = ()
    """Operands of an OPERATION atom."""
    key: int = 0
    """Distinguishes unknowns that share a name (two different loads)."""
    _order: tuple = field(default=(), compare=False, hash=False, repr=False)
    """The sort key, computed once: polynomials sort their atoms on every operation."""
    _hash: int = field(default=0, compare=False, hash=False, repr=False)
    """The hash, computed once: atoms key every lane lookup, and an enum hashes slowly."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_order", (self.kind.value, self.name, self.key, tuple(str(a) for a in self.args)))
        object.__setattr__(self, "_hash", hash((self.kind.value, self.name, self.args, self.key)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self):
        # String hashes differ between processes: another process computes its own.
        return (Atom, (self.kind, self.name, self.args, self.key))

    def __str__(self) -> str:
        if self.kind is AtomKind.OPERATION:
            return _format_operation(self.name, self.args)
        if self.kind in (AtomKind.THREAD_INDEX, AtomKind.BLOCK_INDEX, AtomKind.BLOCK_DIM, AtomKind.GRID_DIM):
            return f"{self.kind.value}.{self.name}"
        if self.kind is AtomKind.ITERATION:
            return f"iter({self.name})"
        # Unknowns are named after what they are (`row_start[...]`, `sqrtf(...)`).
        return self.name

    def sort_key(self):
        return self._order


Monomial = tuple[Atom, ...]


def _monomial_key(monomial: Monomial):
    return tuple(a.sort_key() for a in monomial)


@dataclass(frozen=True)
class Sym:
    """A polynomial: ``terms`` maps a sorted tuple of atoms (empty for the constant) to its coefficient."""

    terms: tuple[tuple[Monomial, int], ...]

    def __hash__(self) -> int:
        # Computed once: values key the lane caches, and a hash nests through every atom.
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(self.terms)
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict:
        # String hashes differ between processes: another process computes its own.
        return {"terms": self.terms}

    # ---------------------------------------------------------------- construction

    @staticmethod
    def const(value: int) -> Sym:
        return Sym((((), int(value)),)) if value else ZERO

    @staticmethod
    def atom(atom: Atom) -> Sym:
        return Sym((((atom,), 1),))

    @staticmethod
    def _from(terms: Mapping[Monomial, int]) -> Sym:
        cleaned = [(m, c) for m, c in terms.items() if c]
        cleaned.sort(key=lambda item: _monomial_key(item[0]))
        return Sym(tuple(cleaned))

    # ---------------------------------------------------------------- inspection

    @property
    def constant(self) -> int | None:
        """The value when the polynomial is a plain integer."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and self.terms[0][0] == ():
            return self.terms[0][1]
        return None

    @property
    def sole_operation(self) -> Atom | None:
        """The operation the value is, when it is exactly one (``x ^ 1``, ``a < b``, a select)."""
        if len(self.terms) != 1 or self.terms[0][1] != 1 or len(self.terms[0][0]) != 1:
            return None
        atom = self.terms[0][0][0]
        return atom if atom.kind is AtomKind.OPERATION else None

    @property
    def offset(self) -> int:
        """The constant term."""
        for monomial, coefficient in self.terms:
            if monomial == ():
                return coefficient
        return 0

    def atoms(self) -> tuple[Atom, ...]:
        """Every atom once, including those nested inside operation atoms, outermost first.
        Computed once: rules and passes ask every value for its atoms many times over."""
        cached = self.__dict__.get("_atoms")
        if cached is None:
            found: dict[Atom, None] = {}
            for monomial, _ in self.terms:
                for atom in monomial:
                    found[atom] = None
                    for argument in atom.args:
                        found.update(dict.fromkeys(argument.atoms()))
            cached = tuple(found)
            object.__setattr__(self, "_atoms", cached)
        return cached

    @cached_property
    def kinds(self) -> frozenset[AtomKind]:
        """The kinds of every atom in the value, nested ones included."""
        return frozenset(atom.kind for atom in self.atoms())

    @cached_property
    def size(self) -> int:
        """Atoms in the value, counting those inside operation atoms."""
        return sum(
            len(monomial) + sum(argument.size for atom in monomial for argument in atom.args)
            for monomial, _ in self.terms
        ) + len(self.terms)

    @cached_property
    def variance(self) -> Variance:
        """An upper bound from the atoms alone; lane evaluation refines THREAD to WARP_UNIFORM."""
        worst = Variance.UNIFORM
        for atom in self.atoms():
            if atom.kind is AtomKind.VARYING:
                return Variance.DATA
            if atom.kind is AtomKind.THREAD_INDEX:
                worst = max(worst, Variance.THREAD)
            elif atom.kind is AtomKind.WARP_UNIFORM:
                worst = max(worst, Variance.WARP_UNIFORM)
        return worst

    @property
    def is_affine(self) -> bool:
        """No products of symbols and no operation atoms."""
        return all(len(m) <= 1 and all(a.kind is not AtomKind.OPERATION for a in m) for m, _ in self.terms)

    def coefficient_of(self, atom: Atom) -> Sym:
        """The factor multiplying ``atom`` (e.g. ``stride`` in ``threadIdx.x * stride + 1``)."""
        result: dict[Monomial, int] = {}
        for monomial, coefficient in self.terms:
            if atom in monomial:
                rest = list(monomial)
                rest.remove(atom)
                key = tuple(rest)
                result[key] = result.get(key, 0) + coefficient
        return Sym._from(result)

    # ---------------------------------------------------------------- arithmetic

    def __add__(self, other: Sym | int) -> Sym:
        other = _lift(other)
        terms = dict(self.terms)
        for monomial, coefficient in other.terms:
            terms[monomial] = terms.get(monomial, 0) + coefficient
        if len(terms) > MAX_TERMS:
            return opaque("sum", self, other)
        return Sym._from(terms)

    __radd__ = __add__

    def __neg__(self) -> Sym:
        return Sym(tuple((m, -c) for m, c in self.terms))

    def __sub__(self, other: Sym | int) -> Sym:
        return self + (-_lift(other))

    def __rsub__(self, other: Sym | int) -> Sym:
        return _lift(other) - self

    def __mul__(self, other: Sym | int) -> Sym:
        other = _lift(other)
        if len(self.terms) * len(other.terms) > MAX_TERMS:
            return opaque("product", self, other)
        terms: dict[Monomial, int] = {}
        for (m1, c1), (m2, c2) in itertools.product(self.terms, other.terms):
            monomial = tuple(sorted(m1 + m2, key=Atom.sort_key))
            terms[monomial] = terms.get(monomial, 0) + c1 * c2
        return Sym._from(terms)

    __rmul__ = __mul__

    def __str__(self) -> str:
        if not self.terms:
            return "0"
        parts = []
        for monomial, coefficient in self.terms:
            factors = [str(a) for a in monomial]
            if not factors:
                parts.append(str(coefficient))
            elif coefficient == 1:
                parts.append("*".join(factors))
            elif coefficient == -1:
                parts.append("-" + "*".join(factors))
            else:
                parts.append(f"{coefficient}*" + "*".join(factors))
        return " + ".join(parts).replace("+ -", "- ")

    # ---------------------------------------------------------------- evaluation

    def evaluate(self, values: Callable[[Atom], int | None]) -> int | None:
        """The integer value given a value for each leaf atom; None if any is unknown."""
        lanes = self.evaluate_lanes(values, 1)
        return None if lanes is None else lanes[0]

    def evaluate_lanes(self, values: Callable[[Atom], int | list[int] | None], width: int) -> list[int] | None:
        """The value in ``width`` lanes at once: ``values`` gives a leaf atom's value, either one
        integer for all lanes or a list with one per lane. None if any leaf is unknown."""
        result = self._lanes(values, width)
        return [result] * width if isinstance(result, int) else result

    def _lanes(self, values: Callable[[Atom], int | list[int] | None], width: int) -> int | list[int] | None:
        """``evaluate_lanes``, with a value that is the same in every lane kept as one integer:
        the uniform parts of an address (a loop counter, a stride) are computed once, not per lane."""
        # Uniform factors multiply as one integer and uniform terms add up as one; only the
        # factors that differ between lanes are taken lane by lane.
        uniform = 0
        lanes: list[int] | None = None
        for monomial, coefficient in self.terms:
            scalar = coefficient
            vector: list[int] | None = None
            for atom in monomial:
                value = values(atom) if atom.kind is not AtomKind.OPERATION else _operation_lanes(atom, values, width)
                if value is None:
                    return None
                if isinstance(value, int):
                    scalar *= value
                elif vector is None:
                    vector = value
                else:
                    vector = [a * b for a, b in zip(vector, value, strict=True)]
            if vector is None:
                uniform += scalar
                continue
            if scalar != 1:
                vector = [scalar * v for v in vector]
            lanes = vector if lanes is None else [a + b for a, b in zip(lanes, vector, strict=True)]
        if lanes is None:
            return uniform
        return [v + uniform for v in lanes]  # A new list: ``values`` may hand out one it keeps.


ZERO = Sym(())
MAX_SIZE = 160
"""Largest value an operation keeps exact (in atoms); larger results become unknowns."""
MAX_TERMS = 64
"""Most terms a sum or product keeps exact."""


def _lift(value: Sym | int) -> Sym:
    return value if isinstance(value, Sym) else Sym.const(value)


def _c_divide(a: int, b: int) -> int | None:
    if b == 0:
        return None
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def _c_remainder(a: int, b: int) -> int | None:
    quotient = _c_divide(a, b)
    return None if quotient is None else a - b * quotient


def _find_first_set(value: int, bits: int = 32) -> int:
    """``__ffs`` (``__ffsll`` with 64 ``bits``): the 1-based position of the lowest set bit, 0 for 0."""
    value &= (1 << bits) - 1
    return (value & -value).bit_length()


def _count_leading_zeros(value: int, bits: int = 32) -> int:
    return bits - (value & ((1 << bits) - 1)).bit_length()


def _bit_reverse(value: int, bits: int = 32) -> int:
    return int(f"{value & ((1 << bits) - 1):0{bits}b}"[::-1], 2)


def _geometric(start: int, factor: int, trips: int) -> int | None:
    """``start`` multiplied by ``factor`` once per trip (``x *= 3`` in a loop)."""
    return start * factor**trips if 0 <= trips < 64 else None


def _geometric_division(start: int, divisor: int, trips: int) -> int | None:
    """``start`` divided by ``divisor`` once per trip, as C truncates at each step."""
    if not 0 <= trips < 64:
        return None
    for _ in range(trips):
        start = _c_divide(start, divisor)
        if start is None or start == 0:
            return start
    return start


_EVALUATORS: dict[str, Callable[..., int | None]] = {
    "+": operator.add,
    "/": _c_divide,
    "%": _c_remainder,
    ">>": lambda a, b: a >> b if 0 <= b < 64 else None,
    "<<": lambda a, b: a << b if 0 <= b < 64 else None,
    "&": lambda a, b: a & b,
    "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b,
    "min": min,
    "max": max,
    "select": lambda c, a, b: a if c else b,
    "<": lambda a, b: int(a < b),
    ">": lambda a, b: int(a > b),
    "<=": lambda a, b: int(a <= b),
    ">=": lambda a, b: int(a >= b),
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "&&": lambda a, b: int(bool(a) and bool(b)),
    "||": lambda a, b: int(bool(a) or bool(b)),
    "!": lambda a: int(not a),
    "~": lambda a: ~a,
    "abs": abs,
    "popc": lambda a: bin(a & 0xFFFFFFFFFFFFFFFF).count("1"),
    "ffs": _find_first_set,
    "clz": _count_leading_zeros,
    "brev": _bit_reverse,
    "ffs64": lambda a: _find_first_set(a, 64),
    "clz64": lambda a: _count_leading_zeros(a, 64),
    "brev64": lambda a: _bit_reverse(a, 64),
    "mulhi": lambda a, b: (a * b) >> 32,
    "geometric": _geometric,
    "geometric-division": _geometric_division,
    "opaque": lambda *args: None,
}
_FUNCTION_STYLE = frozenset(
    ("min", "max", "abs", "popc", "ffs", "clz", "brev", "ffs64", "clz64", "brev64", "mulhi", "opaque")
)
OPERATORS = frozenset(_EVALUATORS)
COMPARISONS = frozenset(("<", ">", "<=", ">=", "==", "!="))


def _operation_lanes(atom: Atom, values, width: int) -> int | list[int] | None:
    arguments = []
    for argument in atom.args:
        lanes = argument._lanes(values, width)
        if lanes is None:
            return None
        arguments.append(lanes)
    evaluate = _EVALUATORS[atom.name]
    if all(isinstance(argument, int) for argument in arguments):
        return evaluate(*arguments)
    if len(arguments) == 2:  # Most operations: one side per lane, the other often uniform.
        left, right = arguments
        if isinstance(right, int):
            results = [evaluate(lane, right) for lane in left]
        elif isinstance(left, int):
            results = [evaluate(left, lane) for lane in right]
        else:
            results = [evaluate(a, b) for a, b in zip(left, right, strict=True)]
    else:
        per_lane = [[argument] * width if isinstance(argument, int) else argument for argument in arguments]
        results = [evaluate(*lane) for lane in zip(*per_lane, strict=True)]
    return None if None in results else results


def _format_operation(name: str, args: tuple[Sym, ...]) -> str:
    if name in _FUNCTION_STYLE:
        return f"{name}({', '.join(map(str, args))})"
    if name == "select":
        return f"({_operand(args[0])} ? {_operand(args[1])} : {_operand(args[2])})"
    if name == "geometric":
        return f"({_operand(args[0])} * {_operand(args[1])}**{_operand(args[2])})"
    if name == "geometric-division":
        return f"({_operand(args[0])} / {_operand(args[1])}**{_operand(args[2])})"
    if len(args) == 1:
        return f"{name}({args[0]})"
    return f"({_operand(args[0])} {name} {_operand(args[1])})"


def _operand(value: Sym) -> str:
    """``value`` as an operand of an operator: in parentheses unless it is one atom or a
    non-negative constant, so that ``t % (2 * s)`` never reads as ``(t % 2) * s``."""
    if len(value.terms) == 1:
        monomial, coefficient = value.terms[0]
        if (len(monomial) == 1 and coefficient == 1) or (not monomial and coefficient >= 0):
            return str(value)
    return f"({value})" if value.terms else "0"


def xor_operands(value: Sym) -> tuple[Sym, int] | None:
    """``x`` and ``c`` where ``value`` is the operation ``x ^ c`` with ``c`` a known integer."""
    atom = value.sole_operation
    if atom is None or atom.name != "^" or len(atom.args) != 2:
        return None
    mask = atom.args[1].constant
    return None if mask is None else (atom.args[0], mask)


def operation(name: str, *args: Sym) -> Sym:
    """``name`` applied to ``args``, folded when every argument is a known integer."""
    constants = [a.constant for a in args]
    if all(c is not None for c in constants):
        value = _EVALUATORS[name](*constants)
        if value is not None:
            return Sym.const(value)
    if name == "<<" and constants[1] is not None and 0 <= constants[1] < 64:
        return args[0] * (1 << constants[1])
    if name in ("/", ">>") and constants[1] is not None:
        divisor = constants[1] if name == "/" else 1 << constants[1] if 0 <= constants[1] < 64 else None
        # Exact division of every coefficient keeps the polynomial (e.g. (32*w) / 32 = w).
        if divisor and all(c % divisor == 0 for _, c in args[0].terms):
            return Sym(tuple((m, c // divisor) for m, c in args[0].terms))
    if name == "^" and constants.count(None) == 1:
        # `x ^ 0` is x and `(x ^ a) ^ b` is `x ^ (a ^ b)`: a variable a loop toggles twice
        # per trip (`buf ^= 1;` for the loads, again for the stores) ends each trip as it began.
        value, mask = (args[0], constants[1]) if constants[1] is not None else (args[1], constants[0])
        toggled = xor_operands(value)
        if toggled is not None:
            value, mask = toggled[0], toggled[1] ^ mask
        if mask == 0:
            return value
        args = (value, Sym.const(mask))
    if name in ("&&", "||") and constants.count(None) == 1:
        # A known side decides `0 && x` and `1 || x` (`sizeof(i) == 4 || n <= 32`); the other
        # known side leaves the unknown one's truth, which is `x != 0`.
        known = constants[0] if constants[0] is not None else constants[1]
        other = args[1] if constants[0] is not None else args[0]
        if bool(known) == (name == "||"):
            return Sym.const(int(bool(known)))
        return other if _is_truth_value(other) else operation("!=", other, ZERO)
    if name == "select" and args[1] == args[2]:
        return args[1]
    if name == "select" and constants[0] is not None:
        return args[1] if constants[0] else args[2]  # `1 ? k : 0` is k.
    if sum(a.size for a in args) > MAX_SIZE:
        return opaque(name, *args)
    return Sym.atom(Atom(AtomKind.OPERATION, name, tuple(args)))


def _is_truth_value(value: Sym) -> bool:
    """Whether ``value`` is a comparison or a logical operation: 0 or 1, nothing else."""
    atom = value.sole_operation
    return atom is not None and (atom.name in COMPARISONS or atom.name in ("&&", "||", "!"))


def substitute(value: Sym, replacements: Mapping[Atom, Sym]) -> Sym:
    """``value`` with some atoms, at any depth, replaced by other values (operations folded
    where their arguments become constants)."""
    total = ZERO
    for monomial, coefficient in value.terms:
        term = Sym.const(coefficient)
        for atom in monomial:
            if atom in replacements:
                term = term * replacements[atom]
            elif atom.kind is AtomKind.OPERATION and atom.args:
                term = term * operation(atom.name, *(substitute(a, replacements) for a in atom.args))
            else:
                term = term * Sym.atom(atom)
        total = total + term
    return total


def opaque(name: str, *args: Sym) -> Sym:
    """A value computed from ``args`` that is too large to keep: an unknown that varies as
    they do. A value computed from thread indices stays one (it cannot be evaluated, but
    lanes still differ); one computed from loaded data is data."""
    variance = max((a.variance for a in args), default=Variance.UNIFORM)
    if variance is Variance.THREAD:
        leaves = sorted(
            {atom for a in args for atom in a.atoms() if atom.kind is AtomKind.THREAD_INDEX}, key=Atom.sort_key
        )
        return Sym.atom(Atom(AtomKind.OPERATION, "opaque", tuple(Sym.atom(leaf) for leaf in leaves)))
    return unknown(f"{name}(...)", variance)


_unknown_counter = itertools.count(1)


def unknown(name: str, variance: Variance) -> Sym:
    """A fresh value we cannot compute, with the variance we know it has."""
    kind = {
        Variance.UNIFORM: AtomKind.UNIFORM,
        Variance.WARP_UNIFORM: AtomKind.WARP_UNIFORM,
    }.get(variance, AtomKind.VARYING)
    return Sym.atom(Atom(kind, name, key=next(_unknown_counter)))


def builtin(variable: str, component: str) -> Sym:
    return Sym.atom(Atom(AtomKind(variable), component))


def parameter(name: str) -> Sym:
    return Sym.atom(Atom(AtomKind.PARAMETER, name))


def iteration(loop_name: str, key: int) -> Sym:
    return Sym.atom(Atom(AtomKind.ITERATION, loop_name, key=key))

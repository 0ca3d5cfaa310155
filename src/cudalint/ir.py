"""The intermediate representation: what the frontend extracts from a translation unit.

Plain, immutable Python data. Nothing here refers to libclang; every later stage
(dataflow, rules, reporters) reads only these classes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

INLINE_DEPTH = 4
"""How many calls deep the analysis reads device code below an entry point: the interpreter
inlines a helper's code to this depth (a deeper call is a value computed from its
arguments), and the frontend lowers a library's device code that nvcc compiles only for its
uses (templates, inline functions) to this depth of calls from the code it lowers as written."""


@dataclass(frozen=True, slots=True)
class Position:
    file: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Span:
    """A source range, 1-based, end column exclusive.

    ``file/line/column/end_*`` is where the code appears in the file the user wrote
    (for code produced by a macro: where the macro is invoked). ``spelling`` is where
    the characters themselves are written, set only when that differs (inside a macro
    definition), so messages can say "expanded from".
    """

    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    spelling: Position | None = None

    @property
    def from_macro(self) -> bool:
        return self.spelling is not None


class TypeKind(enum.Enum):
    VOID = "void"
    BOOL = "bool"
    INTEGER = "integer"
    HALF = "half"
    FLOAT = "float"
    DOUBLE = "double"
    LONG_DOUBLE = "long double"
    POINTER = "pointer"
    REFERENCE = "reference"
    ARRAY = "array"
    RECORD = "record"
    ENUM = "enum"
    FUNCTION = "function"
    DEPENDENT = "dependent"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class CType:
    """A C/C++ type as the analysis needs it: kind, layout and what it points to."""

    kind: TypeKind
    spelling: str
    size: int | None = None
    align: int | None = None
    is_signed: bool | None = None
    is_const: bool = False
    pointee: CType | None = None
    """Pointed-to type for pointers and references, element type for arrays."""
    count: int | None = None
    """Element count of a constant-size array; None for ``T[]`` and variable arrays."""
    record: str | None = None
    """Key into ``TranslationUnit.records`` for struct/class/union types."""
    copy_bytes: int | None = None
    """For a struct copied member by member (a member's type has a copy constructor or
    assignment of its own, as ``__half2`` has): the widest piece a copy moves, its narrowest
    such member's. None where a copy may move the struct as plain bytes."""


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    offset: int | None
    """Byte offset inside the record; None for bit-fields and unknown layouts."""
    type: CType


@dataclass(frozen=True, slots=True)
class Record:
    name: str
    size: int | None
    align: int | None
    fields: tuple[Field, ...]


class ExprKind(enum.Enum):
    INT_LITERAL = "int-literal"
    FLOAT_LITERAL = "float-literal"
    BOOL_LITERAL = "bool-literal"
    CHAR_LITERAL = "char-literal"
    STRING_LITERAL = "string-literal"
    NULLPTR = "nullptr"
    DECL_REF = "decl-ref"
    BUILTIN_INDEX = "builtin-index"
    """``threadIdx.x`` and friends: ``name`` is the variable, ``member`` the component."""
    MEMBER = "member"
    SUBSCRIPT = "subscript"
    UNARY = "unary"
    BINARY = "binary"
    ASSIGN = "assign"
    """``=`` and compound assignments; ``op`` is the operator spelling (``"+="``)."""
    CALL = "call"
    CAST = "cast"
    CONDITIONAL = "conditional"
    INIT_LIST = "init-list"
    SIZEOF = "sizeof"
    LAMBDA = "lambda"
    UNKNOWN = "unknown"


class CastKind(enum.Enum):
    IMPLICIT = "implicit"
    C_STYLE = "c-style"
    FUNCTIONAL = "functional"
    STATIC = "static_cast"
    REINTERPRET = "reinterpret_cast"
    CONST = "const_cast"
    DYNAMIC = "dynamic_cast"


@dataclass(frozen=True, slots=True, eq=False)
class Expr:
    """One expression node.

    Children by kind: UNARY/CAST/MEMBER/SIZEOF ``(operand,)``; BINARY/ASSIGN
    ``(lhs, rhs)``; SUBSCRIPT ``(base, index)``; CALL ``(arg0, ...)`` with the callee in
    ``name``/``decl``; CONDITIONAL ``(cond, then, else)``; INIT_LIST the elements.
    """

    kind: ExprKind
    type: CType
    span: Span
    children: tuple[Expr, ...] = ()
    op: str | None = None
    """Operator spelling for UNARY/BINARY/ASSIGN (postfix ``++`` is ``"post++"``); arrow or dot for MEMBER;
    for CALL, ``"construct"`` (a constructor) or ``"noreturn"`` (a function declared never to return)."""
    name: str | None = None
    """Referenced name for DECL_REF, field for MEMBER, callee for CALL, variable for BUILTIN_INDEX."""
    member: str | None = None
    """Component (``x``/``y``/``z``) for BUILTIN_INDEX."""
    decl: str | None = None
    """Stable id of the referenced declaration (DECL_REF, CALL, MEMBER's field)."""
    value: int | float | bool | str | None = None
    """Literal value; for SIZEOF the size in bytes when known."""
    text: str | None = None
    """The literal exactly as written (``2.0``, ``1e-3f``)."""
    cast: CastKind | None = None
    receiver: Expr | None = None
    """For a CALL of a member function: the object it is called on (``g`` in ``g.sync()``),
    when the call names one; not among ``children``."""

    @property
    def unconverted(self) -> Expr:
        """This expression seen through the implicit conversions around it."""
        expr = self
        while expr.kind is ExprKind.CAST and expr.cast is CastKind.IMPLICIT and expr.children:
            expr = expr.children[0]
        return expr

    def walk(self):
        """Yield this node and every node below it, parents before children: a member
        call's receiver too (``t.engine().begin()`` holds the call of ``engine``), before
        its arguments."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))
            if node.receiver is not None:
                stack.append(node.receiver)


class StorageClass(enum.Enum):
    LOCAL = "local"
    PARAMETER = "parameter"
    SHARED = "shared"
    CONSTANT = "constant"
    DEVICE = "device"
    MANAGED = "managed"
    STATIC = "static"
    GLOBAL = "global"
    """Host-side namespace-scope variable."""


@dataclass(frozen=True, slots=True, eq=False)
class VarDecl:
    name: str
    decl: str
    type: CType
    storage: StorageClass
    span: Span
    init: Expr | None = None
    is_extern: bool = False


class StmtKind(enum.Enum):
    COMPOUND = "compound"
    EXPR = "expr"
    DECL = "decl"
    IF = "if"
    FOR = "for"
    WHILE = "while"
    DO = "do"
    SWITCH = "switch"
    CASE = "case"
    DEFAULT = "default"
    BREAK = "break"
    CONTINUE = "continue"
    RETURN = "return"
    GOTO = "goto"
    LABEL = "label"
    ASM = "asm"
    NULL = "null"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Unroll:
    """A ``#pragma unroll [N]`` on a loop."""

    count: int | None
    argument: str = ""
    """N as written; set with ``count`` None when N is not a constant we can evaluate."""

    @property
    def full(self) -> bool:
        return self.count is None and not self.argument


@dataclass(frozen=True, slots=True)
class AsmOperand:
    """One operand of an inline assembly statement: ``"=r"(x)`` is constraint ``=r``, expression ``x``."""

    constraint: str
    expr: Expr

    @property
    def is_output(self) -> bool:
        return self.constraint.startswith(("=", "+"))


@dataclass(frozen=True, slots=True, eq=False)
class Stmt:
    """One statement node.

    IF: ``cond``, ``body=(then,)``, ``orelse``. FOR: ``init``, ``cond``, ``step``,
    ``body=(loop_body,)``, ``unroll``. WHILE/DO/SWITCH: ``cond``, ``body=(b,)``.
    CASE: ``expr`` (value), ``body``. COMPOUND/DEFAULT/LABEL/UNKNOWN: ``body``.
    EXPR/RETURN: ``expr``. DECL: ``decls``. LABEL/GOTO: ``label``. ASM: ``label`` (the
    instruction text, the macro's own where a macro writes the statement), ``operands``
    (outputs first, ``%0`` onwards, as the text numbers them).
    """

    kind: StmtKind
    span: Span
    body: tuple[Stmt, ...] = ()
    expr: Expr | None = None
    cond: Expr | None = None
    init: Stmt | None = None
    step: Expr | None = None
    orelse: Stmt | None = None
    decls: tuple[VarDecl, ...] = ()
    label: str | None = None
    unroll: Unroll | None = None
    operands: tuple[AsmOperand, ...] = ()

    def walk(self):
        """Yield this statement and every statement below it, parents first."""
        stack: list[Stmt] = [self]
        while stack:
            node = stack.pop()
            yield node
            nested = list(node.body)
            if node.init is not None:
                nested.insert(0, node.init)
            if node.orelse is not None:
                nested.append(node.orelse)
            stack.extend(reversed(nested))

    def expressions(self):
        """The expressions owned directly by this statement (not by nested statements)."""
        for expr in (self.expr, self.cond, self.step):
            if expr is not None:
                yield expr
        for var in self.decls:
            if var.init is not None:
                yield var.init
        for operand in self.operands:
            yield operand.expr


class FunctionKind(enum.Enum):
    KERNEL = "kernel"
    DEVICE = "device"
    HOST_DEVICE = "host-device"
    HOST = "host"

    @property
    def runs_on_device(self) -> bool:
        return self is not FunctionKind.HOST


@dataclass(frozen=True, slots=True)
class LaunchBounds:
    max_threads: int | None
    min_blocks: int | None = None
    max_blocks_per_cluster: int | None = None
    text: str = ""
    """The arguments as written, for messages when they are not plain integers."""


@dataclass(frozen=True, slots=True)
class TemplateArg:
    kind: str
    """``type``, ``integral`` or ``other``."""
    value: str | int


@dataclass(frozen=True, slots=True, eq=False)
class Function:
    name: str
    qualified_name: str
    decl: str
    kind: FunctionKind
    return_type: CType
    params: tuple[VarDecl, ...]
    span: Span
    body: Stmt | None
    launch_bounds: LaunchBounds | None = None
    max_registers: int | None = None
    """From ``__maxnreg__(N)``."""
    template_args: tuple[TemplateArg, ...] = ()
    template_parameters: tuple[str, ...] = ()
    """Names of a template pattern's parameters, in order; in its body, a non-type
    parameter is a symbolic constant (a DECL_REF with this name and no declaration)."""
    is_template_pattern: bool = False
    """The uninstantiated template: types may be dependent."""
    in_main_file: bool = True
    written_in: str | None = None
    """For a lambda's call operator: the declaration of the function the lambda is written in."""

    @property
    def display_name(self) -> str:
        if not self.template_args:
            return self.qualified_name
        args = ", ".join(str(arg.value) for arg in self.template_args)
        return f"{self.qualified_name}<{args}>"


@dataclass(frozen=True, slots=True, eq=False)
class LaunchSite:
    """A ``kernel<<<grid, block, shared, stream>>>(...)`` launch, or a call of
    ``cudaLaunchKernel``, ``cudaLaunchCooperativeKernel`` or ``cudaLaunchKernelEx``."""

    kernel: str
    """Declaration id of the launched kernel (the instantiation for templates)."""
    kernel_name: str
    grid: Expr | None
    block: Expr | None
    shared_bytes: Expr | None
    span: Span
    caller: str | None
    arguments: tuple[Expr, ...] = ()
    """The kernel's arguments as the launch passes them; for the runtime API's calls, the
    ``void*`` array of their addresses (``args`` of ``cudaLaunchKernel(k, g, b, args, ...)``)."""
    api: str = "<<<>>>"
    """How the launch is written: ``<<<>>>`` or the runtime function's name."""
    config: Expr | None = None
    """``cudaLaunchKernelEx``'s ``cudaLaunchConfig_t`` (its ``gridDim``, ``blockDim`` and
    ``dynamicSmemBytes`` are assigned before the call)."""


@dataclass(frozen=True, slots=True)
class Comment:
    line: int
    column: int
    text: str


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file of the translation unit other than the one parsed (a project header, an
    included ``.cu``) whose code was lowered: its lines and comments."""

    path: str
    lines: tuple[str, ...]
    comments: tuple[Comment, ...]


@dataclass(frozen=True, slots=True)
class ParseError:
    """An error clang reported; the translation unit holds whatever it could still build."""

    message: str
    span: Span | None


class HeaderMode(enum.Enum):
    TOOLKIT = "toolkit"
    EMBEDDED = "embedded"


@dataclass(frozen=True, slots=True, eq=False)
class TranslationUnit:
    path: str
    header_mode: HeaderMode
    functions: tuple[Function, ...]
    globals: tuple[VarDecl, ...]
    launches: tuple[LaunchSite, ...]
    records: dict[str, Record]
    comments: tuple[Comment, ...]
    errors: tuple[ParseError, ...]
    source_lines: tuple[str, ...] = field(default=())
    includes: tuple[str, ...] = field(default=())
    """Every file the translation unit included, directly or not."""
    headers: tuple[SourceFile, ...] = field(default=())
    """The other files whose code was lowered, with their own lines and comments."""

    def lines_of(self, path: str) -> tuple[str, ...]:
        """The lines of ``path`` when it is this unit's file or one of its ``headers``."""
        if path == self.path:
            return self.source_lines
        return next((header.lines for header in self.headers if header.path == path), ())

    def device_functions(self):
        return (f for f in self.functions if f.kind.runs_on_device and f.body is not None)

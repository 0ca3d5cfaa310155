"""Calls: barriers, cache-hinted loads and stores, atomics and the other calls the
interpreter runs itself (``_CALL_HANDLERS``, by name), ``__device__`` helpers inlined with
their arguments, and inline PTX and its operands."""

from __future__ import annotations

import re
from dataclasses import replace

from cudalint import ir
from cudalint.dataflow import ptx
from cudalint.dataflow import symbolic as sym
from cudalint.dataflow.facts import (
    MEMORY,
    AccessKind,
    Alias,
    Barrier,
    BarrierScope,
    Group,
    Guard,
    MemorySpace,
    Pointer,
    Reference,
    Triple,
    Value,
)
from cudalint.dataflow.interpret.common import _FULL_MASK, MAX_INLINE_DEPTH, _forget_memory, _select
from cudalint.dataflow.symbolic import Sym, Variance

_BARRIERS = frozenset(("__syncthreads", "__barrier_sync"))
_COUNTING_BARRIERS = frozenset(("__syncthreads_count", "__syncthreads_and", "__syncthreads_or"))
# Inline PTX block barriers: `bar.sync`, `barrier.sync` (with or without `.aligned`).
_ASM_BARRIER = re.compile(r"\b(?:bar|barrier)(?:\.cta)?\.sync\b")
_VOID = ir.CType(ir.TypeKind.VOID, "void")
_LOADS = frozenset(("__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv"))
_STORES = frozenset(("__stcg", "__stcs", "__stwb", "__stwt"))
_ATOMIC = "atomic"
"""The prefix of CUDA's atomic functions (``atomicAdd``, ``atomicCAS_block``...)."""


class Calls:
    """How the interpreter runs calls and inline assembly."""

    def _inline_assembly(self, stmt: ir.Stmt) -> None:
        """Inline PTX: a block barrier (``bar.sync``), or the accesses its memory
        instructions make at the addresses its operands hold (``ptx.memory_instructions``),
        and what its outputs receive: the data an instruction loads, or the shared-window
        address ``cvta.to.shared`` makes of a pointer.
        Other outputs keep what they held: what the instructions compute is not modelled."""
        text = stmt.label or ""
        if _ASM_BARRIER.search(text):
            marker = ir.Expr(ir.ExprKind.UNKNOWN, _VOID, stmt.span, name="bar.sync")
            self._barrier(marker, "bar.sync", BarrierScope.BLOCK)
            return
        inputs = [number for number, operand in enumerate(stmt.operands) if not operand.is_output]
        constants = {
            number: value
            for number in inputs
            if stmt.operands[number].constraint in ("n", "i")
            and (value := self._int(self._expr(stmt.operands[number].expr)).constant) is not None
        }
        instructions = ptx.memory_instructions(text, constants)
        # Only the operands the model reads are evaluated: the registers of instructions it
        # does not model (an mma's fragments) are left as the C++ code leaves them.
        used = {i.address for i in instructions} | {i.source for i in instructions if i.source is not None}
        if ptx.CVTA_TO_SHARED.search(text):
            used.update(inputs)
        values: dict[int, Value] = {
            number: self._expr(stmt.operands[number].expr) for number in sorted(used) if number in inputs
        }
        for instruction in instructions:
            self._ptx_access(instruction, values.get(instruction.address), values.get(instruction.source), stmt.span)
        loaded = next((i for i in instructions if not i.store), None)
        pointers = [v for v in values.values() if isinstance(v, Pointer) and v.space is MemorySpace.SHARED]
        for operand in stmt.operands:
            if not operand.is_output or operand.expr.kind is not ir.ExprKind.DECL_REF:
                continue
            if loaded is not None:
                value: Value = self._fresh(
                    f"{loaded.name}(...)", Variance.DATA, f"loaded from shared memory by {loaded.name}", loaded=True
                )
            elif ptx.CVTA_TO_SHARED.search(text) and len(pointers) == 1:
                value = self._shared_window(pointers[0])
            else:
                continue
            self._store(operand.expr, value, operand.expr)

    def _ptx_access(
        self, instruction: ptx.PtxMemory, address: Value | None, source: Value | None, span: ir.Span
    ) -> None:
        """Record the shared access ``instruction`` makes at ``address`` (a shared-window
        address, or a pointer into shared memory) and, for a copy from global memory, the
        load of its source."""
        location = self._window_location(address)
        if location is None:
            return
        if instruction.displacement:
            location = replace(location, offset=location.offset + instruction.displacement)
        element = _lane_type(instruction.bytes)
        expr = ir.Expr(ir.ExprKind.UNKNOWN, element, span, name=instruction.name)
        recorded = len(self.trace.accesses)
        if instruction.store:
            self._record(expr, AccessKind.STORE, location, element, instruction)
            self._remember(location, self._fresh(f"{instruction.name}(...)", Variance.DATA, loaded=True))
        else:
            self._record(expr, AccessKind.LOAD, location, element, instruction)
        if isinstance(source, Pointer) and not instruction.zero_fill:
            if len(self.trace.accesses) > recorded:
                self.trace.accesses[recorded].copy_source = source
            self._record(expr, AccessKind.LOAD, source, element, instruction)

    def _window_location(self, address: Value | None) -> Pointer | None:
        """Where a shared-window address (or a pointer into shared memory) points."""
        if isinstance(address, Pointer):
            return address if address.space is MemorySpace.SHARED else None
        if not isinstance(address, Sym):
            return None
        for atom, base in self.shared_windows.items():
            coefficient = address.coefficient_of(atom)
            if coefficient.constant == 1:
                offset = address - Sym.atom(atom)
                if atom not in offset.atoms():
                    return Pointer(MemorySpace.SHARED, base, offset, None)
        return None

    def _shared_window(self, pointer: Pointer) -> Sym:
        """The 32-bit shared-window address of ``pointer``: the allocation's own (an unknown
        the same in every thread) plus the byte offset, so integer arithmetic on it
        (``addr + chunk * 16``) moves it by bytes."""
        atom = next((a for a, base in self.shared_windows.items() if base == pointer.base), None)
        if atom is None:
            window = self._fresh(
                f"__cvta_generic_to_shared({pointer.base})",
                Variance.UNIFORM,
                f"the shared-memory address of `{pointer.base}`: the same in every thread of the block",
            )
            atom = window.terms[0][0][0]
            self.shared_windows[atom] = pointer.base
        return Sym.atom(atom) + pointer.offset

    def _shared_address_call(self, name: str, expr: ir.Expr) -> Value:
        """``__cvta_generic_to_shared(p)``: the shared-window address of a pointer into shared memory."""
        arguments = [self._expr(c) for c in expr.children]
        if len(arguments) == 1 and isinstance(arguments[0], Pointer) and arguments[0].space is MemorySpace.SHARED:
            return self._shared_window(arguments[0])
        return self._computed(f"{name}(...)", *arguments)

    def _pipeline_copy(self, name: str, expr: ir.Expr) -> Value:
        """``__pipeline_memcpy_async(dst, src, size[, zfill])``: the cp.async of ``size`` bytes
        per thread (4, 8 or 16) from global ``src`` to shared ``dst``."""
        arguments = [self._expr(c) for c in expr.children]
        size = self._int(arguments[2]).constant if len(arguments) >= 3 else None
        zero_fill = len(arguments) >= 4 and self._int(arguments[3]).constant != 0
        if size in (4, 8, 16):
            instruction = ptx.PtxMemory("cp.async", True, 0, 0, size, window=False, source=1, zero_fill=zero_fill)
            self._ptx_access(instruction, arguments[0], arguments[1], expr.span)
        return sym.ZERO

    def _barrier(self, expr: ir.Expr, name: str, scope: BarrierScope) -> None:
        if self.recording:
            self.trace.barriers.append(
                Barrier(
                    expr, name, tuple(self.guards), tuple(self.loops), self.statement, tuple(self.call_names), scope
                )
            )
        if scope is not BarrierScope.PARTIAL:
            # Whatever any thread stored before it, every thread now reads alike.
            _forget_memory(self.env, keep_local=True)
            self.last_barrier = expr.span.line
            self._accesses_before_barrier = len(self.trace.accesses)

    def _call(self, expr: ir.Expr) -> Value:
        name = (expr.name or "").removeprefix("::")
        if self.recording:
            self.trace.calls.add(name.removeprefix("std::"))
        if "cooperative_groups" in (expr.decl or ""):
            return self._cooperative(expr, name)
        # Names the interpreter knows (barriers, cache-hinted loads and stores, atomics) have
        # a handler of their own; any other call is run as a function (``_function_call``).
        family = _ATOMIC if name.startswith(_ATOMIC) else name
        return _CALL_HANDLERS.get(family, Calls._function_call)(self, name, expr)

    def _barrier_call(self, name: str, expr: ir.Expr) -> Value:
        arguments = [self._int(self._expr(c)) for c in expr.children]
        if name == "__syncwarp":
            full = not arguments or arguments[0].constant == _FULL_MASK
            self._barrier(expr, name, BarrierScope.WARP if full else BarrierScope.PARTIAL)
            return sym.ZERO
        self._barrier(expr, name, BarrierScope.BLOCK)
        if name in _COUNTING_BARRIERS:
            return self._fresh(
                f"{name}(...)", Variance.UNIFORM, f"returned by {name}: the same in every thread of the block"
            )
        return sym.ZERO

    def _cache_hinted_load(self, name: str, expr: ir.Expr) -> Value:
        if expr.children:
            pointer = self._expr(expr.children[0])
            if isinstance(pointer, Pointer):
                self._record(expr, AccessKind.LOAD, pointer, expr.type)
                return self._load(pointer, expr)
        return self._function_call(name, expr)

    def _cache_hinted_store(self, name: str, expr: ir.Expr) -> Value:
        if len(expr.children) != 2:
            return self._function_call(name, expr)
        pointer = self._expr(expr.children[0])
        value = self._expr(expr.children[1])
        if isinstance(pointer, Pointer):
            self._record(expr, AccessKind.STORE, pointer, expr.children[1].type)
            self._remember(pointer, value)
        return sym.ZERO

    def _atomic(self, name: str, expr: ir.Expr) -> Value:
        if not expr.children:
            return self._function_call(name, expr)
        pointer = self._expr(expr.children[0])
        for argument in expr.children[1:]:
            self._expr(argument)
        if isinstance(pointer, Pointer):
            self._record(expr, AccessKind.ATOMIC, pointer, expr.type)
            self._remember(pointer, self._fresh(f"{name}(...)", Variance.DATA, loaded=True))
        return self._fresh(
            f"{name}(...)",
            Variance.DATA,
            f"returned by {name}: each lane gets the value another left, different in each lane",
            loaded=True,
        )

    def _assign_call(self, name: str, expr: ir.Expr) -> Value:
        """Assignment of a struct or vector type (float4, a user struct) into memory."""
        if len(expr.children) != 2:
            return self._function_call(name, expr)
        value = self._expr(expr.children[1])
        self._store(expr.children[0], value, expr, expr.children[1])
        return value

    def _function_call(self, name: str, expr: ir.Expr) -> Value:
        """A call of a function: an intrinsic modelled on its operands, a device function of
        this file inlined, or else a value computed from the arguments."""
        callee = self.functions.get(expr.decl or "")
        inlined = (
            callee is not None
            and callee.kind.runs_on_device
            and len(self.call_stack) < MAX_INLINE_DEPTH
            and callee.decl not in self.call_stack
            and callee.decl != self.function.decl
        )
        arguments = self._bind_arguments(callee, expr) if inlined else [self._expr(c) for c in expr.children]
        if expr.receiver is not None and not inlined:
            # A method of a type whose code is not here reads its object: `(float)x[i]` on a
            # `__half` or `__nv_bfloat16` array is `x[i].operator float()`, a load of the narrow
            # element, converted in registers.
            receiver = self._expr(expr.receiver)
            if not arguments and (expr.name or "").startswith("operator "):
                return self._convert(receiver, expr.type)
            arguments.append(receiver)
        if expr.op == "construct" and len(arguments) == 1 and isinstance(arguments[0], (Group, Triple)):
            return arguments[0]  # A copy of a group handle (`thread_group g = block;`).
        intrinsic = self._intrinsic(name, arguments, expr)
        if intrinsic is not None:
            return intrinsic
        if inlined:
            return self._inline(callee, arguments, expr)
        return self._computed(f"{name or 'call'}(...)", *arguments)

    def _bind_arguments(self, callee: ir.Function, expr: ir.Expr) -> list[Value]:
        """Arguments as the helper's parameters take them: a reference parameter binds to the
        caller's variable or memory; a struct copied from read-only memory (the kernel's
        parameter struct, a __constant__ one) is read there, pointers and all."""
        bound: list[Value] = []
        for index, argument in enumerate(expr.children):
            kind = callee.params[index].type.kind if index < len(callee.params) else None
            if kind is ir.TypeKind.REFERENCE:
                target = self._location(argument) or self._alias_of(argument)
                if target is not None:
                    bound.append(Reference(target) if isinstance(target, Pointer) else target)
                    continue
            elif kind is ir.TypeKind.RECORD and _copied(argument).kind is ir.ExprKind.DECL_REF:
                target = self._location(_copied(argument))
                if isinstance(target, Pointer) and target.space in (MemorySpace.PARAMETER, MemorySpace.CONSTANT):
                    bound.append(Reference(target))
                    continue
            bound.append(self._expr(argument))
        return bound

    def _inline(self, callee: ir.Function, arguments: list[Value], call: ir.Expr) -> Value:
        saved_env = self.env
        self.env = dict(self.env)
        for param, argument in zip(callee.params, arguments, strict=False):
            self.env[param.decl] = (
                argument
                if isinstance(argument, (Alias, Reference, Group, Triple))
                else self._convert(argument, param.type)
            )
        self.call_stack.append(callee.decl)
        self.call_names.append(callee.display_name)
        self._returns.append([])
        self._return_depths.append(len(self.guards))
        try:
            self._block(callee.body)
        finally:
            returned = self._returns.pop()
            self._return_depths.pop()
            self.call_stack.pop()
            self.call_names.pop()
            inner, self.env = self.env, saved_env
        # The caller sees what the helper wrote through references and pointers to its
        # variables, and what it stored to memory.
        for decl, value in inner.items():
            if decl in saved_env and value is not saved_env[decl]:
                saved_env[decl] = value
        saved_env[MEMORY] = inner.get(MEMORY, {})
        return _returned_value(callee, returned)


_CALL_HANDLERS = {
    **dict.fromkeys((*_BARRIERS, *_COUNTING_BARRIERS, "__syncwarp"), Calls._barrier_call),
    **dict.fromkeys(_LOADS, Calls._cache_hinted_load),
    **dict.fromkeys(_STORES, Calls._cache_hinted_store),
    _ATOMIC: Calls._atomic,
    "operator=": Calls._assign_call,
    "__cvta_generic_to_shared": Calls._shared_address_call,
    "__pipeline_memcpy_async": Calls._pipeline_copy,
}
"""Calls the interpreter runs itself, by name (every atomic function under ``_ATOMIC``)."""


def _lane_type(size: int) -> ir.CType:
    """The type of what one lane of an inline-PTX instruction moves: ``size`` bytes."""
    return ir.CType(ir.TypeKind.INTEGER, f".b{size * 8}", size, size, False)


def _returned_value(callee: ir.Function, returned: list[tuple[Value, tuple[Guard, ...]]]) -> Value:
    """What a helper returns: the last return's value, overridden by each earlier return
    under the conditions it ran under."""
    if not returned:
        return sym.unknown(f"{callee.name}(...)", Variance.UNIFORM)
    result = returned[-1][0]
    for value, guards in reversed(returned[:-1]):
        if not guards:
            result = value
            continue
        condition = None
        for guard in guards:
            part = guard.condition if guard.holds else sym.operation("!", guard.condition)
            condition = part if condition is None else sym.operation("&&", condition, part)
        result = _select(condition, value, result)
    return result


def _copied(expr: ir.Expr) -> ir.Expr:
    """What a struct argument copies: ``args`` in ``f(args)``, under the copy constructor."""
    while expr.children and (
        expr.kind is ir.ExprKind.CAST
        or (
            expr.kind is ir.ExprKind.CALL
            and expr.op == "construct"
            and len(expr.children) == 1
            and expr.children[0].type.record == expr.type.record
        )
    ):
        expr = expr.children[0]
    return expr

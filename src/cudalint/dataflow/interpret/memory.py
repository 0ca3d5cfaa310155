"""Memory: locations, pointers and storage spaces; every load and store recorded as an
``Access``, with the value a thread reads back."""

from __future__ import annotations

from cudalint import ir
from cudalint.dataflow import ptx
from cudalint.dataflow import symbolic as sym
from cudalint.dataflow.facts import (
    MEMORY,
    Access,
    AccessKind,
    Alias,
    Guard,
    MemoryKey,
    MemorySpace,
    Pointer,
    Reference,
    Value,
)
from cudalint.dataflow.interpret.common import _advance, _describe, _join_variance
from cudalint.dataflow.symbolic import Sym, Variance
from cudalint.dataflow.threads import refine_variance


class Memory:
    """How the interpreter reads and writes memory."""

    def _load_reference(self, reference: Reference, expr: ir.Expr | None) -> Value:
        location = reference.location
        if expr is not None:
            self._record(expr, AccessKind.LOAD, location, location.pointee)
        return self._load(location, expr)

    def _location(self, expr: ir.Expr) -> Pointer | Alias | None:
        """The memory an lvalue designates, the register variable a pointer to one designates,
        or None for other registers (locals, struct copies)."""
        kind = expr.kind
        if kind is ir.ExprKind.SUBSCRIPT and len(expr.children) == 2:
            base, index = (self._expr(c) for c in expr.children)
            if isinstance(index, (Pointer, Alias)) and isinstance(base, Sym):  # `i[p]` spelling
                base, index = index, base
            if isinstance(base, Alias):
                return base if self._int(index).constant == 0 else None
            if not isinstance(base, Pointer):
                return None
            return _advance(base, self._int(index), expr.type)
        if kind is ir.ExprKind.UNARY and expr.op == "*" and expr.children:
            pointer = self._expr(expr.children[0])
            if isinstance(pointer, Alias):
                return pointer
            return (
                Pointer(pointer.space, pointer.base, pointer.offset, expr.type)
                if isinstance(pointer, Pointer)
                else None
            )
        if kind is ir.ExprKind.MEMBER and expr.children:
            base_expr = expr.children[0]
            return self._field(expr, self._expr(base_expr) if expr.op == "->" else self._location(base_expr))
        if kind is ir.ExprKind.DECL_REF:
            value = self._variable(expr)
            if isinstance(value, Reference):
                return value.location
            if isinstance(value, Alias):
                return value
        if kind is ir.ExprKind.CAST and expr.children:
            return self._location(expr.children[0])
        return None

    def _field(self, expr: ir.Expr, base: Value | None) -> Pointer | None:
        """Where member ``expr.name`` of the struct at ``base`` is."""
        if not isinstance(base, Pointer):
            return None
        record = self.tu.records.get((base.pointee.record if base.pointee else None) or "")
        offset = next((f.offset for f in record.fields if f.name == expr.name), None) if record else None
        if offset is None:
            return Pointer(
                base.space,
                base.base,
                sym.operation("+", base.offset, self._fresh(f"offset of {expr.name}", Variance.UNIFORM)),
                expr.type,
            )
        return Pointer(base.space, base.base, base.offset + offset, expr.type)

    def _alias_of(self, expr: ir.Expr) -> Alias | None:
        """The register variable ``expr`` names, as something a reference can bind to."""
        while expr.kind is ir.ExprKind.CAST and expr.children:
            expr = expr.children[0]
        if expr.kind is not ir.ExprKind.DECL_REF or expr.decl not in self.env:
            return None
        value = self.env[expr.decl]
        if isinstance(value, Alias):
            return value
        return None if isinstance(value, Reference) else Alias(expr.decl, expr.name or "variable")

    def _read_alias(self, alias: Alias) -> Value:
        value = self.env.get(alias.decl)
        if isinstance(value, Alias):
            return self._read_alias(value)
        if isinstance(value, Reference):
            return self._load(value.location, None)
        return value if value is not None else self._fresh(alias.name, Variance.UNIFORM)

    def _write_alias(self, alias: Alias, value: Value, expr: ir.Expr) -> None:
        target = self.env.get(alias.decl)
        if isinstance(target, Alias):
            self._write_alias(target, value, expr)
        elif isinstance(target, Reference):
            self._remember(target.location, value)
        else:
            self.env[alias.decl] = value

    def _record(
        self,
        expr: ir.Expr,
        kind: AccessKind,
        location: Pointer,
        type_: ir.CType | None,
        instruction: ptx.PtxMemory | None = None,
        stored_value: ir.Expr | None = None,
    ) -> None:
        if (
            not self.recording
            or type_ is None
            or type_.kind is ir.TypeKind.ARRAY
            or location.space is MemorySpace.PARAMETER
        ):
            return
        guards, loops = tuple(self.guards), tuple(self.loops)
        self.trace.accesses.append(
            Access(
                expr=expr,
                kind=kind,
                location=location,
                size=type_.size,
                type=type_,
                guards=guards,
                loops=loops,
                stmt=self.statement,
                inlined_from=tuple(self.call_names),
                repeats=(
                    self._repeated_load(location, type_.size, guards, loops)
                    if kind is AccessKind.LOAD and instruction is None
                    else None
                ),
                instruction=instruction,
                stored_value=stored_value,
            )
        )

    def _repeated_load(
        self, location: Pointer, size: int | None, guards: tuple[Guard, ...], loops: tuple[ir.Stmt, ...]
    ) -> Access | None:
        """The earlier load a load of ``location`` repeats (see ``Access.repeats``)."""
        for earlier in reversed(self.trace.accesses[self._accesses_before_barrier :]):
            related = earlier.location.base == location.base or MemorySpace.UNKNOWN in (earlier.space, location.space)
            if not related:
                continue
            same_address = (earlier.space, earlier.location.offset, earlier.size) == (
                location.space,
                location.offset,
                size,
            )
            if (
                same_address
                and earlier.kind is not AccessKind.ATOMIC
                and earlier.loops == loops
                and guards[: len(earlier.guards)] == earlier.guards
            ):
                return earlier.repeats or earlier  # Loaded or stored here last: the value is in a register.
            if earlier.kind is not AccessKind.LOAD:
                return None  # Stored since (or possibly, through an unknown pointer).
        return None

    def _memory_read(self, expr: ir.Expr) -> Value:
        location = self._location(expr)
        if location is None:
            return self._generic(expr)
        return self._read_at(expr, location)

    def _read_at(self, expr: ir.Expr, location: Pointer | Alias) -> Value:
        if isinstance(location, Alias):
            return self._read_alias(location)
        if expr.type.kind is ir.TypeKind.ARRAY:
            # Indexing a row of a multi-dimensional array: an address, not a load.
            return Pointer(location.space, location.base, location.offset, expr.type.pointee)
        self._record(expr, AccessKind.LOAD, location, expr.type)
        return self._load(location, expr)

    _subscript = _memory_read

    def _load(self, location: Pointer, expr: ir.Expr | None) -> Value:
        """What a thread reads at ``location``: what it stored there since the last barrier,
        else a value that varies between threads as the address does."""
        stored = self.env.get(MEMORY, {}).get(MemoryKey(location.space, location.base, location.offset))
        if stored is not None:
            return stored
        name = _describe(expr) if expr is not None else location.base
        if location.pointee is not None and location.pointee.kind is ir.TypeKind.POINTER:
            return self._loaded_pointer(location, name)
        if location.space is MemorySpace.PARAMETER and location.base not in self.parameters_written:
            # A kernel parameter nothing writes: every read of a field is one value, also
            # through a helper's copy of the struct (`fastdiv(i, v)` reading `v.d` is `ne0.d`).
            key = (location.base, location.offset)
            if key not in self.parameter_reads:
                field_name = location.base + name[name.index(".") :] if "." in name else name
                self.parameter_reads[key] = self._fresh(field_name, *self._load_variance(location))
            return self.parameter_reads[key]
        variance, why = self._load_variance(location)
        # What is read where loaded data points is data too (`stack[--top]` after data-driven pushes).
        value = self._fresh(name, variance, why, loaded=self._holds_data(location), inputs=(location.offset,))
        if location.space is MemorySpace.SHARED and self.last_barrier is not None and variance is Variance.DATA:
            self.shared_reads[value.terms[0][0][0]] = location.offset
        return value

    def _holds_data(self, location: Pointer) -> bool:
        """Whether a load at ``location`` reads data: memory, or a per-thread array that was
        given data (not one filled with values computed from the thread's coordinates)."""
        if location.space is not MemorySpace.LOCAL:
            return True
        return self.local_variance.get(location.base, Variance.UNIFORM) is Variance.DATA

    def _load_variance(self, location: Pointer) -> tuple[Variance, str]:
        base = location.base
        if location.space is MemorySpace.LOCAL:
            # Each thread has its own array: the address does not make the value shared.
            stored = self.local_variance.get(base, Variance.UNIFORM)
            address = location.offset.variance
            variance = max(stored, Variance.DATA if address >= Variance.THREAD else address)
            return variance, f"read from the per-thread array `{base}`"
        if location.space is MemorySpace.PARAMETER:
            return Variance.UNIFORM, f"a field of the kernel parameter `{base}`: the same in every thread"
        address = refine_variance(location.offset, self.shape)
        if address is Variance.UNIFORM:
            if location.space is MemorySpace.SHARED and self.last_barrier is not None:
                return address, (
                    f"read from shared `{base}` after the barrier at line {self.last_barrier}: "
                    "the same in every thread of the block"
                )
            return address, f"read from `{base}` at an address that is the same in every thread of the block"
        if address is Variance.WARP_UNIFORM:
            return address, f"read from `{base}` at an address that is the same across each warp"
        return Variance.DATA, f"loaded from `{base}` at an address that differs between lanes"

    def _loaded_pointer(self, location: Pointer, name: str) -> Pointer:
        """A pointer read from memory: into the allocation stored there when only one ever
        was, else into an unknown one; the same in every thread when the load's address is."""
        variance, why = self._load_variance(location)
        pointee = location.pointee.pointee if location.pointee is not None else None
        targets = self.pointer_targets.get((location.space, location.base), set())
        if len(targets) == 1:
            ((space, base),) = targets
            return Pointer(space, base, self._fresh(f"{name} offset", variance, why, loaded=True), pointee)
        space = MemorySpace.GLOBAL if location.space is MemorySpace.PARAMETER else MemorySpace.UNKNOWN
        offset = sym.ZERO if variance is Variance.UNIFORM else self._fresh(f"{name} offset", variance, why, loaded=True)
        return Pointer(space, name, offset, pointee)

    def _remember(self, location: Pointer, value: Value) -> None:
        """A store: later loads of the same address by this thread see ``value``; others of
        the same allocation may alias it and see an unknown."""
        if isinstance(value, Reference):
            value = self._load(value.location, None)
        if location.space is MemorySpace.PARAMETER:
            self.parameters_written.add(location.base)
        memory = {
            key: stored
            for key, stored in self.env.get(MEMORY, {}).items()
            if location.space is not MemorySpace.UNKNOWN
            and key.space is not MemorySpace.UNKNOWN
            and (key.space, key.base) != (location.space, location.base)
        }
        if isinstance(value, (Sym, Pointer)):
            memory[MemoryKey(location.space, location.base, location.offset)] = value
        self.env[MEMORY] = memory
        if location.space is MemorySpace.LOCAL:
            self.local_variance[location.base] = max(
                self.local_variance.get(location.base, Variance.UNIFORM), _join_variance(value)
            )
        if isinstance(value, Pointer):
            self.pointer_targets.setdefault((location.space, location.base), set()).add((value.space, value.base))

"""Calls: the callee a call names (and the instantiation or header function it makes the
lowering reach), its receiver and arguments, functions named without a call, and the
kernel launches (``<<<...>>>``, ``cudaLaunchKernel*``) recorded as ``ir.LaunchSite``s."""

from __future__ import annotations

import dataclasses

from clang import cindex
from clang.cindex import CursorKind as CK

from cudalint import ir
from cudalint.frontend import clang_ext
from cudalint.frontend.lower.common import LAUNCH_FUNCTIONS, MEMBER_FUNCTIONS, NOWHERE, TRANSPARENT_EXPRS

# What a `<<<...>>>` launch calls first (clang targeting CUDA >= 9.2).
_LAUNCH_CONFIGURATION = "__cudaPushCallConfiguration"

# What clang wraps the callee of an unresolved call in: an unnamed reference or an unexposed
# expression around the reference to the overload set.
_CALLEE_WRAPPERS = (CK.UNEXPOSED_EXPR, CK.DECL_REF_EXPR, CK.PAREN_EXPR)


class Calls:
    """How the lowering turns calls into ``ir.Expr``s of kind CALL and records launches."""

    def _named_function(self, referenced: cindex.Cursor) -> str:
        """A function named without a call (``kernel_t k = tile<D, 4>;``, a launch wrapper's
        argument): an instantiation it names is lowered as a call's would be."""
        decl = self._function_id(referenced)
        if referenced.get_num_template_arguments() > 0 and decl not in self._functions:
            definition = referenced if referenced.is_definition() else referenced.get_definition()
            if definition is not None and self._in_user_code(definition):
                # Named, not called: a kernel handed to a launch wrapper, a function pointer.
                self._lower_later(definition, True, 0)
        self._reach(decl, 0)
        return decl

    def _call(self, cursor: cindex.Cursor) -> ir.Expr:
        referenced = cursor.referenced
        children = list(cursor.get_children())
        config = next((c for c in children if c.kind == CK.CALL_EXPR and c.spelling == _LAUNCH_CONFIGURATION), None)
        decl = None
        if referenced is not None and not self._declared_as_unknown(cursor, referenced):
            decl = self._function_id(referenced)
            if referenced.semantic_parent is not None and referenced.semantic_parent.kind == CK.CLASS_DECL:
                self._called_closures.add(self._decl_id(referenced.semantic_parent))
            if referenced.get_num_template_arguments() > 0 and not referenced.is_definition():
                referenced = referenced.get_definition() or referenced
            instantiated = referenced.get_num_template_arguments() > 0 and referenced.kind in (
                CK.FUNCTION_DECL,
                CK.CXX_METHOD,
            )
            depth = (
                None if self._lowered_for_host_only(referenced) else self._callee_depth(referenced, config is not None)
            )
            if depth is not None:
                # A member of a class template specialization (`SharedMemory<float>::operator float*`)
                # exists only as the instantiation the call names.
                if (
                    (instantiated or referenced.kind in MEMBER_FUNCTIONS)
                    and referenced.is_definition()
                    and self._in_user_code(referenced)
                    and decl not in self._functions
                ):
                    self._lower_later(referenced, True, depth)
                self._reach(decl, depth)
        op = None
        if referenced is not None:
            op = (
                "construct"
                if referenced.kind == CK.CONSTRUCTOR
                else "noreturn"
                if self._never_returns(decl, referenced)
                else None
            )
        span = self._span(cursor) or NOWHERE
        arguments = self._anchored([self.expr(a) for a in cursor.get_arguments()], span)
        receiver = self._receiver(cursor, children)
        if (
            referenced is not None
            and referenced.kind == CK.CXX_METHOD
            and referenced.spelling == "operator()"
            and len(arguments) == len(list(referenced.get_arguments())) + 1
        ):
            # `functor(a, b)`, a lambda's call: clang lists the object as the call operator's
            # first argument. (Other operators keep it there: `p[i] = pi` is a store into p[i].)
            receiver, arguments = arguments[0], arguments[1:]
        node = ir.Expr(
            ir.ExprKind.CALL,
            self.ctype(cursor.type),
            span,
            tuple(arguments),
            name=cursor.spelling or self._dependent_callee(children),
            decl=decl,
            op=op,
            value=self._constant_call(cursor, arguments),
            receiver=receiver,
        )
        if config is not None:
            # A launch names its kernel only once clang resolved it (the name of an unresolved
            # one is no kernel's).
            self._launch(dataclasses.replace(node, name=cursor.spelling), config)
        elif cursor.spelling.encode().startswith(LAUNCH_FUNCTIONS) and self._current_function is not None:
            self._runtime_launch(node, cursor)
        return node

    def _never_returns(self, decl: str | None, function: cindex.Cursor) -> bool:
        """Whether a function is declared ``[[noreturn]]`` (an assertion macro's abort); asked
        once per function, not at each of its calls."""
        if decl is not None and decl in self._noreturn:
            return self._noreturn[decl]
        attributes = clang_ext.kind_ids("is_attribute")
        never = any(
            child.kind == CK.UNEXPOSED_ATTR and any(t.spelling in _NORETURN for t in child.get_tokens())
            for child in function.get_children()
            if child._kind_id in attributes
        )
        if decl is not None:
            self._noreturn[decl] = never
        return never

    def _dependent_callee(self, children: list[cindex.Cursor]) -> str | None:
        """The name a call in a template names when its arguments' types are not known yet
        (`reduce(s, t)` with `s` a `T*`): clang leaves the call unnamed and unresolved, the
        name only on the reference to the overload set. ``children``: the call's."""
        callee = next(iter(children), None)
        while callee is not None and not callee.spelling and callee.kind in _CALLEE_WRAPPERS:
            callee = next(iter(callee.get_children()), None)
        # Only a reference to an overload set names a callee: an unresolved operator's first
        # child is its left operand (`tile + k` on a `T` array).
        if callee is None or callee.kind != CK.OVERLOADED_DECL_REF:
            return None
        return callee.spelling or None

    def _receiver(self, cursor: cindex.Cursor, children: list[cindex.Cursor]) -> ir.Expr | None:
        """The object of ``object.method(...)``: the expression under the callee's member reference."""
        callee = next(iter(self._expr_children(cursor, children)), None)
        while callee is not None and callee.kind in (CK.UNEXPOSED_EXPR, *TRANSPARENT_EXPRS):
            callee = next(iter(self._expr_children(callee)), None)
        if callee is None or callee.kind != CK.MEMBER_REF_EXPR:
            return None
        objects = self._expr_children(callee)
        return self.expr(objects[0]) if objects else None

    @staticmethod
    def _anchored(expressions: list[ir.Expr], span: ir.Span) -> list[ir.Expr]:
        """Give location-less nodes (defaulted arguments) their call's span."""
        return [dataclasses.replace(e, span=span) if e.span is NOWHERE else e for e in expressions]

    def _launch(self, call: ir.Expr, config: cindex.Cursor) -> None:
        config_args: list[ir.Expr | None] = list(
            self._anchored([self.expr(a) for a in config.get_arguments()], call.span)
        )
        config_args += [None] * (4 - len(config_args))
        self.launches.append(
            ir.LaunchSite(
                kernel=call.decl or call.name or "",
                kernel_name=call.name or "",
                grid=config_args[0],
                block=config_args[1],
                shared_bytes=config_args[2],
                span=call.span,
                caller=self._current_function,
                arguments=call.children,
            )
        )

    def _runtime_launch(self, call: ir.Expr, cursor: cindex.Cursor) -> None:
        """``cudaLaunchKernel(k, grid, block, args, shared, stream)`` (and the cooperative
        form), or ``cudaLaunchKernelEx(&config, k, arguments...)``: a launch of ``k``."""
        extended = call.name == "cudaLaunchKernelEx"
        arguments = list(cursor.get_arguments())
        position = 1 if extended else 0
        if len(arguments) <= position:
            return
        kernel = self._referenced_function(arguments[position])
        if kernel is None:
            return
        values = list(call.children) + [None] * 5
        self.launches.append(
            ir.LaunchSite(
                kernel=self._function_id(kernel),
                kernel_name=kernel.spelling,
                grid=None if extended else values[1],
                block=None if extended else values[2],
                shared_bytes=None if extended else values[4],
                span=call.span,
                caller=self._current_function,
                arguments=tuple(call.children[2:]) if extended else (values[3],) if values[3] is not None else (),
                api=call.name or "",
                config=values[0] if extended else None,
            )
        )

    @staticmethod
    def _referenced_function(cursor: cindex.Cursor) -> cindex.Cursor | None:
        """The kernel an argument names, through casts and ``&``: ``(void*)k``, ``&k<8>``."""
        for node in cursor.walk_preorder():
            if node.kind in (CK.DECL_REF_EXPR, CK.OVERLOADED_DECL_REF):
                referenced = node.referenced
                if referenced is not None and referenced.kind in (CK.FUNCTION_DECL, CK.FUNCTION_TEMPLATE):
                    return referenced
        return None


_NORETURN = frozenset(("noreturn", "__noreturn__", "_Noreturn"))

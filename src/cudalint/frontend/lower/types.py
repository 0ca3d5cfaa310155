"""Types: libclang's types as ir.CType, records with their fields' offsets (base classes'
included), and the widest piece a member-by-member copy moves."""

from __future__ import annotations

from clang import cindex
from clang.cindex import CursorKind as CK
from clang.cindex import TypeKind as TK

from cudalint import ir
from cudalint.frontend import clang_ext

_INTEGER_KINDS = {
    TK.CHAR_U: False,
    TK.UCHAR: False,
    TK.CHAR16: False,
    TK.CHAR32: False,
    TK.USHORT: False,
    TK.UINT: False,
    TK.ULONG: False,
    TK.ULONGLONG: False,
    TK.UINT128: False,
    TK.CHAR_S: True,
    TK.SCHAR: True,
    TK.WCHAR: True,
    TK.SHORT: True,
    TK.INT: True,
    TK.LONG: True,
    TK.LONGLONG: True,
    TK.INT128: True,
}
_SIMPLE_KINDS = {
    TK.VOID: ir.TypeKind.VOID,
    TK.BOOL: ir.TypeKind.BOOL,
    TK.HALF: ir.TypeKind.HALF,
    TK.FLOAT128: ir.TypeKind.LONG_DOUBLE,
    TK.FLOAT: ir.TypeKind.FLOAT,
    TK.DOUBLE: ir.TypeKind.DOUBLE,
    TK.LONGDOUBLE: ir.TypeKind.LONG_DOUBLE,
    TK.ENUM: ir.TypeKind.ENUM,
    TK.FUNCTIONPROTO: ir.TypeKind.FUNCTION,
    TK.FUNCTIONNOPROTO: ir.TypeKind.FUNCTION,
    TK.DEPENDENT: ir.TypeKind.DEPENDENT,
}
_ARRAY_KINDS = (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY, TK.DEPENDENTSIZEDARRAY)
_LAYOUT_KINDS = frozenset(
    (
        *_INTEGER_KINDS,
        TK.BOOL,
        TK.HALF,
        TK.FLOAT,
        TK.DOUBLE,
        TK.LONGDOUBLE,
        TK.FLOAT128,
        TK.POINTER,
        TK.LVALUEREFERENCE,
        TK.RVALUEREFERENCE,
        TK.CONSTANTARRAY,
        TK.RECORD,
        TK.ENUM,
        TK.VECTOR,
        TK.EXTVECTOR,
    )
)


class Types:
    """How the lowering turns a libclang type into an ``ir.CType``; a record's layout goes to ``records``."""

    def ctype(self, cx_type: cindex.Type) -> ir.CType:
        # A type is the same object for the whole translation unit (clang uniques them): its
        # identity is a cheaper key than its spellings.
        key = (cx_type._kind_id, cx_type.data[0])
        cached = self._types.get(key)
        if cached is not None:
            return cached
        # Recursion through self-referential records stops at the record table.
        result = self._build_type(cx_type)
        self._types[key] = result
        return result

    def _build_type(self, cx_type: cindex.Type) -> ir.CType:
        canonical = cx_type.get_canonical()
        try:
            kind = canonical.kind
        except ValueError:  # A type kind newer than the Python bindings (e.g. _Float16).
            return ir.CType(ir.TypeKind.OTHER, cx_type.spelling)
        size = align = -1
        # Layout queries on dependent or error-recovery types abort inside libclang.
        if kind in _LAYOUT_KINDS:
            size = canonical.get_size()
            align = canonical.get_align()
        common = dict(
            spelling=cx_type.spelling,
            size=size if size >= 0 else None,
            align=align if align >= 0 else None,
            is_const=cx_type.is_const_qualified(),
        )
        if kind in _INTEGER_KINDS:
            return ir.CType(ir.TypeKind.INTEGER, is_signed=_INTEGER_KINDS[kind], **common)
        if kind in _SIMPLE_KINDS:
            return ir.CType(_SIMPLE_KINDS[kind], **common)
        if kind == TK.POINTER:
            return ir.CType(ir.TypeKind.POINTER, pointee=self.ctype(canonical.get_pointee()), **common)
        if kind in (TK.LVALUEREFERENCE, TK.RVALUEREFERENCE):
            return ir.CType(ir.TypeKind.REFERENCE, pointee=self.ctype(canonical.get_pointee()), **common)
        if kind in _ARRAY_KINDS:
            count = canonical.get_array_size() if kind == TK.CONSTANTARRAY else None
            return ir.CType(
                ir.TypeKind.ARRAY,
                pointee=self.ctype(canonical.get_array_element_type()),
                count=count if count is not None and count >= 0 else None,
                **common,
            )
        if kind == TK.RECORD:
            name = canonical.get_declaration().type.get_canonical().spelling
            if name not in self.records:
                self.records[name] = ir.Record(name, common["size"], common["align"], ())
                fields = self._inherited_fields(canonical)
                for field in canonical.get_fields():
                    offset = field.get_field_offsetof()
                    fields.append(
                        ir.Field(
                            field.spelling,
                            offset // 8 if offset >= 0 and not field.is_bitfield() else None,
                            self.ctype(field.type),
                        )
                    )
                self.records[name] = ir.Record(name, common["size"], common["align"], tuple(fields))
                self._copy_bytes[name] = _member_copy_bytes(canonical, fields)
            return ir.CType(ir.TypeKind.RECORD, record=name, copy_bytes=self._copy_bytes.get(name), **common)
        if kind == TK.UNEXPOSED and ("type-parameter" in canonical.spelling or "<dependent" in canonical.spelling):
            return ir.CType(ir.TypeKind.DEPENDENT, **common)
        return ir.CType(ir.TypeKind.OTHER, **common)

    def _inherited_fields(self, record: cindex.Type) -> list[ir.Field]:
        """Fields of the base classes, at their offsets in ``record`` (``frag.x`` of a wmma
        fragment is declared in its base). Non-virtual bases of a class without a vtable
        are laid out in order, each at the next offset its alignment allows; an empty base
        takes no room. Dynamic classes put a vtable pointer first: their bases are left out."""
        declaration = record.get_declaration()
        bases = [c for c in declaration.get_children() if c.kind == CK.CXX_BASE_SPECIFIER]
        if not bases or any(c.kind == CK.CXX_METHOD and c.is_virtual_method() for c in declaration.get_children()):
            return []
        fields: list[ir.Field] = []
        end = 0
        for base in bases:
            base_type = self.ctype(base.type)
            layout = self.records.get(base_type.record or "")
            if clang_ext.is_virtual_base(base) or layout is None or base_type.size is None or not base_type.align:
                return []
            if not layout.fields:
                continue  # Empty base optimization.
            start = -(-end // base_type.align) * base_type.align
            fields += [ir.Field(f.name, None if f.offset is None else start + f.offset, f.type) for f in layout.fields]
            end = start + base_type.size
        return fields


def integral(cx_type: cindex.Type) -> bool:
    try:
        kind = cx_type.get_canonical().kind
    except ValueError:  # A type kind newer than the Python bindings.
        return False
    return kind in _INTEGER_KINDS or kind in (TK.BOOL, TK.ENUM)


_MAX_PIECE_BYTES = 16
"""The widest load or store of one lane (LDG.E.128)."""


def _member_copy_bytes(record: cindex.Type, fields: list[ir.Field]) -> int | None:
    """The widest piece nvcc moves when it copies ``record`` member by member, which it does
    when a member's type has a copy constructor or assignment of its own (``__half2``,
    ``__nv_bfloat162``): each member is copied by its own code, never merged into wider
    loads (an ``alignas(16)`` struct of four ``__half2`` moves as four 4-byte pieces). None
    when every member copies as plain bytes, or when ``record`` has copy code of its own (it
    moves as one unit then)."""
    if _copies_itself(record):
        return None
    declared = {f.spelling: f.type.get_canonical() for f in record.get_fields()}
    pieces = []
    member_wise = False
    for field in fields:
        element = field.type
        while element.kind is ir.TypeKind.ARRAY and element.pointee is not None:
            element = element.pointee
        member = declared.get(field.name)
        while member is not None and member.kind in _ARRAY_KINDS:
            member = member.get_array_element_type().get_canonical()
        if element.copy_bytes:
            member_wise = True
            pieces.append(element.copy_bytes)
            continue
        if member is not None and member.kind == TK.RECORD and _copies_itself(member):
            member_wise = True
        size = element.size or _MAX_PIECE_BYTES
        pieces.append(min(size, element.align or size, _MAX_PIECE_BYTES))
    return min(pieces) if member_wise and pieces else None


def _copies_itself(record: cindex.Type) -> bool:
    """Whether ``record`` has a user-provided copy constructor or copy assignment."""
    for child in record.get_declaration().get_children():
        copies = (child.kind == CK.CONSTRUCTOR and child.is_copy_constructor()) or (
            child.kind == CK.CXX_METHOD and child.is_copy_assignment_operator_method()
        )
        if copies and not child.is_default_method() and not child.is_deleted_method():
            return True
    return False

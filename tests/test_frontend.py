"""The frontend through its public API: source file -> ``ir.TranslationUnit``.

Every fixture under ``fixtures/frontend`` is parsed once per header mode (the cache
below outlives the tests), and the tests assert on the IR alone.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from conftest import toolkit_available
from cudalint import frontend, ir

FIXTURES = Path(__file__).parent / "fixtures" / "frontend"
TOOLKIT = toolkit_available()
needs_toolkit = pytest.mark.skipif(not TOOLKIT, reason="no CUDA toolkit found")

E = ir.ExprKind
S = ir.StmtKind
T = ir.TypeKind

_ENVIRONMENTS: dict[str, frontend.ParseEnvironment] = {}
_PARSED: dict[tuple[str, str], ir.TranslationUnit] = {}
PARSE_SECONDS: dict[tuple[str, str], float] = {}


def environment(mode: str) -> frontend.ParseEnvironment:
    if mode not in _ENVIRONMENTS:
        _ENVIRONMENTS[mode] = frontend.build_environment(frontend.FrontendOptions(header_mode=mode))
    return _ENVIRONMENTS[mode]


def parse(name: str, mode: str) -> ir.TranslationUnit:
    """Each fixture is parsed at most once per header mode per test session."""
    key = (name, mode)
    if key not in _PARSED:
        started = time.perf_counter()
        _PARSED[key] = frontend.parse_file(str(FIXTURES / name), environment(mode))
        PARSE_SECONDS[key] = time.perf_counter() - started
    return _PARSED[key]


# ---------------------------------------------------------------------------- helpers


def functions(tu: ir.TranslationUnit, name: str) -> list[ir.Function]:
    return [f for f in tu.functions if f.name == name]


def function(tu: ir.TranslationUnit, name: str, *, pattern: bool | None = None, args: tuple = ()) -> ir.Function:
    """The one function named ``name`` (optionally: the pattern, or the instantiation with ``args``)."""
    found = functions(tu, name)
    if pattern is not None:
        found = [f for f in found if f.is_template_pattern is pattern]
    if args:
        found = [f for f in found if tuple(a.value for a in f.template_args) == args]
    assert len(found) == 1, f"{name}: expected one match, got {[f.display_name for f in found]}"
    return found[0]


def statements(fn: ir.Function) -> list[ir.Stmt]:
    assert fn.body is not None, f"{fn.name} has no body"
    return list(fn.body.walk())


def all_exprs(fn: ir.Function) -> list[ir.Expr]:
    return [node for stmt in statements(fn) for root in stmt.expressions() for node in root.walk()]


def top_level(fn: ir.Function) -> tuple[ir.Stmt, ...]:
    assert fn.body is not None and fn.body.kind is S.COMPOUND
    return fn.body.body


def local(fn: ir.Function, name: str) -> ir.VarDecl:
    found = [v for stmt in statements(fn) for v in stmt.decls if v.name == name]
    assert len(found) == 1, f"local {name!r}: {len(found)} matches"
    return found[0]


def init(fn: ir.Function, name: str) -> ir.Expr:
    var = local(fn, name)
    assert var.init is not None, f"{name} has no initializer"
    return var.init


def bare(expr: ir.Expr) -> ir.Expr:
    """Below any implicit casts."""
    while expr.kind is E.CAST and expr.cast is ir.CastKind.IMPLICIT and expr.children:
        expr = expr.children[0]
    return expr


def expr_stmts(fn: ir.Function) -> list[ir.Expr]:
    return [s.expr for s in statements(fn) if s.kind is S.EXPR and s.expr is not None]


def literal_values(call: ir.Expr) -> list:
    return [bare(child).value for child in call.children]


def is_literal(expr: ir.Expr, value) -> bool:
    node = bare(expr)
    return node.kind in (E.INT_LITERAL, E.FLOAT_LITERAL) and node.value == value


def check_clean(tu: ir.TranslationUnit) -> None:
    listing = "\n".join(f"  {d.span.line if d.span else '?'}: {d.message}" for d in tu.errors)
    assert tu.errors == (), f"clang errors (embedded mode: is the shim cuda_runtime.h there?):\n{listing}"


# ---------------------------------------------------------------------------- every fixture

CLEAN_FIXTURES = [
    "functions.cu",
    "templates.cu",
    "macros.cu",
    "launch_bounds.cu",
    "launches.cu",
    "statements.cu",
    "storage.cu",
    "expressions.cu",
    "literals.cu",
    "records.cu",
    "nvcc_constructs.cu",
]


@pytest.mark.parametrize("name", CLEAN_FIXTURES)
def test_fixture_parses_without_errors(name, header_mode):
    tu = parse(name, header_mode)
    check_clean(tu)
    assert tu.header_mode is ir.HeaderMode(header_mode)
    assert tu.path == os.path.abspath(FIXTURES / name)
    assert tu.source_lines == tuple((FIXTURES / name).read_text().splitlines())
    assert tu.functions, "no functions lowered"


@pytest.mark.parametrize("name", CLEAN_FIXTURES)
def test_all_main_file_spans_point_into_the_file(name, header_mode):
    tu = parse(name, header_mode)
    line_count = len(tu.source_lines)
    for fn in tu.functions:
        if not fn.in_main_file:
            continue
        assert fn.span.file == tu.path
        assert 1 <= fn.span.line <= line_count
        for stmt in statements(fn) if fn.body else ():
            assert 1 <= stmt.span.line <= line_count, (fn.name, stmt.kind)
            assert (stmt.span.end_line, stmt.span.end_column) >= (stmt.span.line, stmt.span.column)


def test_build_environment_reports_the_mode(header_mode):
    env = environment(header_mode)
    assert env.header_mode is ir.HeaderMode(header_mode)
    if header_mode == "embedded":
        assert "-nocudainc" in env.base_args
    else:
        cuda_path = next(a.split("=", 1)[1] for a in env.base_args if a.startswith("--cuda-path="))
        assert os.path.isfile(os.path.join(cuda_path, "include", "cuda_runtime.h"))


def test_code_nvcc_compiles_under_its_version_macros_is_read(header_mode, tmp_path):
    """nvcc defines ``__CUDACC_VER_MAJOR__``/``__CUDACC_VER_MINOR__`` and clang does not: a
    kernel written under ``#if __CUDACC_VER_MAJOR__ >= 12`` (as CUTLASS guards its Hopper
    code) exists for nvcc, so it must for the analysis, with the version the toolkit (or
    the embedded headers) declare in ``CUDA_VERSION``."""
    source = tmp_path / "versioned.cu"
    source.write_text(
        "#if defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ >= 12\n"
        "__global__ void hopper_path(float* out) {\n"
        "    out[threadIdx.x] = __CUDACC_VER_MAJOR__ * 100 + __CUDACC_VER_MINOR__;\n"
        "}\n"
        "#endif\n"
    )
    tu = frontend.parse_file(str(source), environment(header_mode))
    (kernel,) = functions(tu, "hopper_path")
    ((store,),) = [s.expressions() for s in statements(kernel) if s.kind is S.EXPR]
    literals = [node.value for node in store.children[1].walk() if node.kind is E.INT_LITERAL]
    env = environment(header_mode)
    cuda_path = next((a.split("=", 1)[1] for a in env.base_args if a.startswith("--cuda-path=")), None)
    header = Path(cuda_path, "include", "cuda.h") if cuda_path else Path(frontend.flags.shim_dir(), "cuda_runtime.h")
    version = int(re.search(r"#define CUDA_VERSION (\d+)", header.read_text()).group(1))
    assert literals == [version // 1000, 100, version % 1000 // 10]


def test_embedded_shim_header_exists():
    shim = Path(frontend.flags.shim_dir()) / "cuda_runtime.h"
    assert shim.is_file(), f"{shim} is missing: every embedded-mode parse fails until it exists"


# ---------------------------------------------------------------------------- functions


@pytest.fixture
def tu_functions(header_mode):
    return parse("functions.cu", header_mode)


def test_function_kinds(tu_functions):
    kinds = {f.qualified_name: f.kind for f in tu_functions.functions}
    # Host code that launches nothing and holds no device lambda is not lowered: nothing
    # reads it (`host_only`), while a launcher's body gives the launch its block shape.
    assert kinds == {
        "square": ir.FunctionKind.DEVICE,
        "twice": ir.FunctionKind.HOST_DEVICE,
        "plain_kernel": ir.FunctionKind.KERNEL,
        "outer::inner::nested_kernel": ir.FunctionKind.KERNEL,
        "outer::inner::pick": ir.FunctionKind.DEVICE,
        "Worker::scaled": ir.FunctionKind.DEVICE,
        "flag": ir.FunctionKind.DEVICE,
        "host_launcher": ir.FunctionKind.HOST,
    }
    # A declaration without a body is not a Function.
    assert not functions(tu_functions, "declared_only")
    assert all(f.in_main_file and f.body is not None for f in tu_functions.functions)
    assert all(not f.is_template_pattern and f.template_args == () for f in tu_functions.functions)


def test_device_functions_excludes_host_code(tu_functions):
    names = {f.name for f in tu_functions.device_functions()}
    assert names == {"square", "twice", "plain_kernel", "nested_kernel", "pick", "scaled", "flag"}
    assert ir.FunctionKind.HOST_DEVICE.runs_on_device and not ir.FunctionKind.HOST.runs_on_device


def test_function_identity_and_position(tu_functions):
    decls = [f.decl for f in tu_functions.functions]
    assert len(set(decls)) == len(decls)
    kernel = function(tu_functions, "plain_kernel")
    assert kernel.span.line == 15 and kernel.span.file == tu_functions.path
    assert kernel.display_name == "plain_kernel"
    nested = function(tu_functions, "nested_kernel")
    assert nested.name == "nested_kernel" and nested.display_name == "outer::inner::nested_kernel"
    assert nested.span.line == 22


def test_scalar_and_pointer_parameters(tu_functions):
    kernel = function(tu_functions, "plain_kernel")
    assert [p.name for p in kernel.params] == ["out", "in", "n", "scale"]
    assert all(p.storage is ir.StorageClass.PARAMETER and p.init is None for p in kernel.params)
    out, in_, n, scale = (p.type for p in kernel.params)
    assert out.kind is T.POINTER and out.size == 8 and not out.is_const
    assert out.pointee.kind is T.FLOAT and not out.pointee.is_const and out.pointee.size == 4
    assert in_.kind is T.POINTER and not in_.is_const
    assert in_.pointee.kind is T.FLOAT and in_.pointee.is_const
    assert in_.spelling == "const float *"
    assert n.kind is T.INTEGER and n.is_signed is True and n.size == 4 and n.spelling == "int"
    assert scale.kind is T.DOUBLE and scale.size == 8
    assert kernel.return_type.kind is T.VOID
    assert [p.span.line for p in kernel.params] == [15] * 4


def test_record_reference_and_wide_parameters(tu_functions):
    pairs, ref, counter = (p.type for p in function(tu_functions, "nested_kernel").params)
    assert pairs.kind is T.POINTER and pairs.pointee.kind is T.RECORD
    assert pairs.pointee.record == "Pair" and pairs.pointee.is_const
    assert ref.kind is T.REFERENCE and ref.pointee.kind is T.RECORD and ref.pointee.record == "Pair"
    assert counter.pointee.kind is T.INTEGER and counter.pointee.is_signed is False and counter.pointee.size == 8
    assert "Pair" in tu_functions.records


def test_return_types_and_nested_const(tu_functions):
    pick = function(tu_functions, "pick")
    ret = pick.return_type
    assert ret.kind is T.POINTER and ret.pointee.kind is T.FLOAT and ret.pointee.is_const
    table = pick.params[0].type
    assert table.kind is T.POINTER and not table.is_const
    assert table.pointee.kind is T.POINTER and table.pointee.is_const
    assert table.pointee.pointee.kind is T.FLOAT and table.pointee.pointee.is_const
    assert function(tu_functions, "square").return_type.kind is T.FLOAT
    assert function(tu_functions, "twice").return_type.spelling == "int"
    assert function(tu_functions, "scaled").return_type.kind is T.DOUBLE
    flag = function(tu_functions, "flag")
    assert flag.return_type.kind is T.BOOL
    s, c, u = (p.type for p in flag.params)
    assert (s.size, s.is_signed) == (2, True)
    assert (c.size, c.kind) == (1, T.INTEGER)
    assert (u.size, u.is_signed) == (1, False)


def test_calls_reference_their_callee(tu_functions):
    kernel = function(tu_functions, "plain_kernel")
    calls = {e.name: e for e in all_exprs(kernel) if e.kind is E.CALL}
    assert calls["square"].decl == function(tu_functions, "square").decl
    assert calls["twice"].decl == function(tu_functions, "twice").decl
    assert calls["square"].type.kind is T.FLOAT
    assert [bare(a).kind for a in calls["square"].children] == [E.SUBSCRIPT]


def test_host_launcher_launch(tu_functions, request):
    (launch,) = tu_functions.launches
    assert launch.kernel == function(tu_functions, "plain_kernel").decl
    assert launch.kernel_name == "plain_kernel"
    assert launch.caller == function(tu_functions, "host_launcher").decl
    assert launch.span.line == 40 and launch.span.column == 5
    grid = launch.grid
    assert grid.kind is E.CALL and grid.op == "construct" and grid.name == "dim3"
    assert bare(grid.children[0]).kind is E.BINARY and bare(grid.children[0]).op == "/"
    assert literal_values(launch.block) == [256, 1, 1]


# ---------------------------------------------------------------------------- templates


@pytest.fixture
def tu_templates(header_mode):
    return parse("templates.cu", header_mode)


def test_template_pattern(tu_templates):
    pattern = function(tu_templates, "axpy_k", pattern=True)
    assert pattern.kind is ir.FunctionKind.KERNEL and pattern.template_args == ()
    assert pattern.params[2].type.kind is T.DEPENDENT
    assert pattern.params[0].type.kind is T.POINTER and pattern.params[0].type.pointee.kind is T.DEPENDENT
    assert pattern.params[3].type.kind is T.INTEGER
    # The non-type parameter is still a name in the pattern.
    refs = [e for e in all_exprs(pattern) if e.kind is E.DECL_REF and e.name == "K"]
    assert len(refs) == 1


def test_template_instantiations_have_arguments(tu_templates):
    instances = [f for f in functions(tu_templates, "axpy_k") if not f.is_template_pattern]
    assert sorted((tuple((a.kind, a.value) for a in f.template_args)) for f in instances) == [
        (("type", "double"), ("integral", 8)),
        (("type", "float"), ("integral", 4)),
    ]
    f32 = function(tu_templates, "axpy_k", pattern=False, args=("float", 4))
    assert f32.display_name == "axpy_k<float, 4>"
    assert f32.kind is ir.FunctionKind.KERNEL and f32.in_main_file
    assert len({f.decl for f in functions(tu_templates, "axpy_k")}) == 3


@pytest.mark.parametrize("args, kind, k", [(("float", 4), T.FLOAT, 4), (("double", 8), T.DOUBLE, 8)])
def test_instantiated_body_is_concrete(tu_templates, args, kind, k):
    fn = function(tu_templates, "axpy_k", pattern=False, args=args)
    y, x, a, n = (p.type for p in fn.params)
    assert y.kind is T.POINTER and y.pointee.kind is kind
    assert x.pointee.kind is kind and x.pointee.is_const
    assert a.kind is kind and n.kind is T.INTEGER
    acc = local(fn, "acc")
    assert acc.type.kind is kind
    value = acc.init
    assert value.kind is E.BINARY and value.op == "+" and value.type.kind is kind
    constant = bare(value.children[1])
    assert constant.kind is E.INT_LITERAL and constant.value == k
    assert constant.span.line == 8
    assert not [e for e in all_exprs(fn) if e.type.kind is T.DEPENDENT]
    assert not [e for e in all_exprs(fn) if e.kind is E.DECL_REF and e.name == "K"]


def test_deduced_instantiation_and_device_template(tu_templates):
    kernel = function(tu_templates, "clamp_kernel", pattern=False)
    assert [(a.kind, a.value) for a in kernel.template_args] == [("type", "float")]
    assert kernel.params[0].type.pointee.kind is T.FLOAT
    helper = function(tu_templates, "clamp01", pattern=False)
    assert helper.kind is ir.FunctionKind.DEVICE and helper.return_type.kind is T.FLOAT
    call = next(e for e in all_exprs(kernel) if e.kind is E.CALL and e.name == "clamp01")
    assert call.decl == helper.decl
    assert function(tu_templates, "clamp01", pattern=True).return_type.kind is T.DEPENDENT


def test_template_launch_ids_match_instantiations(tu_templates, request):
    by_decl = {f.decl: f for f in tu_templates.functions}
    launched = []
    for launch in tu_templates.launches:
        assert launch.kernel in by_decl, launch.kernel
        target = by_decl[launch.kernel]
        assert not target.is_template_pattern and target.name == launch.kernel_name
        launched.append(target.display_name)
        assert launch.caller == function(tu_templates, "launch_all").decl
    assert launched == ["axpy_k<float, 4>", "axpy_k<double, 8>", "clamp_kernel<float>"]
    # The launch call expression in the host body names the same instantiation.
    calls = [e for e in expr_stmts(function(tu_templates, "launch_all")) if e.kind is E.CALL]
    assert [c.decl for c in calls] == [launch.kernel for launch in tu_templates.launches]


def test_kernel_launched_only_through_host_templates_is_instantiated(header_mode):
    tu = parse("host_templates.cu", header_mode)
    kernel = function(tu, "strided_scale", pattern=False)
    assert [(a.kind, a.value) for a in kernel.template_args] == [("type", "double"), ("integral", 2)]
    assert kernel.params[0].type.pointee.kind is T.DOUBLE
    assert {launch.kernel for launch in tu.launches if launch.kernel} == {kernel.decl}


# ---------------------------------------------------------------------------- macros


@pytest.fixture
def tu_macros(header_mode):
    return parse("macros.cu", header_mode)


def _macro_index(tu):
    fn = function(tu, "macro_kernel")
    assign = expr_stmts(fn)[0]
    assert assign.kind is E.ASSIGN
    subscript = assign.children[0]
    assert subscript.kind is E.SUBSCRIPT
    return fn, assign, bare(subscript.children[1])


def test_macro_expression_reports_the_expansion_site(tu_macros):
    _, _, index = _macro_index(tu_macros)
    assert index.kind is E.BINARY and index.op == "+"
    assert (index.span.line, index.span.column) == (12, 7)
    assert (index.span.end_line, index.span.end_column) == (12, 19)
    product = bare(index.children[0])
    assert product.kind is E.BINARY and product.op == "*"
    assert product.span.line == 12


def test_macro_arguments_keep_the_position_they_are_written_at(tu_macros):
    # Arguments are written by the user at the invocation: exact spans, editable, not "from macro".
    _, _, index = _macro_index(tu_macros)
    refs = {e.name: e for e in index.walk() if e.kind is E.DECL_REF}
    assert set(refs) == {"r", "c", "n"}
    for name, column in (("r", 11), ("c", 14), ("n", 17)):
        span = refs[name].span
        assert (span.line, span.column, span.end_column) == (12, column, column + 1)
        assert not span.from_macro


def test_macro_body_operators_are_marked_from_macro(tu_macros):
    _, _, index = _macro_index(tu_macros)
    product = bare(index.children[0])
    for expr in (index, product):
        assert expr.span.from_macro
        assert expr.span.spelling.line == 4


@pytest.mark.parametrize("statement, kind, value", [(0, E.FLOAT_LITERAL, 0.5), (1, E.INT_LITERAL, 256)])
def test_object_like_macro_literal_value(tu_macros, statement, kind, value):
    fn = function(tu_macros, "macro_kernel")
    rhs = expr_stmts(fn)[statement].children[1]
    literal = bare(rhs if kind is E.FLOAT_LITERAL else rhs.children[1])
    assert literal.kind is kind and literal.value == value
    assert literal.span.line == (12 if statement == 0 else 14)


@pytest.mark.parametrize("statement, text, define_line", [(0, "0.5", 5), (1, "256", 6)])
def test_object_like_macro_literal_text(tu_macros, statement, text, define_line):
    fn = function(tu_macros, "macro_kernel")
    rhs = expr_stmts(fn)[statement].children[1]
    literal = bare(rhs if statement == 0 else rhs.children[1])
    assert literal.text == text
    assert literal.span.from_macro and literal.span.spelling.line == define_line


def test_function_like_macro_with_repeated_argument(tu_macros):
    fn = function(tu_macros, "macro_kernel")
    square = init(fn, "v")
    assert square.kind is E.BINARY and square.op == "*" and square.type.kind is T.FLOAT
    assert (square.span.line, square.span.column) == (13, 15)
    assert [c.kind for c in square.children] == [E.SUBSCRIPT, E.SUBSCRIPT]
    for operand in square.children:
        assert operand.span.line == 13 and not operand.span.from_macro


def _grid_stride_loop(tu) -> ir.Stmt:
    (loop,) = top_level(function(tu, "grid_stride"))
    assert loop.kind is S.FOR
    return loop


def test_loop_header_written_by_a_macro(tu_macros):
    loop = _grid_stride_loop(tu_macros)
    assert (loop.span.line, loop.span.column) == (21, 5)
    assert loop.init.kind is S.DECL and loop.init.decls[0].name == "index"
    assert loop.cond.kind is E.BINARY and loop.cond.op == "<"
    assert loop.step.kind is E.ASSIGN and loop.step.op == "+="
    assert loop.body[0].kind is S.COMPOUND and loop.body[0].span.line == 21
    store = loop.body[0].body[0].expr
    assert store.kind is E.ASSIGN and store.span.line == 22 and not store.span.from_macro


def test_builtins_inside_a_macro_body(tu_macros):
    loop = _grid_stride_loop(tu_macros)
    start = [(e.name, e.member) for e in loop.init.decls[0].init.walk() if e.kind is E.BUILTIN_INDEX]
    assert start == [("blockIdx", "x"), ("blockDim", "x"), ("threadIdx", "x")]
    stride = [(e.name, e.member) for e in loop.step.walk() if e.kind is E.BUILTIN_INDEX]
    assert stride == [("blockDim", "x"), ("gridDim", "x")]
    assert not [e for e in loop.step.walk() if e.kind is E.MEMBER]


# ---------------------------------------------------------------------------- launch bounds


@pytest.fixture
def tu_bounds(header_mode):
    return parse("launch_bounds.cu", header_mode)


@pytest.mark.parametrize(
    "name, max_threads, min_blocks, text",
    [
        ("one_arg", 256, None, "256"),
        ("two_args", 128, 4, "128, 4"),
        ("macro_arg", 256, 2, "BLOCK, 2"),
        ("split_lines", 512, None, "BLOCK * 2"),
    ],
)
def test_launch_bounds(tu_bounds, name, max_threads, min_blocks, text):
    fn = function(tu_bounds, name)
    assert fn.launch_bounds == ir.LaunchBounds(max_threads, min_blocks, None, text)
    assert fn.max_registers is None


def test_maxnreg(tu_bounds):
    # clang 18 has no maxnreg attribute: it warns "unknown attribute 'maxnreg' ignored"
    # (a warning, so not in tu.errors) and the value comes from the tokens.
    fn = function(tu_bounds, "capped")
    assert fn.max_registers == 32 and fn.launch_bounds is None
    assert tu_bounds.errors == ()


def test_no_bounds(tu_bounds):
    fn = function(tu_bounds, "unbounded")
    assert fn.launch_bounds is None and fn.max_registers is None


def test_dependent_launch_bounds_in_the_pattern(tu_bounds):
    pattern = function(tu_bounds, "templated_bounds", pattern=True)
    assert pattern.launch_bounds is not None
    assert pattern.launch_bounds.max_threads is None and pattern.launch_bounds.text == "N"


def test_dependent_launch_bounds_in_the_instantiation(tu_bounds):
    instance = function(tu_bounds, "templated_bounds", pattern=False)
    assert instance.launch_bounds.max_threads == 64


# ---------------------------------------------------------------------------- launches


@pytest.fixture
def tu_launches(header_mode, request):
    return parse("launches.cu", header_mode)


def _launch_in(tu, caller: str) -> list[ir.LaunchSite]:
    decl = function(tu, caller).decl
    return [launch for launch in tu.launches if launch.caller == decl]


def test_launch_with_ints_shared_and_stream(tu_launches):
    (launch,) = _launch_in(tu_launches, "launch_int")
    assert launch.kernel == function(tu_launches, "fill").decl and launch.kernel_name == "fill"
    assert (launch.span.line, launch.span.column) == (14, 5)
    for config, values in ((launch.grid, [64, 1, 1]), (launch.block, [256, 1, 1])):
        assert config.kind is E.CALL and config.op == "construct" and config.name == "dim3"
        assert config.type.kind is T.RECORD and config.type.record == "dim3"
        assert literal_values(config) == values
        written = bare(config.children[0])
        assert written.kind is E.INT_LITERAL and written.text == str(values[0]) and written.span.line == 14
        for default in config.children[1:]:
            assert default.kind is E.INT_LITERAL and default.type.kind is T.INTEGER
    shared = bare(launch.shared_bytes)
    assert shared.kind is E.INT_LITERAL and shared.value == 1024 and shared.text == "1024"
    assert launch.shared_bytes.type.kind is T.INTEGER and launch.shared_bytes.type.size == 8


def test_launch_with_dim3_temporaries(tu_launches):
    (launch,) = _launch_in(tu_launches, "launch_dim3")
    assert launch.kernel == function(tu_launches, "fill2d").decl
    assert literal_values(launch.grid) == [16, 16, 1]
    assert literal_values(launch.block) == [32, 8, 2]
    assert [bare(c).text for c in launch.block.children] == ["32", "8", "2"]
    # No shared-memory argument written: the defaulted 0.
    assert launch.shared_bytes is not None and is_literal(launch.shared_bytes, 0)


def test_launch_with_dim3_variables(tu_launches):
    caller = function(tu_launches, "launch_var")
    (launch,) = _launch_in(tu_launches, "launch_var")
    for config, variable in ((launch.grid, "grid"), (launch.block, "block")):
        ref = config
        if ref.kind is E.CALL:  # the copy construction of the argument
            assert ref.op == "construct" and len(ref.children) == 1
            ref = ref.children[0]
        ref = bare(ref)
        assert ref.kind is E.DECL_REF and ref.name == variable
        assert ref.decl == local(caller, variable).decl
    assert bare(launch.shared_bytes).kind is E.DECL_REF and bare(launch.shared_bytes).name == "shmem"
    block = init(caller, "block")
    assert block.kind is E.CALL and block.op == "construct" and block.name == "dim3"
    assert literal_values(block) == [32, 8, 1]
    assert local(caller, "block").type.record == "dim3"
    grid = init(caller, "grid")
    assert bare(grid.children[0]).kind is E.BINARY and literal_values(grid)[1:] == [1, 1]


def test_template_launches(tu_launches):
    launches = _launch_in(tu_launches, "launch_templates")
    targets = [next(f for f in tu_launches.functions if f.decl == launch.kernel) for launch in launches]
    assert [f.display_name for f in targets] == ["scale<float>", "scale<double>"]
    assert [f.params[1].type.kind for f in targets] == [T.FLOAT, T.DOUBLE]
    assert all(not f.is_template_pattern and f.kind is ir.FunctionKind.KERNEL for f in targets)


def test_every_launch_targets_a_lowered_kernel(tu_launches):
    by_decl = {f.decl: f for f in tu_launches.functions}
    assert len(tu_launches.launches) == 5
    for launch in tu_launches.launches:
        assert by_decl[launch.kernel].kind is ir.FunctionKind.KERNEL
        assert by_decl[launch.caller].kind is ir.FunctionKind.HOST


def test_defaulted_arguments_have_a_real_position(tu_launches):
    (launch,) = _launch_in(tu_launches, "launch_int")
    for default in (*launch.grid.children[1:], *launch.block.children[1:]):
        assert default.span.line >= 1 and default.span.column >= 1


# ---------------------------------------------------------------------------- statements


@pytest.fixture
def tu_statements(header_mode):
    return parse("statements.cu", header_mode)


def _loops(tu) -> list[ir.Stmt]:
    return [s for s in top_level(function(tu, "loops")) if s.kind is S.FOR]


def test_pragma_unroll(tu_statements):
    loops = _loops(tu_statements)
    assert [loop.unroll for loop in loops] == [
        ir.Unroll(None),
        ir.Unroll(4),
        ir.Unroll(1),
        None,
        None,
        None,
        None,
        None,
    ]


def test_pragma_unroll_forms(tu_statements):
    stmts = top_level(function(tu_statements, "pragma_forms"))
    assert stmts[0].unroll == ir.Unroll(2)  # #pragma unroll(2)
    assert stmts[1].unroll == ir.Unroll(8)  # indented pragma, comment before the loop
    assert stmts[3].kind is S.WHILE and stmts[3].unroll == ir.Unroll(None)


def test_pragma_unroll_constexpr_count(tu_statements):
    stmt = top_level(function(tu_statements, "pragma_forms"))[2]
    assert stmt.unroll == ir.Unroll(2)


def test_for_loop_with_all_clauses(tu_statements):
    first, second, third = _loops(tu_statements)[:3]
    for loop in (first, second, third):
        assert loop.init.kind is S.DECL and loop.init.decls[0].name == "i"
        assert is_literal(loop.init.decls[0].init, 0)
        assert loop.cond.kind is E.BINARY and loop.cond.op == "<"
        assert len(loop.body) == 1 and loop.body[0].kind is S.EXPR
    assert first.step.kind is E.UNARY and first.step.op == "++"
    assert second.step.kind is E.UNARY and second.step.op == "post++"
    assert third.step.kind is E.ASSIGN and third.step.op == "+="
    assert is_literal(first.cond.children[1], 4)
    assert second.body[0].expr.op == "+=" and third.body[0].expr.op == "-="


def test_for_loops_with_missing_clauses(tu_statements):
    loops = _loops(tu_statements)
    forever, init_only, cond_only, cond_step, init_step = loops[3:]
    assert (forever.init, forever.cond, forever.step) == (None, None, None)
    assert forever.body[0].kind is S.COMPOUND and forever.body[0].body[0].kind is S.BREAK

    assert init_only.init.kind is S.DECL and init_only.cond is None and init_only.step is None
    inner_if = init_only.body[0].body[0]
    assert inner_if.kind is S.IF and inner_if.cond.op == ">" and inner_if.body[0].kind is S.BREAK

    assert cond_only.init is None and cond_only.step is None
    assert cond_only.cond.kind is E.BINARY and cond_only.cond.op == "<"
    assert cond_only.body[0].body[0].expr.op == "++"

    assert cond_step.init is None and cond_step.cond.op == "<" and cond_step.step.op == "post++"
    assert cond_step.body[0].kind is S.CONTINUE

    assert init_step.init.kind is S.EXPR and init_step.init.expr.kind is E.ASSIGN
    assert init_step.cond is None and init_step.step.op == "post++"
    assert init_step.body[0].body[0].body[0].kind is S.RETURN


def test_if_else_chain(tu_statements):
    chain = top_level(function(tu_statements, "branches"))[0]
    assert chain.kind is S.IF and chain.init is None
    assert chain.cond.op == ">" and chain.body[0].kind is S.COMPOUND
    elif_ = chain.orelse
    assert elif_.kind is S.IF and elif_.cond.op == "=="
    assert elif_.orelse.kind is S.COMPOUND
    assert elif_.orelse.body[0].expr.children[0].name == "b"


def test_if_with_init_statement(tu_statements):
    stmt = top_level(function(tu_statements, "branches"))[1]
    assert stmt.kind is S.IF
    assert stmt.init is not None and stmt.init.kind is S.DECL
    (var,) = stmt.init.decls
    assert var.name == "c" and var.init.kind is E.BINARY and var.init.op == "-"
    assert stmt.cond.kind is E.BINARY and stmt.cond.op == ">"
    assert bare(stmt.cond.children[0]).name == "c"
    assert stmt.body[0].kind is S.RETURN and stmt.orelse is None


def test_simple_if_while_do(tu_statements):
    _, _, plain_if, loop, do = top_level(function(tu_statements, "branches"))[:5]
    assert plain_if.kind is S.IF and bare(plain_if.cond).name == "a" and plain_if.orelse is None
    assert plain_if.body[0].kind is S.EXPR
    assert loop.kind is S.WHILE and loop.cond.op == "<" and loop.body[0].expr.op == "post++"
    assert loop.unroll is None
    assert do.kind is S.DO and do.cond.op == ">"
    assert do.body[0].kind is S.COMPOUND and do.body[0].body[0].expr.op == "post--"


def test_switch(tu_statements):
    stmt = top_level(function(tu_statements, "branches"))[5]
    assert stmt.kind is S.SWITCH and bare(stmt.cond).name == "a"
    (block,) = stmt.body
    kinds = [s.kind for s in block.body]
    assert kinds == [S.CASE, S.BREAK, S.CASE, S.BREAK, S.DEFAULT]
    case0, _, case1, _, default = block.body
    assert is_literal(case0.expr, 0) and case0.body[0].kind is S.EXPR
    assert is_literal(case1.expr, 1)
    case2 = case1.body[0]  # fallthrough: case 1: case 2: ...
    assert case2.kind is S.CASE and is_literal(case2.expr, 2)
    assert case2.body[0].expr.kind is E.ASSIGN
    assert default.body[0].expr.kind is E.ASSIGN


def test_goto_and_label(tu_statements):
    stmts = top_level(function(tu_statements, "branches"))
    goto, label = stmts[6], stmts[7]
    assert goto.kind is S.GOTO and goto.label == "done"
    assert label.kind is S.LABEL and label.label == "done"
    assert label.body[0].kind is S.RETURN and label.body[0].expr.op == "+"
    assert (label.span.line, label.span.column) == (53, 1)


def test_statement_walk_visits_everything(tu_statements):
    kinds = {s.kind for s in statements(function(tu_statements, "branches"))}
    assert {
        S.COMPOUND,
        S.IF,
        S.DECL,
        S.RETURN,
        S.EXPR,
        S.WHILE,
        S.DO,
        S.SWITCH,
        S.CASE,
        S.DEFAULT,
        S.BREAK,
        S.GOTO,
        S.LABEL,
    } <= kinds
    kinds = {s.kind for s in statements(function(tu_statements, "loops"))}
    assert {S.FOR, S.BREAK, S.CONTINUE, S.RETURN, S.IF} <= kinds
    # The for-loop's init statement is reached by walk(): the decl of ``i``.
    names = [v.name for s in statements(function(tu_statements, "loops")) for v in s.decls]
    assert names.count("i") == 4 and names.count("j") == 1


# ---------------------------------------------------------------------------- storage


@pytest.fixture
def tu_storage(header_mode):
    return parse("storage.cu", header_mode)


def test_global_storage_classes(tu_storage):
    globals_ = {g.name: g for g in tu_storage.globals}
    assert globals_["coeffs"].storage is ir.StorageClass.CONSTANT
    coeffs = globals_["coeffs"].type
    assert coeffs.kind is T.ARRAY and coeffs.count == 16 and coeffs.pointee.kind is T.FLOAT and coeffs.size == 64
    assert globals_["counter"].storage is ir.StorageClass.DEVICE
    assert globals_["host_static"].storage is ir.StorageClass.STATIC
    assert globals_["host_global"].storage is ir.StorageClass.GLOBAL
    assert is_literal(globals_["host_global"].init, 3)
    smem = globals_["dynamic_smem"]
    assert smem.storage is ir.StorageClass.SHARED and smem.is_extern
    assert smem.type.kind is T.ARRAY and smem.type.count is None and smem.type.size is None
    assert not globals_["coeffs"].is_extern
    assert globals_["counter"].span.line == 5
    assert len({g.decl for g in tu_storage.globals}) == len(tu_storage.globals)


def test_managed_global(tu_storage):
    managed = next(g for g in tu_storage.globals if g.name == "managed_value")
    assert managed.storage is ir.StorageClass.MANAGED


def test_shared_and_local_variables(tu_storage):
    fn = function(tu_storage, "uses_shared")
    s = local(fn, "s")
    assert s.storage is ir.StorageClass.SHARED and s.is_extern
    assert s.type.kind is T.ARRAY and s.type.count is None and s.type.pointee.kind is T.FLOAT
    tile = local(fn, "tile")
    assert tile.storage is ir.StorageClass.SHARED and not tile.is_extern
    assert tile.type.kind is T.ARRAY and tile.type.count == 32 and tile.type.size == 4224
    row = tile.type.pointee
    assert row.kind is T.ARRAY and row.count == 33 and row.size == 132
    assert row.pointee.kind is T.FLOAT and row.pointee.size == 4
    assert local(fn, "flag").storage is ir.StorageClass.SHARED
    arr = local(fn, "local_arr")
    assert arr.storage is ir.StorageClass.LOCAL and arr.type.count == 8 and arr.type.size == 32
    assert local(fn, "scalar").storage is ir.StorageClass.LOCAL and is_literal(local(fn, "scalar").init, 0)
    assert local(fn, "persistent").storage is ir.StorageClass.DEVICE


def test_two_dimensional_shared_subscript(tu_storage):
    fn = function(tu_storage, "uses_shared")
    store = expr_stmts(fn)[0]
    outer = store.children[0]
    assert outer.kind is E.SUBSCRIPT and outer.type.kind is T.FLOAT
    inner, column = outer.children
    assert inner.kind is E.CAST and inner.type.kind is T.POINTER  # array-to-pointer decay
    inner = bare(inner)
    assert inner.kind is E.SUBSCRIPT and inner.type.kind is T.ARRAY and inner.type.count == 33
    assert bare(inner.children[0]).name == "tile"
    assert bare(inner.children[1]).kind is E.BUILTIN_INDEX and bare(inner.children[1]).member == "y"
    assert bare(column).kind is E.BUILTIN_INDEX and bare(column).member == "x"
    refs = {e.name: e for e in all_exprs(fn) if e.kind is E.DECL_REF}
    globals_ = {g.name: g for g in tu_storage.globals}
    assert refs["coeffs"].decl == globals_["coeffs"].decl
    assert refs["s"].decl == local(fn, "s").decl


# ---------------------------------------------------------------------------- expressions


@pytest.fixture
def tu_expressions(header_mode):
    return parse("expressions.cu", header_mode)


@pytest.mark.parametrize(
    "var, kind, op",
    [
        ("r0", E.BINARY, "+"),
        ("r1", E.BINARY, "-"),
        ("r2", E.BINARY, "*"),
        ("r3", E.BINARY, "/"),
        ("r4", E.BINARY, "%"),
        ("r5", E.BINARY, "<<"),
        ("r6", E.BINARY, ">>"),
        ("r7", E.BINARY, "&"),
        ("r8", E.BINARY, "|"),
        ("r9", E.BINARY, "^"),
        ("l0", E.BINARY, "&&"),
        ("l1", E.BINARY, "||"),
        ("c0", E.BINARY, "<"),
        ("c1", E.BINARY, "<="),
        ("c2", E.BINARY, ">"),
        ("c3", E.BINARY, ">="),
        ("c4", E.BINARY, "=="),
        ("c5", E.BINARY, "!="),
        ("u0", E.UNARY, "-"),
        ("u1", E.UNARY, "~"),
        ("u2", E.UNARY, "!"),
        ("u3", E.UNARY, "+"),
        ("pre_inc", E.UNARY, "++"),
        ("pre_dec", E.UNARY, "--"),
        ("post_inc", E.UNARY, "post++"),
        ("post_dec", E.UNARY, "post--"),
        ("deref", E.UNARY, "*"),
        ("addr", E.UNARY, "&"),
        ("comma", E.BINARY, ","),
    ],
)
def test_operators(tu_expressions, var, kind, op):
    expr = bare(init(function(tu_expressions, "operators"), var))
    assert expr.kind is kind and expr.op == op
    assert len(expr.children) == (2 if kind is E.BINARY else 1)


def test_operator_operands_and_types(tu_expressions):
    fn = function(tu_expressions, "operators")
    shift = init(fn, "r5")
    assert bare(shift.children[0]).name == "a" and is_literal(shift.children[1], 2)
    assert shift.type.kind is T.INTEGER
    assert init(fn, "c0").type.kind is T.BOOL and init(fn, "l0").type.kind is T.BOOL
    addr = init(fn, "addr")
    assert bare(addr).type.kind is T.POINTER and bare(addr).children[0].kind is E.SUBSCRIPT
    assert bare(init(fn, "deref")).children[0].name == "in"
    assert bare(init(fn, "post_inc")).children[0].name == "a"


def test_assignments(tu_expressions):
    fn = function(tu_expressions, "operators")
    ops = [e.op for e in expr_stmts(fn) if e.kind is E.ASSIGN]
    assert ops == ["+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "=", "="]
    first = expr_stmts(fn)[0]
    assert first.kind is E.ASSIGN and first.children[0].kind is E.DECL_REF and is_literal(first.children[1], 1)
    assert not [
        e
        for e in all_exprs(fn)
        if e.kind is E.BINARY and e.op and e.op.endswith("=") and e.op not in ("==", "!=", "<=", ">=")
    ]


def test_implicit_promotion_to_double(tu_expressions):
    fn = function(tu_expressions, "casts_and_members")
    product = init(fn, "promoted")
    assert product.kind is E.BINARY and product.op == "*" and product.type.kind is T.DOUBLE
    promoted, literal = product.children
    assert promoted.kind is E.CAST and promoted.cast is ir.CastKind.IMPLICIT and promoted.type.kind is T.DOUBLE
    assert promoted.children[0].kind is E.DECL_REF and promoted.children[0].type.kind is T.FLOAT
    assert literal.kind is E.FLOAT_LITERAL and literal.value == 0.1 and literal.text == "0.1"
    assert literal.type.kind is T.DOUBLE
    assert (literal.span.line, literal.span.column, literal.span.end_column) == (47, 27, 30)
    widened = init(fn, "widened")
    assert widened.kind is E.CAST and widened.cast is ir.CastKind.IMPLICIT and widened.type.size == 8
    assert widened.children[0].type.size == 4


@pytest.mark.parametrize(
    "var, cast, kind",
    [
        ("narrowed", ir.CastKind.C_STYLE, T.FLOAT),
        ("truncated", ir.CastKind.STATIC, T.INTEGER),
        ("functional", ir.CastKind.FUNCTIONAL, T.FLOAT),
        ("bytes", ir.CastKind.REINTERPRET, T.POINTER),
    ],
)
def test_explicit_casts(tu_expressions, var, cast, kind):
    expr = init(function(tu_expressions, "casts_and_members"), var)
    assert expr.kind is E.CAST and expr.cast is cast and expr.type.kind is kind
    assert len(expr.children) == 1 and bare(expr.children[0]).kind is E.DECL_REF


@pytest.mark.parametrize("var", ["narrowed", "truncated", "functional"])
def test_explicit_cast_has_no_inner_implicit_conversion(tu_expressions, var):
    expr = init(function(tu_expressions, "casts_and_members"), var)
    operand = expr.children[0]
    assert operand.kind is E.DECL_REF, f"{operand.kind} {operand.cast} {operand.type.spelling}"


def test_conditional(tu_expressions):
    tern = init(function(tu_expressions, "casts_and_members"), "tern")
    assert tern.kind is E.CONDITIONAL and tern.type.kind is T.INTEGER
    cond, then, other = tern.children
    assert cond.kind is E.BINARY and cond.op == ">"
    assert bare(then).name == "n" and other.kind is E.UNARY and other.op == "-"


def test_member_access(tu_expressions):
    fn = function(tu_expressions, "casts_and_members")
    arrow = init(fn, "arrow")
    mass, x = arrow.children
    assert mass.kind is E.MEMBER and mass.op == "->" and mass.name == "mass" and mass.type.kind is T.FLOAT
    assert bare(mass.children[0]).name == "ps" and mass.decl
    assert x.kind is E.MEMBER and x.op == "." and x.name == "x"
    pos = x.children[0]
    assert pos.kind is E.MEMBER and pos.op == "." and pos.name == "pos" and pos.type.record == "float3"
    assert pos.children[0].kind is E.SUBSCRIPT and pos.children[0].type.record == "Particle"
    dot = init(fn, "dot")
    members = [e for e in dot.walk() if e.kind is E.MEMBER]
    assert [(m.name, m.op) for m in members] == [("mass", "."), ("w", "."), ("x", ".")]
    assert bare(members[1].children[0]).type.record == "float4"
    assert members[1].decl != members[2].decl


def test_calls(tu_expressions):
    fn = function(tu_expressions, "casts_and_members")
    calls = {e.name: e for e in all_exprs(fn) if e.kind is E.CALL}
    helper = calls["helper"]
    assert helper.decl == function(tu_expressions, "helper").decl and helper.type.kind is T.FLOAT
    assert [bare(a).name for a in helper.children] == ["x", "n"]
    assert helper.op is None
    sqrt = calls["sqrtf"]
    assert sqrt.type.kind is T.FLOAT and len(sqrt.children) == 1 and sqrt.decl


BUILTINS = [(v, m) for v in ("threadIdx", "blockIdx", "blockDim", "gridDim") for m in "xyz"]


def test_builtin_indices(tu_expressions):
    fn = function(tu_expressions, "builtins")
    found = [(e.name, e.member) for e in all_exprs(fn) if e.kind is E.BUILTIN_INDEX]
    assert sorted(set(found)) == sorted(BUILTINS)
    for e in all_exprs(fn):
        if e.kind is E.BUILTIN_INDEX:
            assert e.type.kind is T.INTEGER and e.type.is_signed is False and e.type.size == 4
            assert e.children == () and e.span.line in (61, 62, 63, 64, 65)
    first = bare(init(fn, "t")).children[0].children[0]
    assert (first.name, first.member, first.span.column, first.span.end_column) == ("threadIdx", "x", 13, 24)


def test_warp_size(tu_expressions):
    lane = bare(init(function(tu_expressions, "builtins"), "lane"))
    assert lane.op == "%"
    warp = bare(lane.children[1])
    assert warp.kind is E.DECL_REF and warp.name == "warpSize" and warp.type.kind is T.INTEGER


def test_multi_dimensional_subscripts(tu_expressions):
    fn = function(tu_expressions, "matrix")
    m = fn.params[0].type
    assert m.kind is T.POINTER and m.pointee.kind is T.ARRAY and m.pointee.count == 4
    (ret,) = [s for s in statements(fn) if s.kind is S.RETURN]
    left, right = ret.expr.children
    left = bare(left)
    assert left.kind is E.SUBSCRIPT and is_literal(left.children[1], 1)
    assert bare(left.children[0]).kind is E.SUBSCRIPT and bare(bare(left.children[0]).children[0]).name == "m"
    depth, node = 0, bare(right)
    indices = []
    while node.kind is E.SUBSCRIPT:
        indices.append(bare(node.children[1]).value)
        node = bare(node.children[0])
        depth += 1
    assert depth == 3 and indices == [3, 2, 1] and node.name == "grid"


def test_array_parameter_decays_to_pointer(tu_expressions):
    grid = function(tu_expressions, "matrix").params[1].type
    assert grid.kind is T.POINTER and grid.size == 8
    assert grid.pointee.kind is T.ARRAY and grid.pointee.count == 3 and grid.pointee.pointee.count == 4


# ---------------------------------------------------------------------------- literals


@pytest.fixture
def tu_literals(header_mode):
    return parse("literals.cu", header_mode)


def _stored(tu, array: str) -> list[ir.Expr]:
    fn = function(tu, "literals")
    stores = [e for e in expr_stmts(fn) if e.kind is E.ASSIGN and bare(e.children[0].children[0]).name == array]
    return [bare(e.children[1]) for e in stores]


def test_integer_literals(tu_literals):
    found = [(e.kind, e.value, e.text, e.type.spelling) for e in _stored(tu_literals, "ints")]
    assert found == [
        (E.INT_LITERAL, 31, "0x1F", "int"),
        (E.INT_LITERAL, 15, "017", "int"),
        (E.INT_LITERAL, 10, "0b1010", "int"),
        (E.INT_LITERAL, 42, "42u", "unsigned int"),
        (E.INT_LITERAL, 7, "7UL", "unsigned long"),
        (E.INT_LITERAL, 9, "9ll", "long long"),
        (E.INT_LITERAL, 1000000, "1'000'000", "int"),
        (E.INT_LITERAL, 0xFFFFFFFF, "0xFFFF'FFFFull", "unsigned long long"),
        (E.INT_LITERAL, 0, "0", "int"),
    ]


def test_float_literals(tu_literals):
    found = [(e.kind, e.value, e.text, e.type.kind) for e in _stored(tu_literals, "reals")]
    assert found == [
        (E.FLOAT_LITERAL, 1e-3, "1e-3", T.DOUBLE),
        (E.FLOAT_LITERAL, 2.0, "2.f", T.FLOAT),
        (E.FLOAT_LITERAL, 0.5, ".5", T.DOUBLE),
        (E.FLOAT_LITERAL, 8.0, "0x1p3", T.DOUBLE),
        (E.FLOAT_LITERAL, 150.0, "1.5e+2f", T.FLOAT),
        (E.FLOAT_LITERAL, 3.25, "3.25L", T.LONG_DOUBLE),
        (E.FLOAT_LITERAL, 6.02e23, "6.02e23", T.DOUBLE),
        (E.FLOAT_LITERAL, 1024.5, "1'024.5", T.DOUBLE),
    ]
    literal = _stored(tu_literals, "reals")[0]
    assert (literal.span.line, literal.span.column, literal.span.end_column) == (14, 16, 20)
    assert not literal.span.from_macro


def test_bool_and_char_literals(tu_literals):
    flags = _stored(tu_literals, "flags")
    assert [(e.kind, e.value, e.text) for e in flags] == [
        (E.BOOL_LITERAL, True, "true"),
        (E.BOOL_LITERAL, False, "false"),
    ]
    char = _stored(tu_literals, "sizes")[-1]
    assert char.kind is E.CHAR_LITERAL and char.text == "'A'"


def test_sizeof_and_alignof(tu_literals):
    sizes = _stored(tu_literals, "sizes")[:4]
    assert [(e.kind, e.op, e.value) for e in sizes] == [
        (E.SIZEOF, "sizeof", 8),
        (E.SIZEOF, "sizeof", 16),
        (E.SIZEOF, "sizeof", 8),
        (E.SIZEOF, "alignof", 16),
    ]
    assert all(e.type.kind is T.INTEGER and e.type.is_signed is False for e in sizes)
    # sizeof applied to an expression keeps the operand.
    assert sizes[2].children and sizes[2].children[0].kind is E.SUBSCRIPT


# ---------------------------------------------------------------------------- records & comments


@pytest.fixture
def tu_records(header_mode):
    return parse("records.cu", header_mode)


def _layout(record: ir.Record):
    return [(f.name, f.offset, f.type.size) for f in record.fields]


def test_struct_layout(tu_records):
    mixed = tu_records.records["Mixed"]
    assert (mixed.name, mixed.size, mixed.align) == ("Mixed", 64, 16)
    assert _layout(mixed) == [("tag", 0, 1), ("value", 8, 8), ("count", 16, 4), ("vec", 32, 16), ("pair", 48, 4)]
    fields = {f.name: f.type for f in mixed.fields}
    assert fields["vec"].kind is T.RECORD and fields["vec"].record == "float4"
    assert fields["pair"].kind is T.ARRAY and fields["pair"].count == 2
    assert fields["value"].kind is T.DOUBLE


def test_float4_layout(tu_records):
    float4 = tu_records.records["float4"]
    assert (float4.size, float4.align) == (16, 16)
    assert _layout(float4) == [("x", 0, 4), ("y", 4, 4), ("z", 8, 4), ("w", 12, 4)]
    assert all(f.type.kind is T.FLOAT for f in float4.fields)


def test_aligned_union_and_bitfields(tu_records):
    aligned = tu_records.records["Aligned"]
    assert (aligned.size, aligned.align) == (16, 16) and _layout(aligned) == [("a", 0, 4), ("b", 4, 4), ("c", 8, 4)]
    bits = tu_records.records["Bits"]
    assert bits.size == 4 and [f.offset for f in bits.fields] == [0, 0]
    packed = tu_records.records["WithBitfield"]
    assert packed.size == 8 and [f.offset for f in packed.fields] == [None, None, 4]


def test_parameter_types_point_at_records(tu_records):
    fn = function(tu_records, "use_records")
    assert [p.type.pointee.record for p in fn.params] == ["Mixed", "Aligned", "Bits", "WithBitfield", "Node"]
    assert fn.params[0].type.pointee.size == 64


def test_self_referential_record_field(tu_records):
    next_ = tu_records.records["Node"].fields[0]
    assert next_.type.kind is T.POINTER and next_.type.size == 8
    assert next_.type.pointee.record == "Node"


def test_self_referential_record_by_value(tu_records):
    fn = function(tu_records, "follow")
    prev = next(e for e in all_exprs(fn) if e.kind is E.MEMBER and e.name == "prev")
    assert prev.type.kind is T.POINTER and prev.type.pointee.record == "Link"
    assert tu_records.records["Link"].fields[0].type.pointee.record == "Link"


def test_comments(tu_records):
    assert [(c.line, c.column, c.text) for c in tu_records.comments] == [
        (1, 1, "// Record layouts and comments."),
        (5, 20, "// offset 0"),
        (6, 20, "/* offset 8 */"),
        (33, 5, "// cudalint: disable=CL401"),
        (34, 58, "/* trailing block */"),
    ]


def test_comments_come_only_from_the_main_file(header_mode):
    tu = parse("functions.cu", header_mode)
    assert [(c.line, c.text) for c in tu.comments] == [
        (1, "// Function kinds, names, namespaces, parameters and return types."),
        (27, "// namespace inner"),
        (28, "// namespace outer"),
    ]


# ---------------------------------------------------------------------------- broken input


def test_clang_error_keeps_the_functions(header_mode):
    tu = parse("errors.cu", header_mode)
    messages = [d.message for d in tu.errors]
    assert any("undeclared_thing" in m for m in messages), messages
    error = next(d for d in tu.errors if "undeclared_thing" in d.message)
    assert error.span is not None and (error.span.file, error.span.line) == (tu.path, 5)
    assert function(tu, "broken").kind is ir.FunctionKind.KERNEL
    fine = function(tu, "fine")
    assert fine.body is not None and [e.kind for e in expr_stmts(fine)] == [E.ASSIGN]
    # Only the undeclared identifier is wrong in this file.
    assert len(tu.errors) == 1, messages


def test_missing_include_keeps_the_kernels(header_mode):
    tu = parse("missing_include.cu", header_mode)
    assert len(tu.errors) == 1, [d.message for d in tu.errors]
    (error,) = tu.errors
    assert "nope.h" in error.message and error.span.line == 3
    fn = function(tu, "survivor")
    assert fn.kind is ir.FunctionKind.KERNEL
    kinds = [s.kind for s in top_level(fn)]
    assert kinds == [S.DECL, S.IF]
    index = init(fn, "i")
    assert {e.name for e in index.walk() if e.kind is E.BUILTIN_INDEX} == {"blockIdx", "blockDim", "threadIdx"}


def test_text_argument_overrides_the_file(tmp_path):
    path = tmp_path / "unsaved.cu"
    path.write_text("// on disk\n")
    source = "__global__ void from_memory(float *p) { p[0] = 1.0f; }\n"
    tu = frontend.parse_file(str(path), environment("embedded"), text=source)
    assert [f.name for f in tu.functions] == ["from_memory"]
    assert tu.source_lines == (source.rstrip("\n"),)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "empty"),
        (b"   \n\t\n", "empty"),
        (b"\x7fELF\x00\x00\x01", "binary"),
    ],
)
def test_unreadable_sources(tmp_path, content, message):
    path = tmp_path / "bad.cu"
    path.write_bytes(content)
    with pytest.raises(frontend.SourceError, match=message):
        frontend.parse_file(str(path), environment("embedded"))


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(frontend.SourceError, match="no such file"):
        frontend.read_source(str(tmp_path / "absent.cu"))
    with pytest.raises(frontend.SourceError, match="directory"):
        frontend.read_source(str(tmp_path))


# ---------------------------------------------------------------------------- toolkit libraries


@needs_toolkit
def test_cub_kernel_parses_and_lowers():
    tu = parse("cub_reduce.cu", "toolkit")
    check_clean(tu)
    pattern = function(tu, "block_sum", pattern=True)
    instance = function(tu, "block_sum", pattern=False)
    assert pattern.kind is instance.kind is ir.FunctionKind.KERNEL
    assert [(a.kind, a.value) for a in instance.template_args] == [("integral", 128)]
    temp = local(instance, "temp")
    assert temp.storage is ir.StorageClass.SHARED and temp.type.kind is T.RECORD and temp.type.size
    total = init(instance, "total")
    assert total.kind is E.CALL and total.name == "Sum" and total.type.kind is T.FLOAT
    (launch,) = tu.launches
    assert launch.kernel == instance.decl and literal_values(launch.block) == [128, 1, 1]
    assert PARSE_SECONDS[("cub_reduce.cu", "toolkit")] < 60


@needs_toolkit
def test_cooperative_groups_kernel_parses_and_lowers():
    tu = parse("coop_groups.cu", "toolkit")
    check_clean(tu)
    fn = function(tu, "tile_sum")
    assert fn.kind is ir.FunctionKind.KERNEL and fn.in_main_file
    assert local(fn, "warp").type.kind is T.RECORD
    calls = {e.name for e in all_exprs(fn) if e.kind is E.CALL}
    assert {"this_thread_block", "reduce", "thread_rank", "atomicAdd", "sync"} <= calls
    assert PARSE_SECONDS[("coop_groups.cu", "toolkit")] < 60


@needs_toolkit
def test_system_header_templates_are_not_lowered():
    tu = parse("coop_groups.cu", "toolkit")
    assert [f.qualified_name for f in tu.functions if not f.in_main_file] == []


# ---------------------------------------------------------------------------- embedded / toolkit parity

PARITY_FIXTURES = [
    "launches.cu",
    "statements.cu",
    "templates.cu",
    "macros.cu",
    "storage.cu",
    "missing_include.cu",
    "literals.cu",
    "launch_bounds.cu",
    "errors.cu",
]


def _ctype_key(t: ir.CType | None):
    if t is None:
        return None
    return (t.kind.value, t.spelling, t.size, t.is_const, t.count, t.record, _ctype_key(t.pointee))


def _expr_dump(e: ir.Expr | None):
    if e is None:
        return None
    return (
        e.kind.value,
        _ctype_key(e.type),
        e.op,
        e.name,
        e.member,
        e.value,
        e.text,
        e.cast and e.cast.value,
        e.span.line,
        e.span.column,
        e.span.end_line,
        e.span.end_column,
        e.span.spelling and (e.span.spelling.line, e.span.spelling.column),
        tuple(_expr_dump(c) for c in e.children),
    )


def _stmt_dump(s: ir.Stmt | None):
    if s is None:
        return None
    return (
        s.kind.value,
        s.span.line,
        s.span.column,
        s.label,
        s.unroll,
        _expr_dump(s.expr),
        _expr_dump(s.cond),
        _expr_dump(s.step),
        _stmt_dump(s.init),
        _stmt_dump(s.orelse),
        tuple((v.name, _ctype_key(v.type), v.storage.value, v.is_extern, _expr_dump(v.init)) for v in s.decls),
        tuple(_stmt_dump(b) for b in s.body),
    )


def normalized(tu: ir.TranslationUnit):
    functions_ = sorted(
        (
            f.display_name,
            f.kind.value,
            f.is_template_pattern,
            f.launch_bounds,
            f.max_registers,
            _ctype_key(f.return_type),
            tuple((p.name, _ctype_key(p.type)) for p in f.params),
            f.span.line,
            _stmt_dump(f.body),
        )
        for f in tu.functions
        if f.in_main_file
    )
    globals_ = [(g.name, g.storage.value, _ctype_key(g.type), _expr_dump(g.init)) for g in tu.globals]
    return functions_, globals_, [(c.line, c.column, c.text) for c in tu.comments]


def normalized_launches(tu: ir.TranslationUnit):
    names = {f.decl: f.display_name for f in tu.functions}
    return [
        (
            names.get(launch.kernel),
            names.get(launch.caller),
            launch.span.line,
            launch.span.column,
            _expr_dump(launch.grid),
            _expr_dump(launch.block),
            _expr_dump(launch.shared_bytes),
        )
        for launch in tu.launches
    ]


def _first_difference(a, b, path="ir"):
    if type(a) is not type(b) or not isinstance(a, (tuple, list)) or len(a) != len(b):
        return f"{path}: toolkit={a!r:.300}\n  embedded={b!r:.300}" if a != b else None
    for index, (x, y) in enumerate(zip(a, b, strict=True)):
        found = _first_difference(x, y, f"{path}[{index}]")
        if found:
            return found
    return None


@needs_toolkit
@pytest.mark.parametrize("name", PARITY_FIXTURES)
def test_embedded_and_toolkit_ir_agree(name):
    toolkit = parse(name, "toolkit")
    embedded = parse(name, "embedded")
    assert [d.message for d in embedded.errors] == [d.message for d in toolkit.errors]
    a, b = normalized(toolkit), normalized(embedded)
    assert a == b, _first_difference(a, b)


@needs_toolkit
@pytest.mark.parametrize("name", ["launches.cu", "templates.cu"])
def test_embedded_and_toolkit_launches_agree(name):
    a, b = normalized_launches(parse(name, "toolkit")), normalized_launches(parse(name, "embedded"))
    assert a, "the fixture has launches"
    assert a == b, _first_difference(a, b)


# ---------------------------------------------------------------------------- what nvcc accepts


def test_nvcc_constructs_keep_their_statements(header_mode):
    tu = parse("nvcc_constructs.cu", header_mode)
    check_clean(tu)
    # The assembly statements survive, their text as written but for the rejected escapes.
    assert any("bar.sync" in (s.label or "") for s in statements(function(tu, "ptx")) if s.kind is S.ASM)
    for name in ("lane", "nonzero"):
        assert [s for s in statements(function(tu, name)) if s.kind is S.ASM], name
    # A launch from a kernel drops no other statement of it.
    assert any(is_literal(node, 1.0) for node in all_exprs(function(tu, "parent")))
    assert function(tu, "shared_object").body is not None

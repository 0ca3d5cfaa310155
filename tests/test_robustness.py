"""Odd but real input: line endings, byte-order marks, variadic templates, lambdas, deep nesting."""

from __future__ import annotations

from conftest import analyze, run_cli

KERNEL = "__global__ void k(float* a) {\n    int i = threadIdx.x;\n    a[i] = a[i] * 0.1;\n}\n"


def _cl401(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    result = analyze(path)
    assert result.analyzed and not result.notices, result.notices
    return [(f.span.line, f.span.column) for f in result.findings if f.code == "CL401"]


def test_crlf_line_endings(tmp_path):
    assert _cl401(tmp_path, "crlf.cu", KERNEL.replace("\n", "\r\n").encode()) == [(3, 19)]


def test_byte_order_mark_does_not_shift_columns(tmp_path):
    one_line = b"__global__ void k(float* a) { a[threadIdx.x] = a[threadIdx.x] * 0.1; }\n"
    expected = [(1, one_line.index(b"0.1") + 1)]
    assert _cl401(tmp_path, "bom.cu", b"\xef\xbb\xbf" + one_line) == _cl401(tmp_path, "plain.cu", one_line) == expected


def test_variadic_templates(tmp_path):
    source = (
        "template <typename... Ts> __device__ float sum(Ts... xs) { return (xs + ... + 0.0f); }\n"
        "__global__ void k(float* a) { a[0] = sum(a[1], a[2]); a[1] = a[2] * 0.1; }\n"
    )
    assert _cl401(tmp_path, "variadic.cu", source.encode()) == [(2, source.splitlines()[1].index("0.1") + 1)]


def test_device_lambda_bodies_are_analyzed(tmp_path):
    source = (
        "__global__ void k(float* a) {\n"
        "    auto f = [] __device__ (float v) -> float { return v * 0.1; };\n"
        "    a[threadIdx.x] = f(a[threadIdx.x]);\n}\n"
    )
    assert _cl401(tmp_path, "lambda.cu", source.encode()) == [(2, 60)]


def test_deeply_nested_expressions(tmp_path):
    terms = " + ".join(["a[i]"] * 2000)
    source = f"__global__ void k(float* a) {{ int i = threadIdx.x; a[i] = ({terms}) * 0.1; }}\n"
    assert len(_cl401(tmp_path, "deep.cu", source.encode())) == 1


def test_conditional_defines_feed_launch_bounds(tmp_path):
    from cudalint import frontend

    path = tmp_path / "bounds.cu"
    path.write_text(
        "#ifdef BIG\n#define BLOCK 512\n#else\n#define BLOCK 128\n#endif\n"
        "__global__ void __launch_bounds__(BLOCK) k(float* a) { a[threadIdx.x] = 0; }\n"
    )
    for defines, expected in (((), 128), (("BIG",), 512)):
        environment = frontend.build_environment(frontend.FrontendOptions(header_mode="embedded", defines=defines))
        (kernel,) = frontend.parse_file(str(path), environment).functions
        assert kernel.launch_bounds.max_threads == expected


def test_a_failed_file_does_not_change_the_exit_code_of_the_others(tmp_path):
    (tmp_path / "good.cu").write_text(KERNEL)
    (tmp_path / "binary.cu").write_bytes(b"\x00\x01\x02")
    result = run_cli(str(tmp_path), "--headers", "embedded", "--format", "concise")
    assert result.exit_code == 1, result.output
    assert "binary.cu: error: binary file" in result.output and "CL401" in result.output


def test_forced_include(tmp_path):
    (tmp_path / "scale.h").write_text("#define SCALE 0.1\n")
    (tmp_path / "k.cu").write_text("__global__ void k(float* a) { a[threadIdx.x] = a[threadIdx.x] * SCALE; }\n")
    without = run_cli(str(tmp_path / "k.cu"), "--headers", "embedded", "--format", "concise")
    assert "analysis incomplete" in without.output
    forced = run_cli(
        str(tmp_path / "k.cu"), "--headers", "embedded", "--format", "concise", "--include", str(tmp_path / "scale.h")
    )
    assert forced.exit_code == 1 and "CL401" in forced.output and "incomplete" not in forced.output


def test_brackets_nested_deeper_than_clang_allows_by_default(tmp_path):
    nested = "a[i]"
    for depth in range(600):
        nested = f"({nested} + {depth})"
    source = f"__global__ void k(float* a) {{ int i = threadIdx.x; a[i] = {nested} * 0.1; }}\n"
    assert len(_cl401(tmp_path, "brackets.cu", source.encode())) == 1


def test_managed_variables_without_device_are_device_variables(tmp_path, header_mode):
    path = tmp_path / "managed.cu"
    path.write_text("__managed__ int counter;\n__global__ void k() { counter++; }\n")
    result = analyze(path, header_mode)
    assert result.analyzed and result.notices == []

"""Compiler flags: GPU architectures, build-command translation, compile databases, toolkit lookup."""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
from pathlib import Path

import pytest

from cudalint import frontend
from cudalint.frontend import flags
from cudalint.frontend.flags import (
    CompileDatabase,
    FileFlags,
    FrontendConfigError,
    FrontendOptions,
    build_environment,
    find_toolkit,
    parse_arch,
    translate_build_flags,
)
from cudalint.ir import HeaderMode

FIXTURES = Path(__file__).parent / "fixtures" / "frontend"
BASE = "/work/build"


# ---------------------------------------------------------------------------- parse_arch


@pytest.mark.parametrize(
    "text, arch",
    [
        ("sm_80", 80),
        ("compute_86", 86),
        ("90a", 90),
        ("80", 80),
        ("sm_90a", 90),
        ("compute_90a", 90),
        ("lto_89", 89),
        ("SM_75", 75),
        ("  sm_70 ", 70),
        ("sm_100", 100),
        ("sm_120f", 120),
    ],
)
def test_parse_arch(text, arch):
    assert parse_arch(text) == arch


@pytest.mark.parametrize("text", ["", "sm", "sm_", "sm80", "gfx90a", "ampere", "sm_80_90", "80ab", "native", "-1"])
def test_parse_arch_errors(text):
    with pytest.raises(FrontendConfigError, match="GPU architecture"):
        parse_arch(text)


# ---------------------------------------------------------------------------- translate_build_flags


def translate(command: str, directory: str = BASE) -> FileFlags:
    return translate_build_flags(shlex.split(command), directory)


@pytest.mark.parametrize(
    "command, args",
    [
        ("-I include", ["-I/work/build/include"]),
        ("-Iinclude", ["-I/work/build/include"]),
        ("-I/abs/include", ["-I/abs/include"]),
        ("-I=inc", ["-I/work/build/inc"]),
        ("--include-path=inc", ["-I/work/build/inc"]),
        ("--include-path inc", ["-I/work/build/inc"]),
        ("-I ../third_party/./cutlass", ["-I/work/third_party/cutlass"]),
        ("-isystem sys", ["-isystem", "/work/build/sys"]),
        ("-isystem /opt/sys", ["-isystem", "/opt/sys"]),
        ("--system-include=sys", ["-isystem", "/work/build/sys"]),
        ("-isystem=/opt/sys", ["-isystem", "/opt/sys"]),  # CMake's spelling for nvcc
        ("-iquote q", ["-iquote", "/work/build/q"]),
        ("-idirafter late", ["-idirafter", "/work/build/late"]),
        ("-include pre.h", ["-include", "/work/build/pre.h"]),
        ("--pre-include=/abs/pre.h", ["-include", "/abs/pre.h"]),
        ("-D FOO", ["-DFOO"]),
        ("-DFOO", ["-DFOO"]),
        ("-DNAME=V", ["-DNAME=V"]),
        ("-D NAME=V", ["-DNAME=V"]),
        ("--define-macro=X=1", ["-DX=1"]),
        ("--define-macro Y", ["-DY"]),
        ("'-DMSG=hello world'", ["-DMSG=hello world"]),
        ("-U BAR", ["-UBAR"]),
        ("-UBAR", ["-UBAR"]),
        ("--undefine-macro=BAZ", ["-UBAZ"]),
        ("-std=c++17", ["-std=c++17"]),
        ("--std c++14", ["-std=c++14"]),
        ("--std=c++20", ["-std=c++20"]),
        ("-std c++11", ["-std=c++11"]),
    ],
)
def test_kept_flags(command, args):
    result = translate(command)
    assert list(result.args) == args
    assert result.arch is None and result.max_registers is None


@pytest.mark.parametrize(
    "command",
    [
        "--expt-relaxed-constexpr",
        "--expt-extended-lambda",
        "-Xcompiler -fPIC",
        "-Xcompiler=-fPIC,-Wall",
        "-O3",
        "-O0",
        "-g",
        "-G",
        "-lineinfo",
        "--use_fast_math",
        "-use_fast_math",
        "-c",
        "-o out.o",
        "-x cu",
        "-rdc=true",
        "--relocatable-device-code true",
        "-ccbin g++",
        "-Wall -Werror",
        "-Xptxas -v",
        "--ptxas-options=-v",
        "-MD -MF dep.d",
        "--compiler-options -fno-strict-aliasing",
        "-arch=native",
        "-arch=all-major",
        "--maxrregcount=many",
        "-fPIC",
        "-pthread",
        "main.cu",
    ],
)
def test_dropped_flags(command):
    result = translate(command)
    assert result.args == () and result.arch is None and result.max_registers is None


@pytest.mark.parametrize(
    "command, arch",
    [
        ("-arch=sm_80", 80),
        ("-arch sm_75", 75),
        ("-arch=compute_86", 86),
        ("--gpu-architecture=sm_90a", 90),
        ("--gpu-architecture sm_70", 70),
        ("--cuda-gpu-arch=sm_89", 89),
        ("--offload-arch=sm_86", 86),
        ("-gencode=arch=compute_80,code=sm_80", 80),
        ("-gencode arch=compute_70,code=sm_70 -gencode arch=compute_90,code=sm_90", 90),
        ("-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_75,code=sm_75", 80),
        ("--generate-code=arch=compute_75,code=[compute_75,sm_75]", 75),
        ("-gencode arch=compute_80,code=sm_86", 86),
        ("-arch=sm_70 -gencode=arch=compute_90a,code=sm_90a", 90),
        ("-arch=sm_100a", 100),
    ],
)
def test_architecture(command, arch):
    result = translate(command)
    assert result.arch == arch and result.args == ()


@pytest.mark.parametrize(
    "command, registers",
    [
        ("--maxrregcount=64", 64),
        ("--maxrregcount 48", 48),
        ("-maxrregcount 32", 32),
        ("-maxrregcount=40", 40),
    ],
)
def test_register_cap(command, registers):
    assert translate(command).max_registers == registers


def test_full_nvcc_command():
    command = (
        "-ccbin g++ -I../include -Iinclude -isystem /opt/cutlass/include -DNDEBUG -DTILE=32 -U OLD "
        "--expt-relaxed-constexpr --use_fast_math -O3 -Xcompiler -fPIC -Xcompiler=-Wall -std=c++17 "
        "-gencode=arch=compute_80,code=sm_80 -gencode arch=compute_86,code=sm_86 --maxrregcount=64 "
        "-lineinfo -c kernel.cu -o CMakeFiles/k.dir/kernel.cu.o"
    )
    result = translate(command, "/work/proj/build")
    assert list(result.args) == [
        "-I/work/proj/include",
        "-I/work/proj/build/include",
        "-isystem",
        "/opt/cutlass/include",
        "-DNDEBUG",
        "-DTILE=32",
        "-UOLD",
        "-std=c++17",
    ]
    assert result.arch == 86 and result.max_registers == 64


def test_full_clang_command():
    command = (
        "-x cuda --cuda-gpu-arch=sm_80 --cuda-gpu-arch=sm_90 -I src -include common.h -DUSE_FAST=1 "
        "-std=c++20 -O2 -fPIC -Wno-unknown-cuda-version -c src/k.cu"
    )
    result = translate(command, "/repo")
    assert list(result.args) == ["-I/repo/src", "-include", "/repo/common.h", "-DUSE_FAST=1", "-std=c++20"]
    assert result.arch == 90 and result.max_registers is None


@pytest.mark.parametrize(
    "command, args",
    [
        ("-isystem/opt/sys", ["-isystem", "/opt/sys"]),
        ("-iquoteq", ["-iquote", "/work/build/q"]),
        ("-idirafter/late", ["-idirafter", "/late"]),
    ],
)
def test_joined_clang_path_flags(command, args):
    assert list(translate(command).args) == args


def test_flag_without_value_at_the_end_is_ignored():
    assert translate("-DOK -I").args == ("-DOK",)
    assert translate("-arch").arch is None
    assert translate("--maxrregcount").max_registers is None
    assert translate("--std").args == ()


def test_relative_paths_resolve_against_directory_not_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = translate("-I inc -isystem ./sys -include ../pre.h", "/build/dir")
    assert list(result.args) == ["-I/build/dir/inc", "-isystem", "/build/dir/sys", "-include", "/build/pre.h"]


def test_options_files_are_read_in_place(tmp_path):
    # What CMake writes for a CUDA target: every -I in a file handed to nvcc.
    build = tmp_path / "build"
    (build / "CMakeFiles" / "k.dir").mkdir(parents=True)
    (build / "CMakeFiles" / "k.dir" / "includes_CUDA.rsp").write_text('-I../include -I"/opt/with space"\n-DFROM_FILE\n')
    (build / "more.rsp").write_text("-DNESTED @inner.rsp # a comment -DNOT\n")
    (build / "inner.rsp").write_text("-DINNER\n")
    (build / "extra.rsp").write_text("-DEXTRA\n")
    result = translate(
        "--options-file CMakeFiles/k.dir/includes_CUDA.rsp -DAFTER @more.rsp -optf=extra.rsp @missing.rsp -DLAST",
        str(build),
    )
    assert list(result.args) == [
        f"-I{tmp_path / 'include'}",
        "-I/opt/with space",
        "-DFROM_FILE",
        "-DAFTER",
        "-DNESTED",
        "-DINNER",
        "-DEXTRA",
        "-DLAST",
    ]


def test_options_files_in_a_list_and_in_a_loop(tmp_path):
    (tmp_path / "a.rsp").write_text("-DA @a.rsp\n")
    (tmp_path / "b.rsp").write_text("-DB\n")
    result = translate("--options-file=a.rsp,b.rsp", str(tmp_path))
    assert result.args.count("-DA") > 1 and result.args[-1] == "-DB"


# ---------------------------------------------------------------------------- compile databases


def write_db(path: Path, entries) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entries))
    return path


@pytest.fixture
def project(tmp_path):
    """src/a.cu and src/b.cu with a build/compile_commands.json describing both."""
    src = tmp_path / "src"
    build = tmp_path / "build"
    src.mkdir()
    build.mkdir()
    (src / "a.cu").write_text("__global__ void a() {}\n")
    (src / "b.cu").write_text("__global__ void b() {}\n")
    db = write_db(
        build / "compile_commands.json",
        [
            {
                "directory": str(build),
                "file": "../src/a.cu",
                "arguments": [
                    "nvcc",
                    "-I../include",
                    "-DA_FLAG",
                    "-arch=sm_80",
                    "--maxrregcount=64",
                    "-c",
                    "../src/a.cu",
                ],
            },
            {
                "directory": str(build),
                "file": str(src / "b.cu"),
                "command": "/usr/local/cuda/bin/nvcc -DB_FLAG='two words' -std=c++14 "
                "-gencode arch=compute_86,code=sm_86 -c ../src/b.cu",
            },
        ],
    )
    return tmp_path, db


def test_database_arguments_and_command_entries(project):
    root, db_path = project
    db = CompileDatabase.load(str(db_path))
    assert db.path == str(db_path)
    a = db.flags_for(str(root / "src" / "a.cu"))
    assert a is not None
    assert list(a.args) == [f"-I{root / 'include'}", "-DA_FLAG"]
    assert (a.arch, a.max_registers) == (80, 64)
    b = db.flags_for(str(root / "src" / "b.cu"))
    assert list(b.args) == ["-DB_FLAG=two words", "-std=c++14"]
    assert (b.arch, b.max_registers) == (86, None)
    assert db.flags_for(str(root / "src" / "other.cu")) is None


def test_database_lookup_normalises_the_path(project, monkeypatch):
    root, db_path = project
    db = CompileDatabase.load(str(db_path))
    assert db.flags_for(str(root / "build" / ".." / "src" / "a.cu")) is not None
    monkeypatch.chdir(root / "src")
    assert db.flags_for("a.cu") is not None


def test_database_skips_unusable_entries(tmp_path):
    db_path = write_db(
        tmp_path / "compile_commands.json",
        [
            "not an object",
            {"directory": str(tmp_path), "arguments": ["nvcc", "-DX"]},  # no file
            {"directory": str(tmp_path), "file": "nothing.cu"},  # neither arguments nor command
            {"directory": str(tmp_path), "file": "quote.cu", "command": "nvcc -DX='unbalanced"},
            {"file": "nodir.cu", "arguments": ["clang++", "-Ilocal"]},  # directory defaults to the db's
        ],
    )
    db = CompileDatabase.load(str(db_path))
    assert list(db.entries) == [str(tmp_path / "nodir.cu")]
    assert db.entries[str(tmp_path / "nodir.cu")].args == (f"-I{tmp_path / 'local'}",)


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "cannot read compile database"),
        ("", "cannot read compile database"),
        ('{"file": "a.cu"}', "not a JSON array"),
        ('"text"', "not a JSON array"),
    ],
)
def test_malformed_database(tmp_path, content, message):
    path = tmp_path / "compile_commands.json"
    path.write_text(content)
    with pytest.raises(FrontendConfigError, match=message):
        CompileDatabase.load(str(path))
    with pytest.raises(FrontendConfigError):
        CompileDatabase.locate(str(path), None)


def test_database_that_is_not_utf8(tmp_path):
    path = tmp_path / "compile_commands.json"
    path.write_bytes(b'[{"file": "\xff\xfe.cu"}]')
    with pytest.raises(FrontendConfigError, match="cannot read compile database"):
        CompileDatabase.load(str(path))


def test_malformed_fixture_database():
    with pytest.raises(FrontendConfigError):
        CompileDatabase.load(str(FIXTURES / "malformed_compile_commands.json"))


def test_locate_explicit_file(project):
    root, db_path = project
    db = CompileDatabase.locate(str(db_path), None)
    assert db is not None and db.path == str(db_path.resolve())
    assert db.flags_for(str(root / "src" / "a.cu")) is not None


def test_locate_build_directory(project):
    root, db_path = project
    db = CompileDatabase.locate(str(root / "build"), search_from=str(root / "elsewhere.cu"))
    assert db is not None and db.path == str(db_path.resolve())


@pytest.mark.parametrize("given", ["missing.json", "missing_dir"])
def test_locate_explicit_missing(tmp_path, given):
    (tmp_path / "missing_dir").mkdir()
    with pytest.raises(FrontendConfigError, match="not found"):
        CompileDatabase.locate(str(tmp_path / given), None)


def test_locate_by_parent_search(tmp_path):
    db_path = write_db(
        tmp_path / "compile_commands.json",
        [
            {"directory": str(tmp_path), "file": "deep/er/k.cu", "arguments": ["nvcc", "-DDEEP"]},
        ],
    )
    deep = tmp_path / "deep" / "er"
    deep.mkdir(parents=True)
    (deep / "k.cu").write_text("__global__ void k() {}\n")
    from_file = CompileDatabase.locate(None, str(deep / "k.cu"))
    assert from_file is not None and from_file.path == str(db_path)
    assert from_file.flags_for(str(deep / "k.cu")).args == ("-DDEEP",)
    from_dir = CompileDatabase.locate(None, str(deep))
    assert from_dir is not None and from_dir.path == str(db_path)
    # A directory is searched itself first, then its parents.
    own = write_db(deep / "compile_commands.json", [])
    assert CompileDatabase.locate(None, str(deep)).path == str(own)
    assert CompileDatabase.locate(None, str(deep / "k.cu")).path == str(own)


def test_locate_in_a_build_directory_of_a_parent(tmp_path):
    (tmp_path / "src").mkdir()
    in_build = write_db(tmp_path / "build" / "compile_commands.json", [])
    assert CompileDatabase.locate(None, str(tmp_path / "src")).path == str(in_build)
    assert CompileDatabase.locate(None, str(tmp_path)).path == str(in_build)
    # One beside the files is nearer.
    beside = write_db(tmp_path / "src" / "compile_commands.json", [])
    assert CompileDatabase.locate(None, str(tmp_path / "src")).path == str(beside)


def test_locate_nothing(tmp_path):
    assert CompileDatabase.locate(None, None) is None
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    found = CompileDatabase.locate(None, str(lonely / "k.cu"))
    # Nothing in tmp_path; an ancestor of the temp dir could only hold one by accident.
    assert found is None or not found.path.startswith(str(tmp_path))


# ---------------------------------------------------------------------------- environments


def test_unknown_header_mode():
    with pytest.raises(FrontendConfigError, match="header mode"):
        build_environment(FrontendOptions(header_mode="shim"))


def test_embedded_environment():
    env = build_environment(FrontendOptions(header_mode="embedded"))
    assert env.header_mode is HeaderMode.EMBEDDED
    base = list(env.base_args)
    assert base[:2] == ["-x", "cuda"] and "--cuda-device-only" in base
    assert "-nocudainc" in base and "-nocudalib" in base
    shim = Path(flags.shim_dir())
    assert base[base.index("-include") + 1] == str(shim / "cuda_runtime.h")
    assert base[base.index("-isystem") + 1] == str(shim)
    assert not any(a.startswith("--cuda-path") for a in base)
    assert os.path.isdir(base[base.index("-resource-dir") + 1])
    assert env.compile_db is None


def test_default_arguments_for_a_file():
    env = build_environment(FrontendOptions(header_mode="embedded"))
    args = env.args_for("/nowhere/k.cu")
    assert env.flags_for("/nowhere/k.cu") == FileFlags()
    assert "--cuda-gpu-arch=sm_90" in args and "-std=c++17" in args
    assert args.count("-std=c++17") == 1


@pytest.mark.parametrize(
    "arch, expected",
    [
        ("sm_100", 90),
        ("sm_120a", 90),
        ("compute_75", 75),
        ("86", 86),
        ("sm_90a", 90),
    ],
)
def test_option_arch_is_capped(arch, expected):
    env = build_environment(FrontendOptions(header_mode="embedded", arch=arch))
    assert env.default_arch == expected
    args = env.args_for("/nowhere/k.cu")
    assert f"--cuda-gpu-arch=sm_{expected}" in args
    assert sum(a.startswith("--cuda-gpu-arch") for a in args) == 1


def test_bad_option_arch():
    with pytest.raises(FrontendConfigError):
        build_environment(FrontendOptions(header_mode="embedded", arch="volta"))


def test_user_arguments():
    env = build_environment(
        FrontendOptions(
            header_mode="embedded",
            include_dirs=("/inc/a", "rel"),
            defines=("A", "B=2"),
            extra_args=("-UC", "-std=c++20"),
        )
    )
    assert env.user_args == ("-I/inc/a", "-Irel", "-DA", "-DB=2", "-UC", "-std=c++20")
    args = env.args_for("/nowhere/k.cu")
    assert "-std=c++20" in args and "-std=c++17" not in args
    assert args.index("-I/inc/a") > args.index("--cuda-gpu-arch=sm_90")


def test_environment_with_database(project):
    root, db_path = project
    env = build_environment(FrontendOptions(header_mode="embedded", compile_commands=str(root / "build")))
    assert env.compile_db is not None and env.compile_db.path == str(db_path.resolve())
    args = env.args_for(str(root / "src" / "b.cu"))
    assert env.flags_for(str(root / "src" / "b.cu")) != FileFlags()
    assert "--cuda-gpu-arch=sm_86" in args and "--cuda-gpu-arch=sm_90" not in args
    assert "-std=c++14" in args and "-std=c++17" not in args
    assert "-DB_FLAG=two words" in args
    args = env.args_for(str(root / "src" / "unlisted.cu"))
    assert env.flags_for(str(root / "src" / "unlisted.cu")) == FileFlags() and "--cuda-gpu-arch=sm_90" in args


def test_environment_searches_for_database(project):
    root, db_path = project
    write_db(
        root / "compile_commands.json",
        [
            {"directory": str(root), "file": "src/a.cu", "arguments": ["nvcc", "-arch=sm_100", "-DFOUND"]},
        ],
    )
    env = build_environment(FrontendOptions(header_mode="embedded"), search_from=str(root / "src" / "a.cu"))
    assert env.compile_db is not None and env.compile_db.path == str(root / "compile_commands.json")
    args = env.args_for(str(root / "src" / "a.cu"))
    assert env.flags_for(str(root / "src" / "a.cu")).arch == 100
    assert "--cuda-gpu-arch=sm_90" in args and "-DFOUND" in args


def test_environment_with_malformed_database(tmp_path):
    bad = tmp_path / "compile_commands.json"
    bad.write_text("[{")
    with pytest.raises(FrontendConfigError):
        build_environment(FrontendOptions(header_mode="embedded", compile_commands=str(bad)))
    with pytest.raises(FrontendConfigError):
        build_environment(FrontendOptions(header_mode="embedded"), search_from=str(tmp_path / "k.cu"))


def test_database_flags_reach_the_parser(tmp_path):
    source = tmp_path / "k.cu"
    source.write_text(
        "#ifndef FROM_DB\n#error FROM_DB missing\n#endif\n__global__ void k(float *p) { p[0] = FROM_DB; }\n"
    )
    write_db(
        tmp_path / "compile_commands.json",
        [
            {"directory": str(tmp_path), "file": "k.cu", "arguments": ["nvcc", "-DFROM_DB=2.5f", "-c", "k.cu"]},
        ],
    )
    env = build_environment(FrontendOptions(header_mode="embedded"), search_from=str(source))
    tu = frontend.parse_file(str(source), env)
    assert tu.errors == ()
    (fn,) = tu.functions
    assert fn.name == "k"


# ---------------------------------------------------------------------------- toolkit lookup


def fake_toolkit(root: Path, with_nvcc: bool = False) -> Path:
    (root / "include").mkdir(parents=True)
    (root / "include" / "cuda_runtime.h").write_text("/* fake */\n")
    if with_nvcc:
        (root / "bin").mkdir()
        nvcc = root / "bin" / "nvcc"
        nvcc.write_text("#!/bin/sh\nexit 0\n")
        nvcc.chmod(0o755)
    return root


@pytest.fixture
def toolkits(tmp_path, monkeypatch):
    """Four fake toolkits and a clean environment: no CUDA_PATH/CUDA_HOME, no nvcc on PATH."""
    kits = {
        name: fake_toolkit(tmp_path / name, with_nvcc=(name == "nvcc_kit"))
        for name in ("explicit", "cuda_path", "cuda_home", "nvcc_kit")
    }
    empty_bin = tmp_path / "empty_bin"
    empty_bin.mkdir()
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.delenv("CUDA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(empty_bin))
    return kits


def usr_local_cuda() -> str | None:
    path = Path("/usr/local/cuda")
    return str(path.resolve()) if (path / "include" / "cuda_runtime.h").is_file() else None


def test_find_toolkit_precedence(toolkits, monkeypatch):
    monkeypatch.setenv("CUDA_PATH", str(toolkits["cuda_path"]))
    monkeypatch.setenv("CUDA_HOME", str(toolkits["cuda_home"]))
    monkeypatch.setenv("PATH", str(toolkits["nvcc_kit"] / "bin"))
    assert find_toolkit(str(toolkits["explicit"])) == str(toolkits["explicit"].resolve())
    assert find_toolkit(None) == str(toolkits["cuda_path"].resolve())
    monkeypatch.delenv("CUDA_PATH")
    assert find_toolkit(None) == str(toolkits["cuda_home"].resolve())
    monkeypatch.delenv("CUDA_HOME")
    assert find_toolkit(None) == str(toolkits["nvcc_kit"].resolve())
    monkeypatch.setenv("PATH", str(toolkits["explicit"].parent / "empty_bin"))
    assert find_toolkit(None) == usr_local_cuda()


def test_find_toolkit_skips_invalid_candidates(toolkits, monkeypatch, tmp_path):
    not_a_kit = tmp_path / "not_a_kit"
    not_a_kit.mkdir()
    monkeypatch.setenv("CUDA_PATH", str(not_a_kit))
    monkeypatch.setenv("CUDA_HOME", str(toolkits["cuda_home"]))
    assert find_toolkit(None) == str(toolkits["cuda_home"].resolve())
    monkeypatch.setenv("CUDA_PATH", "")
    assert find_toolkit(None) == str(toolkits["cuda_home"].resolve())


def test_find_toolkit_through_nvcc_symlink(toolkits, monkeypatch, tmp_path):
    links = tmp_path / "links"
    links.mkdir()
    (links / "nvcc").symlink_to(toolkits["nvcc_kit"] / "bin" / "nvcc")
    monkeypatch.setenv("PATH", str(links))
    assert find_toolkit(None) == str(toolkits["nvcc_kit"].resolve())


def test_find_toolkit_resolves_symlinked_roots(toolkits, monkeypatch, tmp_path):
    link = tmp_path / "cuda-current"
    link.symlink_to(toolkits["cuda_home"])
    monkeypatch.setenv("CUDA_HOME", str(link))
    assert find_toolkit(None) == str(toolkits["cuda_home"].resolve())
    assert find_toolkit(str(link)) == str(toolkits["cuda_home"].resolve())


def test_find_toolkit_expands_home(toolkits, monkeypatch):
    monkeypatch.setenv("HOME", str(toolkits["explicit"].parent))
    assert find_toolkit("~/explicit") == str(toolkits["explicit"].resolve())


@pytest.mark.parametrize("bad", ["does/not/exist", "not_a_kit"])
def test_explicit_bad_cuda_path(toolkits, tmp_path, bad):
    (tmp_path / "not_a_kit").mkdir()
    with pytest.raises(FrontendConfigError, match="cuda_runtime.h"):
        find_toolkit(str(tmp_path / bad))
    with pytest.raises(FrontendConfigError, match="cuda_runtime.h"):
        build_environment(FrontendOptions(header_mode="toolkit", cuda_path=str(tmp_path / bad)))
    with pytest.raises(FrontendConfigError, match="cuda_runtime.h"):
        build_environment(FrontendOptions(header_mode="auto", cuda_path=str(tmp_path / bad)))


def test_embedded_mode_ignores_cuda_path(tmp_path):
    env = build_environment(FrontendOptions(header_mode="embedded", cuda_path=str(tmp_path / "nope")))
    assert env.header_mode is HeaderMode.EMBEDDED


def test_toolkit_environment_uses_the_found_toolkit(toolkits, monkeypatch):
    monkeypatch.setenv("CUDA_HOME", str(toolkits["cuda_home"]))
    env = build_environment(FrontendOptions(header_mode="toolkit"))
    kit = toolkits["cuda_home"].resolve()
    assert env.header_mode is HeaderMode.TOOLKIT
    base = list(env.base_args)
    assert f"--cuda-path={kit}" in base
    assert base[base.index("-isystem") + 1] == str(kit / "include" / "cccl")
    assert base[base.index("-idirafter") + 1] == flags.stub_headers_dir()
    assert "-nocudainc" not in base


def test_auto_mode(toolkits, monkeypatch):
    monkeypatch.setenv("CUDA_PATH", str(toolkits["cuda_path"]))
    assert build_environment(FrontendOptions()).header_mode is HeaderMode.TOOLKIT
    monkeypatch.setattr(flags, "find_toolkit", lambda explicit: None)
    env = build_environment(FrontendOptions(header_mode="auto"))
    assert env.header_mode is HeaderMode.EMBEDDED


def test_toolkit_mode_without_toolkit(monkeypatch):
    monkeypatch.setattr(flags, "find_toolkit", lambda explicit: None)
    with pytest.raises(FrontendConfigError, match="no CUDA toolkit found"):
        build_environment(FrontendOptions(header_mode="toolkit"))


def test_max_clang_arch_constant():
    assert flags.MAX_CLANG_ARCH == 90 and flags.DEFAULT_ARCH <= flags.MAX_CLANG_ARCH
    env = build_environment(FrontendOptions(header_mode="embedded"))
    db = CompileDatabase(path="/x/compile_commands.json", entries={"/x/k.cu": FileFlags(arch=100)})
    capped = dataclasses.replace(env, compile_db=db)
    args = capped.args_for("/x/k.cu")
    assert capped.flags_for("/x/k.cu").arch == 100 and "--cuda-gpu-arch=sm_90" in args

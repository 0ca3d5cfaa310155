"""Compiler flags: where the CUDA headers come from, and what each file is parsed with."""

from __future__ import annotations

import glob
import importlib.util
import json
import os
import re
import shlex
import shutil
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from cudalint.ir import HeaderMode

if TYPE_CHECKING:
    from cudalint.frontend.includes import IncludeGraph

# The newest GPU architecture libclang 18 knows; newer targets parse as this one.
MAX_CLANG_ARCH = 90
DEFAULT_ARCH = 90
DEFAULT_STD = "c++17"


class FrontendConfigError(Exception):
    """A setting that makes parsing impossible (bad CUDA path, unusable compile database)."""


@dataclass(frozen=True)
class FrontendOptions:
    header_mode: str = "auto"
    """``auto`` (toolkit when one is found), ``toolkit`` or ``embedded``."""
    cuda_path: str | None = None
    arch: str | None = None
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    extra_args: tuple[str, ...] = ()
    """Further clang arguments from the command line: ``-U``, ``-include``, ``-std``."""
    compile_commands: str | None = None
    """A compile_commands.json file or the directory holding it; None searches parent dirs
    and their ``build/`` subdirectories."""


@dataclass(frozen=True)
class FileFlags:
    """What one file is parsed with, beyond the fixed CUDA set-up."""

    args: tuple[str, ...] = ()
    arch: int | None = None
    max_registers: int | None = None
    """The build's ``-maxrregcount``, for the register-budget analysis."""


@dataclass(frozen=True)
class ParseEnvironment:
    header_mode: HeaderMode
    base_args: tuple[str, ...]
    default_arch: int
    user_args: tuple[str, ...] = ()
    compile_db: CompileDatabase | None = None
    precompiled_dir: str | None = None
    """Where precompiled CUDA headers are kept, one per distinct set of arguments; None
    parses every file's headers from source."""
    include_graph: IncludeGraph | None = field(default=None, compare=False)
    """Which files of the run include which; None looks beside each file that needs it."""

    def flags_for(self, path: str) -> FileFlags:
        """What the compile database says about ``path`` (nothing when it is not listed)."""
        file_flags = self.compile_db.flags_for(path) if self.compile_db else None
        return file_flags or FileFlags()

    def args_for(self, path: str) -> tuple[str, ...]:
        file_flags = self.flags_for(path)
        arch = min(file_flags.arch or self.default_arch, MAX_CLANG_ARCH)
        args = [*self.base_args, f"--cuda-gpu-arch=sm_{arch}", *self.user_args, *file_flags.args]
        if not any(a.startswith("-std=") for a in args):
            args.append(f"-std={DEFAULT_STD}")
        return tuple(args)


@cache
def resource_dir() -> str:
    """clang 18's resource directory, shipped by the clang-tidy wheel (found through its
    package rather than its installed metadata, whose import costs every run a tenth of
    its start-up)."""
    spec = importlib.util.find_spec("clang_tidy")
    if spec is None or not spec.submodule_search_locations:
        raise FrontendConfigError("the clang-tidy wheel (clang resource headers) is not installed")
    for package in spec.submodule_search_locations:
        wrappers = sorted(
            glob.glob(os.path.join(package, "data", "lib", "clang", "*", "include", "__clang_cuda_runtime_wrapper.h"))
        )
        if wrappers:
            return str(Path(wrappers[-1]).parent.parent)
    raise FrontendConfigError("clang resource headers not found in the clang-tidy wheel")


def _package_dir(name: str) -> str:
    return str(Path(__file__).resolve().parent / name)


def shim_dir() -> str:
    return _package_dir("shim")


def stub_headers_dir() -> str:
    return _package_dir("stub_headers")


def _is_toolkit(path: Path) -> bool:
    return (path / "include" / "cuda_runtime.h").is_file()


def find_toolkit(explicit: str | None) -> str | None:
    """The CUDA toolkit root: an explicit path, CUDA_PATH, CUDA_HOME, nvcc on PATH, /usr/local/cuda."""
    if explicit:
        path = Path(explicit).expanduser()
        if not _is_toolkit(path):
            raise FrontendConfigError(f"cuda-path {explicit!r} has no include/cuda_runtime.h")
        return str(path.resolve())
    candidates = [os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME")]
    nvcc = shutil.which("nvcc")
    if nvcc:
        candidates.append(str(Path(nvcc).resolve().parent.parent))
    candidates.append("/usr/local/cuda")
    for candidate in candidates:
        if candidate and _is_toolkit(Path(candidate)):
            return str(Path(candidate).resolve())
    return None


_ARCH_PATTERN = re.compile(r"(?:sm|compute|lto)_(\d+)[a-z]?")


def parse_arch(text: str) -> int:
    """``sm_80``, ``compute_86``, ``90a`` or ``80`` -> the numeric architecture."""
    text = text.strip().lower()
    match = _ARCH_PATTERN.fullmatch(text) or re.fullmatch(r"(\d+)[a-z]?", text)
    if not match:
        raise FrontendConfigError(f"unrecognised GPU architecture {text!r} (expected e.g. sm_80)")
    return int(match.group(1))


def build_environment(options: FrontendOptions, search_from: str | None = None) -> ParseEnvironment:
    mode = options.header_mode
    if mode not in ("auto", "toolkit", "embedded"):
        raise FrontendConfigError(f"unknown header mode {mode!r} (auto, toolkit or embedded)")
    cuda_path = None
    if mode != "embedded":
        cuda_path = find_toolkit(options.cuda_path)
        if cuda_path is None and mode == "toolkit":
            raise FrontendConfigError("no CUDA toolkit found (set --cuda-path, CUDA_PATH or CUDA_HOME)")
    res = resource_dir()
    # The version check would reject older --arch values the toolkit no longer builds for;
    # we only parse, so any architecture clang knows is fine.
    # Generated code nests brackets deeper than clang's default limit of 256 allows.
    # nvcc accepts the `register` storage class in C++17 code, which clang makes an error.
    common = [
        "-x",
        "cuda",
        "--cuda-device-only",
        "--no-cuda-version-check",
        "-resource-dir",
        res,
        "-Wno-unknown-cuda-version",
        "-Wno-register",
        "-ferror-limit=0",
        "-fbracket-depth=1024",
    ]
    if cuda_path:
        header_mode = HeaderMode.TOOLKIT
        base = [
            *common,
            *nvcc_version_defines(Path(cuda_path) / "include" / "cuda.h"),
            f"--cuda-path={cuda_path}",
            "-isystem",
            str(Path(cuda_path) / "include" / "cccl"),
            "-idirafter",
            stub_headers_dir(),
            "-include",
            str(Path(_package_dir("compat")) / "toolkit_overrides.h"),
        ]
    else:
        header_mode = HeaderMode.EMBEDDED
        shim = shim_dir()
        # Without a toolkit clang assumes an old CUDA and lowers <<<>>> differently; name a
        # version it knows so launches have the same shape as with real headers.
        base = [
            *common,
            *nvcc_version_defines(Path(shim) / "cuda_runtime.h"),
            "-nocudainc",
            "-nocudalib",
            "-Xclang",
            "-target-sdk-version=12.3",
            "-isystem",
            shim,
            "-include",
            str(Path(shim) / "cuda_runtime.h"),
        ]
    user_args = (
        [f"-I{d}" for d in options.include_dirs] + [f"-D{d}" for d in options.defines] + list(options.extra_args)
    )
    compile_db = CompileDatabase.locate(options.compile_commands, search_from)
    return ParseEnvironment(
        header_mode=header_mode,
        base_args=tuple(base),
        default_arch=min(parse_arch(options.arch) if options.arch else DEFAULT_ARCH, MAX_CLANG_ARCH),
        user_args=tuple(user_args),
        compile_db=compile_db,
    )


_CUDA_VERSION = re.compile(rb"^\s*#\s*define\s+CUDA_VERSION\s+(\d+)\s*$", re.MULTILINE)


def nvcc_version_defines(header: Path) -> list[str]:
    """The version macros nvcc defines and clang does not (``__CUDACC_VER_MAJOR__``,
    ``__CUDACC_VER_MINOR__``), from the ``CUDA_VERSION`` the toolkit's ``header`` defines:
    code that nvcc compiles under ``#if __CUDACC_VER_MAJOR__ >= 12`` (CUTLASS's Hopper
    paths among it) is what the analysis must read, not the fallback clang would pick."""
    try:
        match = _CUDA_VERSION.search(header.read_bytes())
    except OSError:
        return []
    if match is None:
        return []
    version = int(match.group(1))
    return [f"-D__CUDACC_VER_MAJOR__={version // 1000}", f"-D__CUDACC_VER_MINOR__={version % 1000 // 10}"]


# Flags worth keeping from a build command; everything else (optimisation, code
# generation, nvcc's own options) says nothing about what the source means.
_PATH_FLAGS = {
    "-I": "-I",
    "--include-path": "-I",
    "-isystem": "-isystem",
    "--system-include": "-isystem",
    "-iquote": "-iquote",
    "-idirafter": "-idirafter",
    "-include": "-include",
    "--pre-include": "-include",
}
_MACRO_FLAGS = {"-D": "-D", "--define-macro": "-D", "-U": "-U", "--undefine-macro": "-U"}
_JOINABLE = {"-I", "-D", "-U", "-isystem", "-iquote", "-idirafter"}
_ARCH_FLAGS = ("-arch", "--gpu-architecture", "--cuda-gpu-arch", "--offload-arch", "-gencode", "--generate-code")
_MAXRREG_FLAGS = ("-maxrregcount", "--maxrregcount")
_STD_FLAGS = ("-std", "--std")
_SEARCH_FLAGS = ("-I", "-isystem", "-iquote", "-idirafter")


def split_flag(arg: str, names) -> tuple[str, str | None] | None:
    """Match ``-Xvalue``, ``-X=value`` or a bare ``-X`` (value in the next argument)."""
    for name in sorted(names, key=len, reverse=True):
        if arg == name:
            return name, None
        if arg.startswith(name + "="):
            return name, arg[len(name) + 1 :]
        # clang also accepts single-dash path flags joined to their value (-isystem/dir).
        if not name.startswith("--") and name in _JOINABLE and arg.startswith(name):
            return name, arg[len(name) :]
    return None


def include_search_path(args: tuple[str, ...], flags: tuple[str, ...] = _SEARCH_FLAGS) -> list[str]:
    """The directories ``args`` name for ``#include`` lookups with ``flags``, in the order given."""
    directories = []
    remaining = iter(args)
    for arg in remaining:
        hit = split_flag(arg, _SEARCH_FLAGS)
        if hit is not None:
            value = hit[1] or next(remaining, None)
            if value and hit[0] in flags:
                directories.append(value)
    return directories


USER_SEARCH_FLAGS = ("-I", "-iquote")
"""Where the project's own headers are found; ``-isystem`` and ``-idirafter`` name libraries."""


def system_include_dirs(environment: ParseEnvironment) -> tuple[str, ...]:
    """Where the compiler finds system and CUDA headers: the toolkit's, clang's own, the
    host compiler's. A header found there is never the project's."""
    args = environment.base_args
    directories = include_search_path(args, ("-isystem", "-idirafter"))
    directories += [a.split("=", 1)[1] + "/include" for a in args if a.startswith("--cuda-path=")]
    directories += [a + "/include" for a in _values_after(args, "-resource-dir")]
    directories += ["/usr/local/include", "/usr/include"]
    for pattern in (
        "/usr/include/c++/*",
        "/usr/include/*-linux-gnu",
        "/usr/include/*-linux-gnu/c++/*",
        "/usr/lib/gcc/*/*/include",
    ):
        directories += sorted(glob.glob(pattern))
    return tuple(directories)


def _values_after(args: tuple[str, ...], flag: str) -> list[str]:
    return [args[i + 1] for i, arg in enumerate(args[:-1]) if arg == flag]


_OPTION_FILE_FLAGS = ("--options-file", "-optf")
"""nvcc's: arguments read from files (CMake puts every ``-I`` of a CUDA target in one)."""
_OPTION_FILE_DEPTH = 8


def expand_option_files(arguments: list[str], directory: str, depth: int = 0) -> list[str]:
    """``arguments`` with each options file in place of its name: nvcc's ``--options-file
    a.rsp[,b.rsp]`` (``-optf``) and the response files of gcc and clang (``@a.rsp``), read
    relative to ``directory`` as the compiler would, nested ones too. A file that cannot be
    read is left out: the build would have failed on it, and the other flags still hold."""
    expanded: list[str] = []
    index = 0
    while index < len(arguments):
        arg = arguments[index]
        index += 1
        names: list[str] = []
        if arg.startswith("@") and len(arg) > 1:
            names = [arg[1:]]
        elif (hit := split_flag(arg, _OPTION_FILE_FLAGS)) is not None:
            value = hit[1]
            if value is None and index < len(arguments):
                value = arguments[index]
                index += 1
            names = [name for name in (value or "").split(",") if name]
        else:
            expanded.append(arg)
            continue
        for name in names:
            path = name if os.path.isabs(name) else os.path.join(directory, name)
            try:
                words = shlex.split(Path(path).read_text(encoding="utf-8", errors="replace"), comments=True)
            except (OSError, ValueError):
                continue
            if depth < _OPTION_FILE_DEPTH:
                expanded.extend(expand_option_files(words, directory, depth + 1))
    return expanded


def translate_build_flags(arguments: list[str], directory: str) -> FileFlags:
    """Keep include paths, macros, language standard, GPU architecture and register cap,
    those in options files included."""
    arguments = expand_option_files(arguments, directory)
    kept: list[str] = []
    arch = None
    max_registers = None
    index = 0
    tables = (_PATH_FLAGS, _MACRO_FLAGS, _ARCH_FLAGS, _MAXRREG_FLAGS, _STD_FLAGS)
    while index < len(arguments):
        arg = arguments[index]
        index += 1
        table, hit = next(((t, h) for t in tables if (h := split_flag(arg, t))), (None, None))
        if hit is None:
            continue
        name, value = hit
        if value is None and index < len(arguments):
            value = arguments[index]
            index += 1
        if value is None:
            continue
        if table is _PATH_FLAGS:
            path = value if os.path.isabs(value) else os.path.normpath(os.path.join(directory, value))
            canonical = _PATH_FLAGS[name]
            kept.extend([canonical, path] if canonical != "-I" else [f"-I{path}"])
        elif table is _MACRO_FLAGS:
            kept.append(_MACRO_FLAGS[name] + value)
        elif table is _STD_FLAGS:
            kept.append(f"-std={value}")
        elif table is _MAXRREG_FLAGS:
            if value.isdigit():
                max_registers = int(value)
        else:
            archs = [int(m.group(1)) for m in _ARCH_PATTERN.finditer(value.lower())]
            if archs:
                arch = max(archs) if arch is None else max(arch, *archs)
    return FileFlags(args=tuple(kept), arch=arch, max_registers=max_registers)


@dataclass
class CompileDatabase:
    path: str
    entries: dict[str, FileFlags] = field(default_factory=dict)

    @classmethod
    def locate(cls, given: str | None, search_from: str | None) -> CompileDatabase | None:
        if given:
            path = Path(given)
            if path.is_dir():
                path = path / "compile_commands.json"
            if not path.is_file():
                raise FrontendConfigError(f"compile database {given!r} not found")
            return cls.load(str(path.resolve()))
        if search_from:
            start = Path(search_from).resolve()
            for directory in [start, *start.parents] if start.is_dir() else start.parents:
                # Where CMake writes it when configured in the customary `build/` (as
                # clangd looks too).
                for candidate in (directory / "compile_commands.json", directory / "build" / "compile_commands.json"):
                    if candidate.is_file():
                        return cls.load(str(candidate))
        return None

    @classmethod
    def load(cls, path: str) -> CompileDatabase:
        try:
            raw = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise FrontendConfigError(f"cannot read compile database {path}: {exc}") from exc
        if not isinstance(raw, list):
            raise FrontendConfigError(f"compile database {path} is not a JSON array")
        database = cls(path=path)
        for entry in raw:
            if not isinstance(entry, dict) or "file" not in entry:
                continue
            directory = str(entry.get("directory", os.path.dirname(path)))
            if isinstance(entry.get("arguments"), list):
                arguments = [str(a) for a in entry["arguments"]]
            elif isinstance(entry.get("command"), str):
                try:
                    arguments = shlex.split(entry["command"])
                except ValueError:
                    continue
            else:
                continue
            file = os.path.normpath(os.path.join(directory, str(entry["file"])))
            database.entries[file] = translate_build_flags(arguments[1:], directory)
        return database

    def flags_for(self, path: str) -> FileFlags | None:
        return self.entries.get(os.path.normpath(os.path.abspath(path)))

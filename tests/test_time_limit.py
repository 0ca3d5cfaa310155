"""Every file is bounded in time: generated worst cases finish within the per-file limit,
and a file cut short says so in one line, naming what was being analyzed."""

from __future__ import annotations

import resource
import sys

import pytest

from cudalint import engine, interruptions
from cudalint.config import Config, ConfigError, parse_config
from cudalint.diagnostics import NoticeKind

# Hash rounds written the way real hash kernels are: one macro per step, expanded inline.
HASH_PRELUDE = """\
typedef unsigned int u32;
#define ROTL(x, c) (((x) << (c)) | ((x) >> (32 - (c))))
#define MIX_F(x, y, z) (((x) & (y)) | ((~x) & (z)))
#define MIX_G(x, y, z) (((x) & (z)) | ((y) & (~z)))
#define MIX_H(x, y, z) ((x) ^ (y) ^ (z))
#define MIX_I(x, y, z) ((y) ^ ((x) | (~z)))
#define STEP(f, a, b, c, d, x, t, s) { (a) += f((b), (c), (d)) + (x) + (t); (a) = ROTL((a), (s)); (a) += (b); }
"""


def md5_like(name: str, steps: int) -> str:
    """``steps`` rounds of four mixing functions over a 16-word block held in registers."""
    mixes = ("MIX_F", "MIX_G", "MIX_H", "MIX_I")
    order = ("a, b, c, d", "d, a, b, c", "c, d, a, b", "b, c, d, a")
    lines = [
        HASH_PRELUDE,
        f"__global__ void {name}(const u32* words, u32* digests, int n) {{",
        "    int idx = blockIdx.x * blockDim.x + threadIdx.x;",
        "    if (idx >= n) return;",
        "    u32 w[16];",
        "    for (int i = 0; i < 16; ++i) w[i] = words[idx * 16 + i];",
        "    u32 a = 0x67452301, b = 0xefcdab89, c = 0x98badcfe, d = 0x10325476;",
    ]
    for step in range(steps):
        mix = mixes[step * 4 // steps]
        constant = (step * 2654435761) & 0xFFFFFFFF
        lines.append(f"    STEP({mix}, {order[step % 4]}, w[{(step * 7) % 16}], 0x{constant:08x}u, {5 + step % 19})")
    lines += [
        "    digests[idx * 4 + 0] = a;",
        "    digests[idx * 4 + 1] = b;",
        "    digests[idx * 4 + 2] = c;",
        "    digests[idx * 4 + 3] = d;",
        "}",
    ]
    return "\n".join(lines) + "\n"


def sha1_like(name: str, steps: int) -> str:
    """A message schedule expanded in a loop, then ``steps`` rounds rotating five words."""
    lines = [
        HASH_PRELUDE,
        f"__global__ void {name}(const u32* blocks, u32* out) {{",
        "    u32 w[80];",
        "    for (int i = 0; i < 16; ++i) w[i] = blocks[(blockIdx.x * blockDim.x + threadIdx.x) * 16 + i];",
        "    for (int i = 16; i < 80; ++i) w[i] = ROTL(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);",
        "    u32 a = 0x67452301, b = 0xefcdab89, c = 0x98badcfe, d = 0x10325476, e = 0xc3d2e1f0, t;",
    ]
    for step in range(steps):
        lines.append(
            f"    t = ROTL(a, 5) + MIX_H(b, c, d) + e + w[{step % 80}] + 0x5a827999u; "
            "e = d; d = c; c = ROTL(b, 30); b = a; a = t;"
        )
    lines += ["    out[blockIdx.x * blockDim.x + threadIdx.x] = a ^ b ^ c ^ d ^ e;", "}"]
    return "\n".join(lines) + "\n"


def deep_loop_nest(name: str, depth: int) -> str:
    """``depth`` nested loops, each level reading and writing through all the counters."""
    lines = [f"__global__ void {name}(float* a, const int* bounds) {{", "    float acc = 0.0f;"]
    counters = []
    for level in range(depth):
        counter = f"i{level}"
        indent = "    " * (level + 1)
        lines.append(
            f"{indent}for (int {counter} = threadIdx.x; {counter} < bounds[{level}]; {counter} += blockDim.x) {{"
        )
        counters.append(counter)
        lines.append(f"{indent}    acc += a[{' + '.join(counters)}];")
        lines.append(f"{indent}    if (acc > {level}.0f) a[{counter} * {level + 2}] = acc;")
    for level in reversed(range(depth)):
        lines.append("    " * (level + 1) + "}")
    lines += ["    a[threadIdx.x] = acc;", "}"]
    return "\n".join(lines) + "\n"


def huge_switch(name: str, cases: int) -> str:
    """A dispatch on the thread's index with ``cases`` arms, each with its own accesses."""
    lines = [
        f"__global__ void {name}(float* a, const float* b, int n) {{",
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;",
        f"    switch (i % {cases}) {{",
    ]
    for case in range(cases):
        lines.append(
            f"    case {case}: a[i * {case % 7 + 1}] = b[i + {case}] * {case}.5f; "
            f"if (b[i] > {case}) a[i] += b[i * 2]; break;"
        )
    lines += ["    default: a[i] = 0.0f;", "    }", "}"]
    return "\n".join(lines) + "\n"


def macro_expanded(name: str, uses: int) -> str:
    """One statement-block macro invoked ``uses`` times, as generated code does."""
    lines = [
        "#define ACCUMULATE(k) { float v = src[(k) * stride + threadIdx.x]; "
        "if (v > limit) dst[(k) + threadIdx.x * 4] += v; else dst[threadIdx.x] -= v; }",
        f"__global__ void {name}(float* dst, const float* src, int stride, float limit) {{",
    ]
    lines += [f"    ACCUMULATE({use})" for use in range(uses)]
    lines.append("}")
    return "\n".join(lines) + "\n"


WORST_CASES = {
    "md5_rounds.cu": md5_like("md5_rounds", 64),
    "sha1_rounds.cu": sha1_like("sha1_rounds", 80),
    "loop_nest.cu": deep_loop_nest("loop_nest", 12),
    "dispatch.cu": huge_switch("dispatch", 512),
    "generated.cu": macro_expanded("generated", 400),
}


def _processor_seconds() -> float:
    """This process's and its finished workers' processor time: what the limit counts."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def _run(paths, time_limit: float, jobs: int = 2):
    settings = engine.default_settings(Config(time_limit=time_limit), header_mode="embedded")
    settings.jobs = jobs
    started = _processor_seconds()
    result = engine.run([str(p) for p in paths], settings, [])
    return result, _processor_seconds() - started


def _limit_notices(result) -> dict[str, str]:
    return {
        r.path.rsplit("/", 1)[-1]: n.message
        for r in result.files
        for n in r.notices
        if n.kind is NoticeKind.INCOMPLETE and n.message.startswith("time limit")
    }


def test_generated_worst_cases_finish_within_the_limit(tmp_path):
    for name, text in WORST_CASES.items():
        (tmp_path / name).write_text(text)
    limit = 1.0
    result, spent = _run([tmp_path], limit)
    # At most the limit per file, plus parsing and the start-up of the run and its workers.
    assert spent < len(WORST_CASES) * limit + 10
    stopped = _limit_notices(result)
    for file in result.files:
        name = file.path.rsplit("/", 1)[-1]
        assert file.analyzed or name in stopped, (name, file.notices)
        if name in stopped:
            kernel = name.removesuffix(".cu")
            assert f"`{kernel}`" in stopped[name] or "reading the parsed code" in stopped[name], stopped[name]
            assert file.findings == []


def test_a_file_cut_short_gets_one_line_naming_the_limit(tmp_path):
    path = tmp_path / "rounds.cu"
    path.write_text(md5_like("rounds", 256))
    result, _ = _run([path], time_limit=0.05, jobs=1)
    (file,) = result.files
    (notice,) = file.notices
    assert notice.kind is NoticeKind.INCOMPLETE and notice.path == str(path)
    assert notice.message.startswith("time limit of 0.05 s reached after ")
    assert "no findings for this file" in notice.message and "\n" not in notice.message
    assert file.findings == [] and file.analyzed


def test_a_file_cut_short_is_kept_so_until_the_limit_changes(tmp_path, monkeypatch):
    path = tmp_path / "rounds.cu"
    path.write_text(md5_like("rounds", 256))
    settings = engine.default_settings(Config(time_limit=0.05), header_mode="embedded")
    settings.cache_dir = str(tmp_path / "cache")
    first = engine.run([str(path)], settings, [])
    # A warm run reports the same without analyzing anything again.
    monkeypatch.setattr(engine, "analyze_unit", lambda *arguments: pytest.fail("analyzed again"))
    again = engine.run([str(path)], settings, [])
    assert again.notices == first.notices and "time limit" in again.notices[0].message
    monkeypatch.undo()
    settings.time_limit = 0.1
    settings_changed = engine.run([str(path)], settings, [])
    assert "time limit of 0.1 s" in settings_changed.notices[0].message


def test_the_setting_and_its_default():
    assert Config().time_limit == 10.0
    assert parse_config({"time-limit": 30}, None).time_limit == 30.0
    assert parse_config({"time-limit": 0}, None).time_limit is None
    with pytest.raises(ConfigError, match="number of seconds"):
        parse_config({"time-limit": "long"}, None)


def test_interruptions_wait_while_libclang_bindings_run():
    """An exception raised inside the bindings (a finalizer, a result being converted)
    leaks libclang's objects or frees them twice: there it waits for the next checkpoint."""
    from clang import cindex

    seen = []

    class UnsavedFiles(list):
        def __iter__(self):
            seen.append(sys._getframe(1))  # The bindings' frame that reads the list.
            return super().__iter__()

    cindex.Index.create().parse("t.cu", args=["-x", "c++"], unsaved_files=UnsavedFiles([("t.cu", "int x;")]))
    assert seen and seen[0].f_code.co_filename.endswith("cindex.py")
    interruptions.interrupt(seen[0], engine.TimeLimitReached("lowering"))  # Waits, raises nothing.
    with pytest.raises(engine.TimeLimitReached):
        interruptions.checkpoint()
    interruptions.checkpoint()  # Raised once only.
    with pytest.raises(engine.TimeLimitReached):
        interruptions.interrupt(sys._getframe(), engine.TimeLimitReached("analyzing"))  # Own code: at once.

"""The result cache: warm runs reuse results, and anything that could change them invalidates them."""

from __future__ import annotations

import dataclasses
import os
import pickle

import pytest

from conftest import CORPUS, run_cli, toolkit_available
from cudalint import engine, frontend
from cudalint.cache import ResultCache, analyzer_digest
from cudalint.config import Config, enabled_rules

KERNEL = '#include "scale.h"\n__global__ void k(float* a) { a[threadIdx.x] = a[threadIdx.x] * SCALE; }\n'


@pytest.fixture
def project(tmp_path):
    (tmp_path / "scale.h").write_text("#define SCALE 0.1\n")
    (tmp_path / "k.cu").write_text(KERNEL)
    return tmp_path


def _run(project, cache_dir, select=("ALL",)):
    enabled = enabled_rules(list(select), [], [])  # as a configuration's `select` chooses them
    settings = engine.default_settings(Config(), enabled, header_mode="embedded")
    settings.cache_dir = str(cache_dir)
    settings.jobs = 1
    return engine.run([str(project)], settings, [])


def _parses(monkeypatch) -> list[str]:
    calls: list[str] = []
    original = frontend.parse_unit

    def counting(path, environment, data=None, **options):
        calls.append(path)
        return original(path, environment, data, **options)

    monkeypatch.setattr(frontend, "parse_unit", counting)
    return calls


def test_warm_run_reuses_results_without_parsing(project, tmp_path, monkeypatch):
    cache_dir = tmp_path / "cache"
    cold = _run(project, cache_dir)
    calls = _parses(monkeypatch)
    warm = _run(project, cache_dir)
    assert calls == []  # Lookups happen before any worker starts.
    summary = [(f.code, f.span.line, f.message) for f in warm.findings]
    assert summary and summary == [(f.code, f.span.line, f.message) for f in cold.findings]


def test_a_changed_header_invalidates(project, tmp_path):
    cache_dir = tmp_path / "cache"
    assert _run(project, cache_dir).findings
    (project / "scale.h").write_text("#define SCALE 0.1f\n")
    assert _run(project, cache_dir).findings == []


def test_changed_source_or_settings_miss(project, tmp_path):
    cache_dir = tmp_path / "cache"
    assert _run(project, cache_dir).findings
    assert _run(project, cache_dir, select=("CL101",)).findings == []
    (project / "k.cu").write_text(KERNEL.replace("* SCALE", "* 2.0f"))
    assert _run(project, cache_dir).findings == []


def test_a_corrupt_entry_is_a_miss(tmp_path):
    cache = ResultCache(tmp_path, "fingerprint")
    cache.store("k.cu", b"text", ("-x",), (), {"answer": 42})
    assert cache.lookup("k.cu", b"text", ("-x",)) == {"answer": 42}
    (entry,) = tmp_path.rglob("*.pickle")
    entry.write_bytes(b"not a pickle")
    assert cache.lookup("k.cu", b"text", ("-x",)) is None
    entry.write_bytes(pickle.dumps("wrong shape"))
    assert cache.lookup("k.cu", b"text", ("-x",)) is None


def test_no_cache_writes_nothing(project, tmp_path):
    cache_dir = tmp_path / "cache"
    result = run_cli(project / "k.cu", "--headers", "embedded", "--no-cache", "--cache-dir", cache_dir)
    assert result.exit_code == 1 and not cache_dir.exists()
    result = run_cli(project / "k.cu", "--headers", "embedded", "--cache-dir", cache_dir)
    assert result.exit_code == 1 and any(cache_dir.rglob("*.pickle"))


@pytest.mark.skipif(not toolkit_available(), reason="needs a CUDA toolkit")
def test_precompiled_cuda_headers_change_nothing(tmp_path):
    corpus = sorted((CORPUS / "access").glob("*.cu"))[:3] + sorted((CORPUS / "cl401").glob("*.cu"))[:2]
    settings = engine.default_settings(Config(), None, header_mode="toolkit")
    settings.jobs = 2
    plain = engine.run([str(p) for p in corpus], settings, [])
    settings.cache_dir = str(tmp_path / "cache")
    precompiled = engine.run([str(p) for p in corpus], settings, [])
    assert list((tmp_path / "cache" / "pch").glob("*.pch"))
    assert [(f.path, f.code, f.span.line, f.message) for f in precompiled.findings] == [
        (f.path, f.code, f.span.line, f.message) for f in plain.findings
    ]
    assert not precompiled.notices


TEMPLATES = """\
#include <vector>
namespace grid {
template <class T> struct Table {
    T* cells;
    __host__ void fill(T value);
};
}
template <class T> __global__ void scale(T* a, T s);
template <class T> __host__ void grid::Table<T>::fill(T value) { cells[0] = value; }
template <class T> __global__ void scale(T* a, T s) { a[threadIdx.x * 2] *= s; }
template <> __global__ void scale<int>(int* a, int s) { a[threadIdx.x] <<= s; }
void run(float* f, double* d, int* i) {
    grid::Table<float> table{f};
    table.fill(1.0f);
    scale<<<1, 32>>>(f, 2.0f);
    scale<<<1, 32>>>(d, 2.0);
    scale<<<1, 32>>>(i, 1);
}
"""


@pytest.mark.skipif(not toolkit_available(), reason="needs a CUDA toolkit")
def test_a_unit_parsed_on_precompiled_headers_lowers_as_it_would_without(tmp_path):
    # With the toolkit precompiled, the unit's top level is listed by the parser, implicit
    # template instantiations among them: each template must still be lowered once.
    path = tmp_path / "templates.cu"
    path.write_text(TEMPLATES)
    plain = frontend.build_environment(frontend.FrontendOptions(header_mode="toolkit"))
    precompiled = dataclasses.replace(plain, precompiled_dir=str(tmp_path / "pch"))
    lowered = [frontend.parse_unit(str(path), environment).lower() for environment in (plain, precompiled)]
    assert list((tmp_path / "pch").glob("*.pch"))
    assert [f.name for f in lowered[0].functions] == ["scale", "scale", "run", "scale", "scale"]
    # (The toolkit's and the C++ library's headers are spelled differently when precompiled.)
    assert repr(dataclasses.replace(lowered[1], includes=())) == repr(dataclasses.replace(lowered[0], includes=()))


# A store whose stride a header decides: 32 floats apart is CL101, one apart is coalesced.
STRIDED_BY_HEADER = """\
#include "defs.h"
__global__ void k(float* a) { a[threadIdx.x * STRIDE] = 0.0f; }
void go(float* a) { k<<<1, 256>>>(a); }
"""


def _report(path, *options):
    """What ``cudalint check`` prints for ``path``, and its exit status."""
    result = run_cli("check", "--headers", "embedded", *options, path)
    return result.exit_code, result.stdout


def _same_as_without_cache(path, cache_dir):
    cached = _report(path, "--cache-dir", cache_dir)
    assert cached == _report(path, "--no-cache")
    return cached


@pytest.mark.parametrize("where", ["beside", "include setting", "elsewhere in the project"])
def test_a_header_that_appears_invalidates_a_result_analyzed_without_it(tmp_path, where):
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "inc").mkdir()
    (project / "cudalint.toml").write_text('include = ["inc"]\n')
    main = project / "src" / "main.cu"
    main.write_text(STRIDED_BY_HEADER)
    cache_dir = tmp_path / "cache"
    status, output = _same_as_without_cache(main, cache_dir)
    assert status == 0 and "CL101" not in output
    header = {"beside": project / "src", "include setting": project / "inc", "elsewhere in the project": project}
    (header[where] / "defs.h").write_text("#define STRIDE 32\n")
    status, output = _same_as_without_cache(main, cache_dir)
    assert status == 1 and "CL101" in output


def test_results_follow_a_header_that_changes_and_changes_back(tmp_path):
    (tmp_path / "defs.h").write_text("#define STRIDE 1\n")
    main = tmp_path / "main.cu"
    main.write_text(STRIDED_BY_HEADER)
    cache_dir = tmp_path / "cache"
    seen = []
    for stride in (1, 32, 1, 32):
        (tmp_path / "defs.h").write_text(f"#define STRIDE {stride}\n")
        seen.append(_same_as_without_cache(main, cache_dir)[0])
    assert seen == [0, 1, 0, 1]


def test_results_follow_a_configuration_change_and_a_branch_switch(tmp_path):
    (tmp_path / "defs.h").write_text("#define STRIDE 32\n")
    main = tmp_path / "main.cu"
    main.write_text(STRIDED_BY_HEADER)
    cache_dir = tmp_path / "cache"
    assert _same_as_without_cache(main, cache_dir)[0] == 1
    (tmp_path / "cudalint.toml").write_text('ignore = ["CL101"]\n')
    assert _same_as_without_cache(main, cache_dir)[0] == 0
    (tmp_path / "cudalint.toml").unlink()
    # A checkout rewrites the source and its header at once, then back.
    main.write_text(STRIDED_BY_HEADER.replace("STRIDE", "STEP"))
    (tmp_path / "defs.h").write_text("#define STEP 1\n")
    assert _same_as_without_cache(main, cache_dir)[0] == 0
    main.write_text(STRIDED_BY_HEADER)
    (tmp_path / "defs.h").write_text("#define STRIDE 32\n")
    assert _same_as_without_cache(main, cache_dir)[0] == 1


def test_a_result_is_not_stored_when_a_file_it_read_changed_during_its_analysis(tmp_path):
    header, main = tmp_path / "defs.h", tmp_path / "main.cu"
    main.write_text("main")
    header.write_text("#define STRIDE 1\n")
    cache = ResultCache(tmp_path / "cache", "fingerprint")
    analysis_began = header.stat().st_mtime_ns
    header.write_text("#define STRIDE 32\n")
    os.utime(header, ns=(analysis_began + 1, analysis_began + 1))
    cache.store(str(main), b"main", (), (str(header),), "result", since_ns=analysis_began)
    assert cache.lookup(str(main), b"main", ()) is None
    cache.store(str(main), b"main", (), (str(header),), "result", since_ns=analysis_began + 1)
    assert cache.lookup(str(main), b"main", ()) == "result"


def test_the_analyzer_s_own_code_is_part_of_the_key(tmp_path):
    """An install edited in place keeps its version: its files' content tells its results apart."""
    package = tmp_path / "package"
    (package / "rules").mkdir(parents=True)
    (package / "rules" / "rule.py").write_text("LIMIT = 1\n")
    (package / "shim.h").write_text("#define X 1\n")
    before = analyzer_digest(package)
    (package / "rules" / "rule.py").write_text("LIMIT = 2\n")
    assert analyzer_digest.__wrapped__(package) != before
    assert analyzer_digest() == analyzer_digest.__wrapped__()

"""The result cache: warm runs reuse results, and anything that could change them invalidates them."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from conftest import CORPUS, run_cli, toolkit_available
from cudalint import engine, frontend
from cudalint.cache import ResultCache
from cudalint.config import Config
from cudalint.rules import implemented

KERNEL = '#include "scale.h"\n__global__ void k(float* a) { a[threadIdx.x] = a[threadIdx.x] * SCALE; }\n'


@pytest.fixture
def project(tmp_path):
    (tmp_path / "scale.h").write_text("#define SCALE 0.1\n")
    (tmp_path / "k.cu").write_text(KERNEL)
    return tmp_path


def _run(project, cache_dir, select=("ALL",)):
    enabled = [code for code in implemented() if select == ("ALL",) or code in select]
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

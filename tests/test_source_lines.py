"""Per-source-line hardware truth: SASS-to-line mapping, ncu source-page parsing, per-line
figures, hazard verdicts and their tally (cudalint.profile.source_lines), the corpus sidecars
(scripts/measure_gpu.py) and the real-code scorer's inputs (bench/realcode). All inputs
are small synthetic texts written here."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from conftest import load_script
from cudalint.profile import source_lines as lines

measure = load_script("measure_gpu")
BENCH = Path(__file__).resolve().parent.parent / "bench" / "realcode"


def _bench(name: str):
    if name in sys.modules:
        return sys.modules[name]
    sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


DISASSEMBLY = """\
\t.section\t.text._Z3fooPf,"ax",@progbits
_Z3fooPf:
\t//## File "/w/k.cu", line 10
        /*0000*/                   LDC R1, c[0x0][0x28] ;
\t//## File "/w/h.cuh", line 3 inlined at "/w/k.cu", line 12
\t//## File "/w/k.cu", line 12
        /*0010*/                   LDG.E R2, desc[UR4][R2.64] ;
        /*0020*/                   F2F.F64.F32 R4, R2 ;
        /*0030*/                   DMUL R4, R4, 0.5 ;
\t//## File "/w/k.cu", line 13
        /*0040*/               @P0 STL [R1], R2 ;
        /*0050*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0060*/                   DEPBAR.LE SB0, 0x0 ;
        /*0070*/                   BRA 0x70 ;
\t.section\t.text._Z3barv,"ax",@progbits
        /*0000*/                   EXIT ;
"""


def test_disassembly_maps_to_innermost_line():
    functions = lines.parse_disassembly(DISASSEMBLY)
    assert list(functions) == ["_Z3fooPf", "_Z3barv"]
    foo = functions["_Z3fooPf"]
    assert [i.opcode for i in foo] == [
        "LDC",
        "LDG.E",
        "F2F.F64.F32",
        "DMUL",
        "STL",
        "BAR.SYNC.DEFER_BLOCKING",
        "DEPBAR.LE",
        "BRA",
    ]
    load = foo[1]
    assert load.location == lines.Location("/w/h.cuh", 3)
    assert load.inlined_at == (lines.Location("/w/k.cu", 12),)
    assert foo[3].location == lines.Location("/w/h.cuh", 3)  # the marker group carries on
    assert foo[4].location == lines.Location("/w/k.cu", 13) and foo[4].inlined_at == ()
    assert functions["_Z3barv"][0].location is None


def test_instruction_classes():
    foo = lines.parse_disassembly(DISASSEMBLY)["_Z3fooPf"]
    by_opcode = {i.opcode: i for i in foo}
    assert by_opcode["DMUL"].is_fp64 and by_opcode["F2F.F64.F32"].is_fp64
    assert by_opcode["F2F.F64.F32"].is_fp32_to_fp64 and not by_opcode["DMUL"].is_fp32_to_fp64
    assert not by_opcode["DEPBAR.LE"].is_fp64 and not by_opcode["LDG.E"].is_fp64
    assert by_opcode["STL"].is_local and by_opcode["BAR.SYNC.DEFER_BLOCKING"].is_barrier


def _export(name: str, rows: list[dict[str, str]], columns: list[str]) -> str:
    header = ",".join(f'"{c}"' for c in ["Address", "Source", *columns])
    body = [
        ",".join(f'"{v}"' for v in [row["Address"], row["Source"], *(row.get(c, "0") for c in columns)]) for row in rows
    ]
    return "\n".join([f'"Kernel Name","{name}",', header, *body])


FOO_ROWS = [
    {
        "Address": "0x7f00",
        "Source": "LDC R1, c[0x0][0x28]",
        "Instructions Executed": "4",
        "Thread Instructions Executed": "128",
        "Predicated-On Thread Instructions Executed": "128",
    },
    {
        "Address": "0x7f10",
        "Source": "LDG.E R2, desc[UR4][R2.64]",
        "Instructions Executed": "4",
        "Thread Instructions Executed": "128",
        "Predicated-On Thread Instructions Executed": "128",
        "L2 Theoretical Sectors Global": "32",
        "L2 Theoretical Sectors Global Ideal": "16",
    },
    {"Address": "0x7f20", "Source": "F2F.F64.F32 R4, R2"},
    {"Address": "0x7f30", "Source": "DMUL R4, R4, 0.5"},
    {
        "Address": "0x7f40",
        "Source": "@P0 STL [R1], R2",
        "Instructions Executed": "4",
        "Thread Instructions Executed": "128",
        "Predicated-On Thread Instructions Executed": "64",
    },
    {"Address": "0x7f50", "Source": "BAR.SYNC.DEFER_BLOCKING 0x0"},
    {"Address": "0x7f60", "Source": "DEPBAR.LE SB0, 0x0"},
    {"Address": "0x7f70", "Source": "BRA 0x7f70", "Instructions Executed": "4", "Divergent Branches": "2"},
]
COLUMNS = [
    "Instructions Executed",
    "Thread Instructions Executed",
    "Predicated-On Thread Instructions Executed",
    "Divergent Branches",
    "L2 Theoretical Sectors Global",
    "L2 Theoretical Sectors Global Ideal",
]


def test_source_export_drops_the_repeated_launch_and_reads_missing_columns_as_zero():
    text = _export("foo(float *)", FOO_ROWS, COLUMNS) + "\n" + _export("foo(float *)", FOO_ROWS, COLUMNS[:3])
    kernels = lines.parse_source_export(text)
    assert len(kernels) == 1 and kernels[0].name == "foo(float *)"
    assert kernels[0].opcodes[4] == "STL"
    twice = (
        _export("foo(float *)", FOO_ROWS, COLUMNS)
        + "\n"
        + _export("foo(float *)", [{**r, "Instructions Executed": "8"} for r in FOO_ROWS], COLUMNS)
    )
    assert len(lines.parse_source_export(twice)) == 2  # a second launch with other counts stays


def test_line_figures_sum_counters_on_innermost_lines():
    functions = lines.parse_disassembly(DISASSEMBLY)
    problems: list[str] = []
    figures = lines.line_figures(
        functions, lines.parse_source_export(_export("foo(float *)", FOO_ROWS, COLUMNS)), problems
    )
    assert problems == []
    helper = figures[lines.Location("/w/h.cuh", 3)]
    assert (helper.sass, helper.gsec, helper.gideal, helper.gworst) == (3, 32, 16, 2.0)
    assert (helper.fp64, helper.cvt64) == (2, 1)
    store = figures[lines.Location("/w/k.cu", 13)]
    assert (store.thr, store.pred, store.local, store.bar, store.bra, store.div) == (128, 64, 1, 1, 4, 2)
    assert lines.LineFigures.from_row(store.row()) == store


def test_kernel_names_reduce_to_the_identifier():
    assert lines.kernel_identifier("void ns::scan<float, 2>(float *, int)") == "scan"
    assert lines.kernel_identifier("k(float *)") == "k"


def test_a_launch_goes_to_the_function_of_its_own_name_when_another_has_the_same_code():
    # Two kernels compiled to the same opcodes, one name a prefix of the other: each launch
    # must count on its own kernel's lines, never both on one.
    code = [lines.Instruction("", offset, "MOV", None) for offset in range(2)]
    functions = {"_Z19rows_alternate_widePfi": code, "_Z14rows_alternatePfi": code}
    launch = lines.ProfiledKernel("rows_alternate(float *, int)", [{"Source": "MOV R1, R2"}] * 2)
    assert lines.match_function(launch, functions) == "_Z14rows_alternatePfi"
    wide = lines.ProfiledKernel("rows_alternate_wide(float *, int)", launch.rows)
    assert lines.match_function(wide, functions) == "_Z19rows_alternate_widePfi"


def test_a_launch_whose_code_is_not_disassembled_is_reported():
    problems: list[str] = []
    other = [{**FOO_ROWS[0], "Source": "MOV R1, R2"}]
    lines.line_figures(
        lines.parse_disassembly(DISASSEMBLY),
        lines.parse_source_export(_export("foo(float *)", other, COLUMNS)),
        problems,
    )
    assert problems and "foo(float *)" in problems[0]


def test_worst_ratio_ignores_rare_accesses_but_counts_unrolled_copies():
    rare = [lines._Access(1000, 1000), lines._Access(50, 5)]
    assert lines._worst(rare) == 1.0
    unrolled = [lines._Access(32, 4)] * 16 + [lines._Access(16, 16)]
    assert lines._worst(unrolled) == 8.0


def _figures(**rows: dict) -> dict[int, object]:
    return {int(n.lstrip("L")): lines.LineFigures(**values) for n, values in rows.items()}


def test_divergent_branch_is_a_hazard_unless_cheap():
    figures = _figures(
        L10=dict(inst=100, thr=3200, pred=3200, bra=100, div=100),
        L11=dict(inst=1000, thr=16000, pred=16000),
        L20=dict(inst=10000, thr=320000, pred=320000),
    )
    branch = lines.Branch(10, ((11, 11),), "if", (1, 30))
    assert lines.file_verdicts(figures, {10: branch}, {}, False)["divergence"] == {10: True}
    one_lane = _figures(
        L10=dict(inst=100, thr=3200, pred=3200, bra=100, div=100),
        L11=dict(inst=1, thr=1, pred=1),
        L20=dict(inst=100000, thr=3200000, pred=3200000),
    )
    assert lines.file_verdicts(one_lane, {10: branch}, {}, False)["divergence"] == {10: False}


def test_predicated_body_idles_lanes_and_a_select_does_not():
    predicated = _figures(L10=dict(inst=100, thr=3200, pred=3200), L11=dict(inst=400, thr=12800, pred=6400))
    branch = lines.Branch(10, ((11, 11),), "if", (1, 30))
    assert lines.file_verdicts(predicated, {10: branch}, {}, False)["divergence"] == {10: True}
    select = _figures(L10=dict(inst=100, thr=3200, pred=3200), L11=dict(inst=400, thr=12800, pred=12800))
    assert lines.file_verdicts(select, {10: branch}, {}, False)["divergence"] == {10: False}


def test_loop_bodies_and_nested_statements_are_judged_on_their_own_lines():
    # A uniform loop whose unrolled remainder is predicated off, around an if that diverges.
    figures = _figures(
        L10=dict(inst=100, thr=3200, pred=3200, bra=100),
        L11=dict(inst=100, thr=3200, pred=3200, bra=100, div=100),
        L12=dict(inst=800, thr=25600, pred=3200),
    )
    loop = lines.Branch(10, ((11, 13),), "for", (1, 30))
    inner = lines.Branch(11, ((12, 12),), "if", (1, 30))
    verdicts = lines.file_verdicts(figures, {10: loop, 11: inner}, {}, False)["divergence"]
    assert verdicts == {10: False, 11: True}


def test_access_and_static_verdicts():
    figures = _figures(
        L5=dict(sass=2, inst=4, gsec=64, gideal=32, gworst=2.0),
        L6=dict(sass=2, inst=4, swf=10, sideal=8, sworst=1.25),
        L7=dict(sass=3, fp64=3, cvt64=2),
        L8=dict(sass=1, fp64=1, cvt64=1),
        L9=dict(sass=1, inst=4, bar=1, local=1),
    )
    verdicts = lines.file_verdicts(figures, {}, {9: 3}, True)
    assert verdicts["global"] == {5: True}
    assert verdicts["shared"] == {6: False}
    assert verdicts["fp64"][7] is True and verdicts["fp64"][8] is False  # a lone conversion is no fp64 math
    assert verdicts["local"][9] is True and verdicts["barrier"] == {9: True}
    assert lines.file_verdicts(figures, {}, {}, False)["barrier"] == {}  # synccheck did not finish


def test_tally_by_level_and_unmeasured_findings():
    verdicts = {"global": {("k.cu", 5): True, ("k.cu", 6): False, ("k.cu", 7): True}}
    findings = [
        lines.Finding("CL101", "warning", "k.cu", 5),
        lines.Finding("CL102", "note", "k.cu", 6),
        lines.Finding("CL101", "warning", "k.cu", 40),
        lines.Finding("CL201", "warning", "k.cu", 7),
    ]
    strict = lines.tally(verdicts, findings, lines.LEVEL_SETS["warning+error"])["global"]
    assert strict.true_positive == [("k.cu", 5)] and strict.false_negative == [("k.cu", 7)]
    assert strict.negatives == 1 and [u[:2] for u in strict.unmeasured] == [("k.cu", 40)]
    loose = lines.tally(verdicts, findings, lines.LEVEL_SETS["all levels"])["global"]
    assert [f[:2] for f in loose.false_positive] == [("k.cu", 6)]
    assert (loose.precision, loose.recall) == (0.5, 0.5)


SANITIZER_LOG = """\
========= COMPUTE-SANITIZER
========= Barrier error detected. Invalid arguments.
=========     at __ballot_sync(unsigned int, int)+0x190 in sm_30_intrinsics.hpp:134
=========     by thread (0,0,0) in block (5,0,0)
=========         Device Frame: warp_scan(bool)+0x190 in k.cu:49
=========         Device Frame: scan(int *)+0x80 in k.cu:105
========= Barrier error detected. Divergent thread(s) in warp.
=========     at bad(float *)+0x150 in k.cu:35
========= ERROR SUMMARY: 2 errors
"""


def test_synccheck_errors_keep_every_frame():
    errors = lines.synccheck_errors(SANITIZER_LOG)
    assert errors == [[("sm_30_intrinsics.hpp", 134), ("k.cu", 49), ("k.cu", 105)], [("k.cu", 35)]]
    assert lines.SYNCCHECK_SUMMARY.search(SANITIZER_LOG).group(1) == "2"


def test_corpus_sidecars_from_exports(tmp_path):
    corpus = tmp_path / "k.cu"
    corpus.write_text("// launch: grid=1 block=32\n__global__ void foo(float* a) { a[0] = 1.0f; }\n")
    exports = tmp_path / "exports"
    exports.mkdir()
    (exports / "driver_0_k.disasm.txt").write_text(DISASSEMBLY.replace("/w/k.cu", str(corpus)))
    (exports / "driver_0_k.source.csv").write_text(_export("foo(float *)", FOO_ROWS, COLUMNS))
    (exports / "driver_0_k.ncu.log").write_text("measure_gpu device: Test GPU\n")
    (exports / "manifest.json").write_text(
        json.dumps({"ncu": "1.0", "drivers": [{"file": str(corpus), "kernels": ["foo"], "stem": "driver_0_k"}]})
    )
    plan = {corpus: measure.collect(corpus, use_frontend=False)}
    sidecars, problems = measure.line_sidecars(plan, exports)
    assert problems == []
    sidecar = sidecars[corpus]
    assert sidecar["measured"] == "ncu 1.0, Test GPU"
    # Line 12 only calls the inlined helper: its code belongs to the header, which stays out.
    assert set(sidecar["lines"]) == {"10", "13"}
    measure.write_sidecars(sidecars)
    assert measure.read_sidecar(corpus) == json.loads(json.dumps(sidecar))
    result = measure.SyncResult(2, "ok", "compute-sanitizer 1.0, Test GPU", SANITIZER_LOG)
    measure.write_sidecars(measure.barrier_sidecars(plan, {(measure.file_key(corpus), "foo"): result}))
    merged = measure.read_sidecar(corpus)
    assert merged["barrier_errors"] == {"35": 1, "49": 1}
    assert merged["lines"] == sidecar["lines"]


def test_real_code_findings_and_kernels():
    score = _bench("score")
    sarif = {
        "runs": [
            {
                "results": [
                    {
                        "ruleId": "CL101",
                        "level": "note",
                        "message": {"text": "m"},
                        "locations": [
                            {"physicalLocation": {"artifactLocation": {"uri": "sub/k.cu"}, "region": {"startLine": 7}}}
                        ],
                    },
                    {
                        "ruleId": "CL301",
                        "level": "warning",
                        "message": {"text": "n"},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": "/p/src/k.cu"},
                                    "region": {"startLine": 3, "endLine": 9},
                                }
                            }
                        ],
                    },
                ]
            }
        ]
    }
    path = Path(pytest.importorskip("tempfile").mkdtemp()) / "log.sarif"
    path.write_text(json.dumps(sarif))
    findings = score.read_findings(path, Path("/p/src"))
    assert [(f.rule, f.level, f.file, f.line) for f in findings] == [
        ("CL101", "note", "sub/k.cu", 7),
        ("CL301", "warning", "k.cu", 3),
    ]
    details = (
        '"ID","Kernel Name","Block Size","Grid Size","Metric Name"\n'
        '"0","k(float *)","(256, 1, 1)","(48, 1, 1)","a"\n"0","k(float *)","(256, 1, 1)","(48, 1, 1)","b"\n'
    )
    assert lines.launches_from_details(details) == [{"name": "k", "block": [256, 1, 1], "grid": [48, 1, 1]}]


def test_program_list_is_well_formed():
    programs = _bench("programs")
    listed = programs.load()
    assert len(listed) >= 40
    assert all(p.args is not None and p.path for p in listed)
    classic = programs.select(listed, None, "classic")
    modern = programs.select(listed, None, "modern")
    assert {p.suite.name for p in classic} == {"hecbench", "polybench"}
    assert len(classic) + len(modern) == len(listed)
    # The modern part builds each program with its own recipe, with a driver of ours
    # where the repository ships no runnable main.
    assert len(modern) >= 15
    assert all(p.build and p.output for p in modern)
    assert all((programs.DRIVERS / p.driver).is_file() for p in modern if p.driver)
    assert not any(p.build or p.driver for p in classic)


def test_program_extracts_only_its_files_and_its_suites_headers(tmp_path):
    toml = tmp_path / "programs.toml"
    toml.write_text(
        '[suites.lib]\nrepository = "o/lib"\ncommit = "c"\npart = "modern"\nextra = ["include"]\n'
        '[[program]]\nname = "a"\nsuite = "lib"\npath = "examples"\nfiles = ["a.cu"]\n'
        'build = ["nvcc -o a a.cu"]\noutput = "a"\n'
    )
    programs = _bench("programs")
    (program,) = programs.load(toml)
    assert program.extracted_paths() == ("examples/a.cu", "include")
    assert program.binary(tmp_path) == tmp_path / "src" / "a" / "examples" / "a"
    toml.write_text(toml.read_text().replace('output = "a"\n', ""))
    with pytest.raises(ValueError, match="needs its output"):
        programs.load(toml)


def test_scores_are_totalled_per_part_and_together():
    score = _bench("score")
    source_lines = lines

    def program(name: str, part: str, hits: int, misses: int):
        classes = {c: source_lines.Tally() for c in source_lines.CLASSES}
        classes["global"] = source_lines.Tally(
            true_positive=[("k.cu", n) for n in range(hits)], false_negative=[("k.cu", 100 + n) for n in range(misses)]
        )
        tallies = {label: classes for label in source_lines.LEVEL_SETS}
        return score.ProgramScore(name, part, Path("/p") / name, tallies, {}, {})

    classic, modern = program("a", "classic", 3, 1), program("b", "modern", 1, 3)
    label = next(iter(source_lines.LEVEL_SETS))
    assert score.totals_of([classic])[label]["global"].recall == 0.75
    assert score.totals_of([modern])[label]["global"].recall == 0.25
    assert score.totals_of([classic, modern])[label]["global"].recall == 0.5

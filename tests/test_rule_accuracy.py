"""The memory and divergence rules agree with the hardware counters recorded in the corpus."""

from __future__ import annotations

import functools
import json

import pytest

from conftest import load_script

_MODULE = load_script("rule_accuracy")
PREDICATION_IDLE = _MODULE.PREDICATION_IDLE
GROUPS = sorted(_MODULE.GROUPS)


@functools.cache
def accuracy():
    return _MODULE.evaluate()


# Fewest hardware-confirmed positives and negatives a group needs for its figures to mean
# something (synccheck demonstrates few barrier cases).
MINIMUM_CASES = {"CL101+CL102": (10, 20), "CL201": (5, 20), "CL301": (5, 20), "CL302": (2, 4)}


@pytest.mark.parametrize("group", GROUPS)
def test_precision_and_recall_against_hardware(group):
    tally = accuracy()[group]
    positives, negatives = MINIMUM_CASES[group]
    assert tally.true_positive >= positives, "too few hardware-confirmed positives to judge"
    assert tally.true_negative >= negatives, "too few hardware-confirmed negatives to judge"
    assert tally.precision >= 0.95 and tally.recall >= 0.95, "\n".join(tally.disagreements)


def test_global_memory_corpus_size():
    tally = accuracy()["CL101+CL102"]
    assert tally.true_positive + tally.false_negative + tally.false_positive + tally.true_negative >= 40


CORPUS_ROOT = _MODULE.ROOT / "tests" / "corpus"
SIDECARS = sorted(CORPUS_ROOT.rglob("*.lines.json"))


@pytest.mark.parametrize("sidecar", SIDECARS, ids=[str(p.relative_to(CORPUS_ROOT)) for p in SIDECARS])
def test_sidecar_figures_sit_on_lines_of_code(sidecar):
    """A figure on a blank or comment line was measured on another version of the file: a
    record line written into it after its lines were measured (``--write`` after
    ``--lines``) shifts every line below it, and the per-line verdicts with it."""
    source = sidecar.with_name(sidecar.name.removesuffix(".lines.json"))
    text = source.read_text(encoding="utf-8").splitlines()
    figures = json.loads(sidecar.read_text(encoding="utf-8"))
    misplaced = [
        f"{source.name}:{n}: {text[int(n) - 1].strip()[:60] if int(n) <= len(text) else '(past the end)'}"
        for key in ("lines", "barrier_errors")
        for n in figures.get(key, {})
        if int(n) > len(text) or not text[int(n) - 1].strip() or text[int(n) - 1].lstrip().startswith("//")
    ]
    assert not misplaced, "figures measured on other lines:\n" + "\n".join(misplaced)


def test_every_per_line_disagreement_is_a_marked_limit():
    """Each line where the tool and the measured figures disagree carries the marker that
    says so, ``// expect-miss:`` or ``// known false positive:`` with its reason, and each
    such marker still describes a disagreement: a fix that flips one fails here until its
    marker becomes an ``// expect:`` or goes."""
    problems = _MODULE.marker_disagreements(_MODULE.line_evaluation(), _MODULE.limit_markers())
    assert not problems, "\n".join(problems)

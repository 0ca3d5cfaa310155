"""The memory and divergence rules agree with the hardware counters recorded in the corpus."""

from __future__ import annotations

import functools

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

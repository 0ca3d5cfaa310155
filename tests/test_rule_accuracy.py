"""The memory and divergence rules agree with the hardware counters recorded in the corpus."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _accuracy():
    spec = importlib.util.spec_from_file_location("rule_accuracy", ROOT / "scripts" / "rule_accuracy.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("rule_accuracy", module)
    spec.loader.exec_module(module)
    return module


ACCURACY = _accuracy().evaluate()


@pytest.mark.parametrize("group", sorted(ACCURACY))
def test_precision_and_recall_against_nsight(group):
    tally = ACCURACY[group]
    assert tally.true_positive >= 5, "too few hardware-confirmed positives to judge"
    assert tally.true_negative >= 10, "too few hardware-confirmed negatives to judge"
    assert tally.precision >= 0.95 and tally.recall >= 0.95, "\n".join(tally.disagreements)


def test_global_memory_corpus_size():
    tally = ACCURACY["CL101+CL102"]
    assert tally.true_positive + tally.false_negative + tally.false_positive + tally.true_negative >= 40

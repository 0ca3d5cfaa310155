"""Mutation fuzzing: broken, truncated and spliced CUDA never crashes the analysis."""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CORPUS
from cudalint import engine, frontend
from cudalint.config import Config
from cudalint.rules import implemented

SEEDS = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.rglob("*.cu"))]
PIECES = [
    "threadIdx.x",
    "blockIdx.y",
    "*",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    ";",
    "0.1",
    "<<<",
    ">>>",
    "__syncthreads();",
    "if (",
    "for (;;)",
    "return;",
    "#define X(a) a*",
    "template <int N>",
    "__shared__ float s[32][32];",
    "->",
    ".x",
    "&",
    "?",
    ":",
    "while (1)",
    "#include <missing.h>",
    "\\\n",
    '"',
    "'",
    "/*",
    "//",
    "0x",
    "1e",
]


def mutate(text: str, choices: list[int]) -> str:
    rng = random.Random(choices[0])
    for choice in choices[1:]:
        position = rng.randrange(len(text) + 1)
        operation = choice % 4
        if operation == 0:
            text = text[:position] + rng.choice(PIECES) + text[position:]
        elif operation == 1:
            text = text[:position] + text[position + rng.randrange(1, 40) :]
        elif operation == 2:
            donor = rng.choice(SEEDS)
            start = rng.randrange(len(donor))
            text = text[:position] + donor[start : start + rng.randrange(1, 200)] + text[position:]
        else:
            text = text[:position]
    return text


ENVIRONMENT = frontend.build_environment(frontend.FrontendOptions(header_mode="embedded"))
SETTINGS = engine.default_settings(Config(), list(implemented()), header_mode="embedded")


@settings(
    max_examples=int(os.environ.get("CUDALINT_FUZZ_EXAMPLES", "80")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    seed=st.integers(min_value=0, max_value=len(SEEDS) - 1),
    choices=st.lists(st.integers(min_value=0, max_value=2**31), min_size=2, max_size=8),
)
def test_mutated_sources_never_crash(tmp_path_factory, seed, choices):
    path = tmp_path_factory.mktemp("fuzz") / "case.cu"
    path.write_text(mutate(SEEDS[seed], choices), encoding="utf-8")
    result = engine.analyze_file(str(path), ENVIRONMENT, SETTINGS)
    assert not result.internal_error, [n.message for n in result.notices]

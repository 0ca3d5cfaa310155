#!/usr/bin/env python3
"""How many of cudalint's findings on the real programs used a value of a launch.

    python bench/realcode/launch_share.py --sarif-dir DIR

Reads the SARIF logs that ``score.py --sarif-dir DIR`` wrote and counts, per rule and
level set, the findings whose properties name the launch their verdict used (``launch``,
``launchValues``: a stride, size or bound the host code set), and how many programs
they are in.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

LEVEL_SETS = {"warning+error": ("warning", "error"), "all levels": ("note", "warning", "error")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sarif-dir", type=Path, required=True)
    options = parser.parse_args(argv)
    totals: dict[str, Counter] = {label: Counter() for label in LEVEL_SETS}
    used: dict[str, Counter] = {label: Counter() for label in LEVEL_SETS}
    programs: set[str] = set()
    for log in sorted(options.sarif_dir.glob("*.sarif")):
        for run in json.loads(log.read_text()).get("runs", []):
            for result in run.get("results", []):
                rule, level = result.get("ruleId", ""), result.get("level", "warning")
                launched = "launch" in result.get("properties", {})
                if launched:
                    programs.add(log.stem)
                for label, levels in LEVEL_SETS.items():
                    if level in levels:
                        totals[label][rule] += 1
                        used[label][rule] += launched
    for label in LEVEL_SETS:
        total, with_launch = sum(totals[label].values()), sum(used[label].values())
        share = f"{with_launch / total:.1%}" if total else "-"
        rules = ", ".join(f"{rule} {used[label][rule]}/{totals[label][rule]}" for rule in sorted(totals[label]))
        print(f"{label}: {with_launch} of {total} findings used a launch value ({share}); {rules}")
    print(f"programs with such findings: {len(programs)} ({', '.join(sorted(programs))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

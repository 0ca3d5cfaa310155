"""``cudalint facts``: the per-access and per-branch facts behind the findings."""

from __future__ import annotations

import json

from cudalint.dataflow import (
    SAMPLE_BLOCK,
    Access,
    AccessPattern,
    Branch,
    BranchPattern,
    Cost,
    DataPattern,
    Facts,
    KernelFacts,
    LaunchOccupancy,
    LaunchRecord,
    MemorySpace,
)
from cudalint.figures import depends_on_block_index
from cudalint.ir import FunctionKind
from cudalint.report import display_path


def _location(span, root: str) -> str:
    return f"{display_path(span.file, root)}:{span.line}:{span.column}"


def access_record(access: Access, pattern: AccessPattern, root: str, kernel: KernelFacts | None = None) -> dict:
    record = {
        "location": _location(access.span, root),
        "space": access.space.value,
        "kind": access.kind.value,
        "base": access.location.base,
        "bytes": access.size,
        "address": f"{access.location.base} + {access.location.offset}",
        "lane_stride_bytes": None if pattern.lane_stride is None else str(pattern.lane_stride),
        "confidence": pattern.confidence.value,
        "active_lanes": pattern.active_lanes,
        "inlined_from": list(access.inlined_from),
    }
    if access.space is MemorySpace.SHARED:
        record["wavefronts_per_request"] = None if pattern.wavefronts is None else round(pattern.wavefronts, 2)
        record["conflict_degree"] = pattern.conflict_degree
    else:
        record["sectors_per_request"] = pattern.sectors
        record["ideal_sectors"] = pattern.ideal_sectors
        record["best_sectors"] = pattern.best_sectors
    if pattern.depends_on:
        record["depends_on"] = list(pattern.depends_on)
    if pattern.data_pattern is not None:
        record["data"] = _data_pattern(pattern)
    used = kernel.launch_values(access.location.offset) if kernel is not None else {}
    if used:
        record["launch_values"] = used
    why = kernel.why(access.location.offset) if kernel is not None else []
    if why:
        record["why"] = why
    return record


def _data_pattern(pattern: AccessPattern) -> str:
    if pattern.data_pattern is DataPattern.LANE_RANGES and pattern.data_loop is not None:
        return (
            f"per-lane ranges: the loop at line {pattern.data_loop.stmt.span.line} walks a range from a start "
            "each lane loaded (a per-lane data-dependent start)"
        )
    return "gather: an index each lane loaded"


def branch_record(branch: Branch, pattern: BranchPattern, root: str, kernel: KernelFacts | None = None) -> dict:
    record = {
        "location": _location(branch.stmt.span, root),
        "kind": branch.kind,
        "condition": _unparenthesized(str(branch.condition)),
        "variance": pattern.variance.name.lower().replace("_", "-"),
        "taken_lanes": pattern.taken_lanes,
        "active_lanes": pattern.active_lanes,
        "bounds_guard": pattern.bounds_guard,
    }
    used = kernel.launch_values(branch.condition) if kernel is not None else {}
    if used:
        record["launch_values"] = used
    if pattern.taken_lanes is not None and depends_on_block_index(branch):
        record["sampled_block"] = list(kernel.shape.sampled_block if kernel is not None else SAMPLE_BLOCK)
    why = kernel.why(branch.condition, pattern.variance) if kernel is not None else []
    if why:
        record["why"] = why
    record["cost"] = _cost_record(pattern)
    return record


def _cost_record(pattern: BranchPattern) -> dict:
    """What the split costs in lane slots, as CL301 estimates it (divergence.py)."""
    cost = {
        "verdict": pattern.cost.value,
        # A split that depends on data or a run-time size has no share of its own, only
        # what it would cost if half the lanes split (a cheap idiom's included: a bounds
        # guard against a sampled size).
        "idle_share": None
        if pattern.idle_share is None or pattern.cost is Cost.POSSIBLE or pattern.sampled
        else round(pattern.idle_share, 6),
        "potential_share": round(pattern.potential_share, 6),
        "guarded_instructions": round(pattern.guarded_work, 1),
    }
    if pattern.trips is not None:
        cost["trips"] = {
            "issued_per_warp": round(pattern.trips.trips, 2),
            "idle_lane_trips_per_warp": round(pattern.trips.idle_lane_trips, 2),
            "fewest": pattern.trips.fewest,
            "most": pattern.trips.most,
        }
    return cost


def block_text(block) -> str:
    return f"block ({', '.join(map(str, block))})"


def _barrier_record(kernel: KernelFacts, barrier, root: str) -> dict:
    variance, decision = kernel.control_variance(barrier.stmt)
    return {
        "location": _location(barrier.expr.span, root),
        "name": barrier.name,
        "scope": barrier.scope.value,
        "control": variance.name.lower().replace("_", "-"),
        "controlled_by": _location(decision.span, root) if decision is not None else None,
    }


def _launch(record: LaunchRecord, root: str, kernel: KernelFacts) -> dict:
    parameters = [p.name for p in kernel.function.params]
    return {
        "location": f"{display_path(record.file, root)}:{record.line}",
        "api": record.api,
        "grid": list(record.grid) if record.grid is not None else None,
        "block": list(record.block) if record.block is not None else None,
        "dynamic_shared_bytes": record.shared_bytes,
        "arguments": {
            parameters[index] if index < len(parameters) else str(index): value
            for index, value in enumerate(record.arguments)
            if value is not None
        },
        "summary": record.describe(parameters),
    }


def kernel_record(kernel: KernelFacts, root: str, launches: list[LaunchRecord] | None = None) -> dict:
    """One analysis of a kernel; ``launches``: every launch of the kernel the run found."""
    record = {
        "function": kernel.function.display_name,
        "kind": kernel.function.kind.value,
        "location": _location(kernel.function.span, root),
        "block": {"x": kernel.shape.x, "y": kernel.shape.y, "z": kernel.shape.z, "source": kernel.shape.source},
        "launches": [_launch(r, root, kernel) for r in launches or ()],
        "analyzed_for": None if kernel.launch is None else _launch(kernel.launch, root, kernel),
        "bindings": dict(kernel.bindings),
        "accesses": [access_record(a, p, root, kernel) for a, p in kernel.accesses],
        "branches": [branch_record(b, p, root, kernel) for b, p in kernel.branches],
        "barriers": [_barrier_record(kernel, b, root) for b in kernel.barriers],
    }
    if kernel.cut is not None:
        record["analysis_stopped"] = {"line": kernel.cut.line, "budget_steps": kernel.cut.budget}
    return record


def _source(facts: Facts, line: int) -> str:
    lines = facts.tu.source_lines
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def _cost(record: dict) -> str:
    if "wavefronts_per_request" in record:
        if record["wavefronts_per_request"] is None:
            return "wavefronts ?"
        return f"{record['wavefronts_per_request']} wavefronts/request ({record['conflict_degree']}-way)"
    if record["sectors_per_request"] is None:
        return "sectors ?"
    text = f"{record['sectors_per_request']} sectors/request (ideal {record['ideal_sectors']})"
    if record["best_sectors"] != record["sectors_per_request"]:
        text += f", {record['best_sectors']} at best"
    return text


def access_heading(record: dict) -> str:
    """One access's space, kind, size and address formula, from its ``access_record``."""
    size = f"{record['bytes']}B" if record["bytes"] is not None else "?B"
    return f"{record['space']} {record['kind']} {size}  {record['address']}"


def access_details(record: dict) -> list[str]:
    """The lines under an access's heading: lane stride, cost per request, lanes and
    confidence, the data pattern, then why."""
    lanes = "single lane" if record["active_lanes"] == 1 else f"{record['active_lanes']} lanes"
    stride = record["lane_stride_bytes"]
    lines = [
        f"lane stride {stride if stride is not None else '?'} B, {_cost(record)}, {lanes}, {record['confidence']}"
        + (f" (depends on {', '.join(record['depends_on'])})" if record.get("depends_on") else "")
    ]
    if record.get("data"):
        lines.append(f"data: {record['data']}")
    lines.extend(f"why: {reason}" for reason in record.get("why", ()))
    return lines


def _unparenthesized(text: str) -> str:
    """``text`` without the parentheses around all of it: the heading writes ``if (...)``."""
    if not (text.startswith("(") and text.endswith(")")):
        return text
    depth = 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and index < len(text) - 1:
            return text  # ``(a) + (b)``: the first parenthesis closes before the end.
    return text[1:-1]


def branch_heading(record: dict) -> str:
    """One branch's kind, condition and uniformity, from its ``branch_record``."""
    taken = "" if record["taken_lanes"] is None else f", {record['taken_lanes']}/{record['active_lanes']} lanes taken"
    if "sampled_block" in record:
        taken += f" in {block_text(record['sampled_block'])}"
    guard = ", bounds guard" if record["bounds_guard"] else ""
    return f"{record['kind']} ({record['condition']}): {record['variance']}{taken}{guard}"


def branch_details(record: dict) -> list[str]:
    """Why a branch is as uniform as its heading says, and what its split costs."""
    lines = [f"why: {reason}" for reason in record.get("why", ())]
    cost = record.get("cost")
    if cost is not None and cost["verdict"] != "none":
        share = cost["idle_share"]
        idle = (
            f"idles {share:.2%} of the lane slots its function issues"
            if share is not None
            else f"idles up to {cost['potential_share']:.2%} of the lane slots if half the lanes split"
        )
        trips = cost.get("trips")
        counted = f"; lanes run {trips['fewest']} to {trips['most']} trips" if trips else ""
        guarded = f"{cost['guarded_instructions']:g} instructions guarded"
        lines.append(f"cost: {idle} ({cost['verdict']}; {guarded}{counted})")
    return lines


def _occupancy_rows(facts: Facts, kernels: list[KernelFacts]) -> dict[int, list[LaunchOccupancy]]:
    """The occupancy table of each kernel, given with its first configuration only (it
    covers every launch)."""
    shown: set[str] = set()
    rows = {}
    for kernel in kernels:
        if kernel.function.kind is FunctionKind.KERNEL and kernel.function.decl not in shown:
            shown.add(kernel.function.decl)
            rows[id(kernel)] = facts.occupancies(kernel)
    return rows


def render_facts_text(facts: Facts, kernels: list[KernelFacts], root: str) -> str:
    out: list[str] = []
    occupancies = _occupancy_rows(facts, kernels)
    for kernel in kernels:
        record = kernel_record(kernel, root, facts.launches_of(kernel.function))
        out.append(f"{record['kind']} {record['function']}  [{record['location']}]  {kernel.shape.describe()}")
        out.extend(f"  launch {launch['summary']}" for launch in record["launches"])
        out.extend(
            f"  occupancy on sm_{kernel.build.arch} at {row.where}: {row.describe()}"
            for row in occupancies.get(id(kernel), ())
        )
        if record["analyzed_for"] is not None:
            out.append(f"  analyzed for the launch at {record['analyzed_for']['summary']}")
        for access, (item, _) in zip(record["accesses"], kernel.accesses, strict=True):
            out.append(f"  {access['location']}  {access_heading(access)}")
            out.extend(f"      {line}" for line in access_details(access))
            if access.get("launch_values"):
                out.append(f"      launch values: {_values(access['launch_values'])}")
            out.append(f"      | {_source(facts, item.span.line)}")
        for branch, (item, _) in zip(record["branches"], kernel.branches, strict=True):
            out.append(f"  {branch['location']}  {branch_heading(branch)}")
            out.extend(f"      {line}" for line in branch_details(branch))
            if branch.get("launch_values"):
                out.append(f"      launch values: {_values(branch['launch_values'])}")
            out.append(f"      | {_source(facts, item.stmt.span.line)}")
        for barrier in record["barriers"]:
            control = (
                f", under {barrier['control']} control ({barrier['controlled_by']})" if barrier["controlled_by"] else ""
            )
            out.append(f"  {barrier['location']}  barrier {barrier['name']} ({barrier['scope']}){control}")
        if kernel.cut is not None:
            out.append(
                f"  analysis stopped at line {kernel.cut.line} after {kernel.cut.budget} steps: accesses, "
                "branches and barriers from there on are missing"
            )
        out.append("")
    return "\n".join(out)


def _values(used: dict[str, int]) -> str:
    return ", ".join(f"{name} = {value}" for name, value in used.items())


def render_facts_json(facts: Facts, kernels: list[KernelFacts], root: str) -> str:
    occupancies = _occupancy_rows(facts, kernels)
    records = []
    for kernel in kernels:
        record = kernel_record(kernel, root, facts.launches_of(kernel.function))
        if id(kernel) in occupancies:
            record["occupancy"] = {
                "arch": f"sm_{kernel.build.arch}",
                "launches": [row.record() for row in occupancies[id(kernel)]],
            }
        records.append(record)
    return json.dumps({"kernels": records}, indent=2) + "\n"

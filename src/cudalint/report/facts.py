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
    Variance,
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
        if pattern.sunk_with:
            record["merged_with_stores_at"] = list(pattern.sunk_with)
        if pattern.block is not None:
            record["block_warps"] = {
                "warps": pattern.block.warps,
                "sectors": pattern.block.sectors,
                "ideal_sectors": pattern.block.ideal_sectors,
            }
    if pattern.depends_on:
        record["depends_on"] = list(pattern.depends_on)
    if pattern.data_pattern is not None:
        record["data"] = _data_pattern(pattern)
    if kernel is not None:
        record["address_variance"] = _variance(kernel.lane_variance(access.location.offset))
        record["loops"] = _loop_records(kernel, access.loops, root)
        record["guards"] = _guard_records(kernel, access.guards, root)
        # The values CL101, CL102 and CL201 take from the launch: those of the address.
        record.update(_launch_used(kernel, access.location.offset))
    why = kernel.why(access.location.offset) if kernel is not None else []
    if why:
        record["why"] = why
    return record


def _variance(variance: Variance) -> str:
    return variance.name.lower().replace("_", "-")


def _loop_records(kernel: KernelFacts, loops, root: str) -> list[dict]:
    """The loops around an access or branch, outermost first, as the rules read them: the
    trip count where the source or the launch decides it (or the range the lanes run,
    counted lane by lane: trips.py), the trips a warp issues as the divergence cost model
    weighs the loop (an assumed count where the bound is known only at run time), and
    whether nvcc unrolls it (the unrolling model the register rules read)."""
    runs = {id(run.stmt): (atom, run) for atom, run in kernel.loops.items()}
    records = []
    for stmt in loops:
        atom, run = runs.get(id(stmt), (None, None))
        profile = kernel.trip_profiles.get(id(stmt))
        trips, source = None, None
        if run is not None and run.trips is not None:
            trips, source = run.trips, "launch" if atom in kernel.launch_trips else "source"
        elif profile is not None and profile.fewest == profile.most:
            trips, source = profile.most, "lanes"
        elif run is not None and kernel.unroll_model.trip_count(run) is not None:
            trips, source = kernel.unroll_model.trip_count(run), "source"
        record = {
            "location": _location(stmt.span, root),
            "kind": stmt.kind.value,
            "counter": None if atom is None else str(atom),
            "trips": trips,
            "trips_from": source,
            "issued_per_warp": round(kernel.workload.trips_of(stmt), 2),
            "unrolled": None if run is None else kernel.unroll_model.verdict(run).value,
        }
        if profile is not None and profile.lane_varying:
            record["lane_trips"] = {"fewest": profile.fewest, "most": profile.most}
        if run is not None and run.geometric:
            record["geometric"] = True
        if run is not None and run.lane_starts:
            record["lane_starts"] = sorted(str(start) for start in run.lane_starts)
        records.append(record)
    return records


def _guard_records(kernel: KernelFacts, guards, root: str) -> list[dict]:
    """The conditions an access or branch runs under, outermost first, each with the if or
    loop it belongs to and its variance: that branch's (checked lane by lane, and by the
    loop's trips where its lanes leave at different trips), else the condition's own."""
    decided = {id(branch.stmt): pattern.variance for branch, pattern in kernel.branches}
    return [
        {
            "condition": _unparenthesized(str(guard.condition)),
            "holds": guard.holds,
            "variance": _variance(decided.get(id(guard.decision), kernel.lane_variance(guard.condition))),
            "decision": None if guard.decision is None else _location(guard.decision.span, root),
            "after_exit": guard.after_exit,
        }
        for guard in guards
    ]


def _launch_used(kernel: KernelFacts, *values) -> dict:
    """The launch values a verdict on ``values`` used, and where that launch is written."""
    used = kernel.launch_values(*values)
    if not used:
        return {}
    where = None if kernel.launch is None else kernel.launch.where
    return {"launch_values": used, "launch": where}


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
    if kernel is not None:
        record["loops"] = _loop_records(kernel, branch.loops, root)
        record["guards"] = _guard_records(kernel, branch.guards, root)
        # The values CL301 takes from the launch: the condition's and the trip counts the
        # launch decides (they weigh the kernel's work, and so the split's share).
        record.update(_launch_used(kernel, branch.condition, *kernel.launch_trip_conditions))
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
        "splits": pattern.splits,
        "idiom": None if pattern.idiom is None else pattern.idiom.value,
        "block_uniform": pattern.block_uniform,
        "size_dependent": pattern.size_dependent,
        "leaves": pattern.leaves,
    }
    if pattern.trips is not None:
        cost["trips"] = {
            "issued_per_warp": round(pattern.trips.trips, 2),
            "idle_lane_trips_per_warp": round(pattern.trips.idle_lane_trips, 2),
            "fewest": pattern.trips.fewest,
            "most": pattern.trips.most,
            "shortest_warp": pattern.trips.shortest_warp,
            "divergent_share": round(pattern.trips.divergent_share, 6),
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
    if record.get("merged_with_stores_at"):
        lines.append(f"merged with the stores at lines {', '.join(map(str, record['merged_with_stores_at']))}")
    if record.get("block_warps"):
        block = record["block_warps"]
        lines.append(f"block: {block['sectors']} sectors (ideal {block['ideal_sectors']}) over {block['warps']} warps")
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
    model = model_details(cost) if cost is not None and cost["verdict"] != "none" else ""
    if model:
        lines.append(f"model: {model}")
    return lines


def model_details(cost: dict) -> str:
    """What the divergence cost model decided of a branch beyond its share: the idiom it
    recognized, and why it weighs the split as it does (divergence.py, trips.py)."""
    parts = []
    if cost.get("idiom"):
        parts.append(f"idiom: {cost['idiom']}")
    if cost.get("leaves"):
        parts.append("the lanes that take it leave")
    if cost.get("size_dependent"):
        parts.append("the split depends on a value known only at run time")
    if cost.get("block_uniform"):
        parts.append("every thread of the block decides alike at the values sampled")
    trips = cost.get("trips")
    if trips:
        parts.append(
            f"warps issue {trips['issued_per_warp']:g} trips, leave {trips['idle_lane_trips_per_warp']:g} lane-trips "
            f"idle; {trips['divergent_share']:.1%} of its condition's evaluations split"
        )
        if trips["shortest_warp"] < trips["most"]:
            parts.append(f"the shortest warp stops after {trips['shortest_warp']} trips")
    return "; ".join(parts)


def context_lines(record: dict) -> list[str]:
    """What an access or branch runs inside, from its ``access_record`` or
    ``branch_record``: how its address varies, its loops and their trips, the conditions
    it is under, and the launch values its verdict took."""
    lines = []
    if "address_variance" in record:
        lines.append(f"address: {record['address_variance']}, checked lane by lane")
    if record.get("loops"):
        lines.append("in " + "; ".join(_loop_text(loop) for loop in record["loops"]))
    if record.get("guards"):
        lines.append("under " + "; ".join(_guard_text(guard) for guard in record["guards"]))
    if record.get("launch_values"):
        where = f" of the launch at {record['launch']}" if record.get("launch") else ""
        lines.append(f"launch values{where}: {_values(record['launch_values'])}")
    return lines


def _line(location: str) -> str:
    return location.rsplit(":", 2)[1]


def _loop_text(loop: dict) -> str:
    counter = f" ({loop['counter']})" if loop["counter"] else ""
    issued = loop["issued_per_warp"]
    if "lane_trips" in loop:
        trips = f"lanes run {loop['lane_trips']['fewest']} to {loop['lane_trips']['most']} trips, warps {issued:g}"
    elif loop["trips"] is not None:
        trips = f"{loop['trips']} trips" + (" (the launch's)" if loop["trips_from"] == "launch" else "")
    else:
        trips = f"trips known at run time only (the cost model assumes {issued:g})"
    unrolled = loop["unrolled"]
    unrolled = "" if unrolled is None else ", unrolled" if unrolled == "unrolled" else f", kept rolled: {unrolled}"
    geometric = ", a variable scaled every trip" if loop.get("geometric") else ""
    starts = f", each lane from its own start ({', '.join(loop['lane_starts'])})" if loop.get("lane_starts") else ""
    return f"{loop['kind']} at line {_line(loop['location'])}{counter}: {trips}{unrolled}{geometric}{starts}"


def _guard_text(guard: dict) -> str:
    condition = guard["condition"] if guard["holds"] else f"!({guard['condition']})"
    where = f", line {_line(guard['decision'])}" if guard["decision"] else ""
    gone = ", the threads that took it exited" if guard["after_exit"] else ""
    return f"{condition} ({guard['variance']}{where}{gone})"


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
            out.extend(f"      {line}" for line in context_lines(access))
            out.append(f"      | {_source(facts, item.span.line)}")
        for branch, (item, _) in zip(record["branches"], kernel.branches, strict=True):
            out.append(f"  {branch['location']}  {branch_heading(branch)}")
            out.extend(f"      {line}" for line in branch_details(branch))
            out.extend(f"      {line}" for line in context_lines(branch))
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

"""Theoretical occupancy: how many warps of a kernel one SM holds at once, what limits
them, and how far the limit is from the next step.

The computation is the one of the CUDA Occupancy Calculator, as NVIDIA ships it in the
toolkit's ``cuda_occupancy.h`` (``cudaOccMaxActiveBlocksPerMultiprocessor``, the header
behind ``cudaOccupancyMaxActiveBlocksPerMultiprocessor`` and Nsight Compute's launch
statistics). Blocks per SM are the least of five limits:

* **warps**: the SM's resident warps over the block's warps (``ceil(threads / 32)``);
* **blocks**: the SM's resident blocks;
* **registers**: registers are given to a warp in units of 256 (``ceil(registers * 32 /
  256) * 256``, with at least 16 registers a thread), out of each of the 4 sub-partitions'
  quarter of the register file, so the
  SM holds ``4 * floor(16384 / per_warp)`` warps, in whole blocks; a block whose warps,
  rounded up to a multiple of 4, would need more than the 64 Ki registers a block may have
  cannot launch;
* **shared memory**: each block takes its static and dynamic bytes plus the 1 KiB the
  driver reserves per block from sm_80 on, rounded up to the allocation unit (128 bytes
  from sm_80, 256 before), out of the SM's shared memory at the largest carve-out (the
  default preference; the driver may configure less when fewer bytes serve as many
  blocks, which changes no occupancy); a block above 48 KiB needs the opt-in attribute;
* **barriers** (sm_90 on): two named barriers per resident block slot, shared by the
  blocks: a kernel using more than two per block fits fewer blocks.

The per-architecture figures are the CUDA Programming Guide's (5.1 Compute Capabilities,
Table 31 "Technical Specifications per Compute Capability") and ``cuda_occupancy.h``'s
(allocation units, carve-out sizes, reserved bytes). Checked against Nsight Compute on an
H200 (``tests/gpu/occupancy_ncu.csv``, ``tests/test_occupancy.py``).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from cudalint import ir

WARP_SIZE = 32
REGISTER_ALLOCATION_UNIT = 256
"""Registers are given to a warp in blocks of 256: 8 per thread."""
SUB_PARTITIONS = 4
KIB = 1024
MIN_REGISTERS = 16
"""Registers a thread is given at least: Nsight Compute reports 16 for kernels ptxas
compiled to 10 and 12 (H200, tests/gpu/occupancy_ncu.csv)."""


@dataclass(frozen=True)
class SmLimits:
    """What one SM of an architecture offers (CUDA Programming Guide, Table 31)."""

    arch: int
    max_warps: int
    max_blocks: int
    shared_per_sm: int
    """Bytes at the largest carve-out."""
    shared_per_block_optin: int
    """The most one block may have once it opts in (``cudaFuncAttributeMaxDynamicSharedMemorySize``)."""
    registers_per_sm: int = 64 * KIB
    registers_per_block: int = 64 * KIB
    max_registers_per_thread: int = 255
    max_threads_per_block: int = 1024
    shared_per_block: int = 48 * KIB
    """The most one block may have without opting in."""

    @property
    def reserved_shared_per_block(self) -> int:
        """Bytes the driver keeps in every block's shared memory (sm_80 on)."""
        return KIB if self.arch >= 80 else 0

    @property
    def shared_allocation_unit(self) -> int:
        return 128 if self.arch >= 80 else 256

    @property
    def barriers_per_block_slot(self) -> int:
        """Named barriers the SM has per resident block (16 per block, 2 per block slot on
        sm_90 and the datacenter Blackwells; ``cuda_occupancy.h``)."""
        return 2 if self.arch in (90, 100, 103, 110) else 1


# The datacenter and consumer variants of each generation, by compute capability.
_SM_LIMITS = {
    70: SmLimits(70, 64, 32, 96 * KIB, 96 * KIB),
    75: SmLimits(75, 32, 16, 64 * KIB, 64 * KIB),
    80: SmLimits(80, 64, 32, 164 * KIB, 163 * KIB),
    86: SmLimits(86, 48, 16, 100 * KIB, 99 * KIB),
    87: SmLimits(87, 48, 16, 164 * KIB, 163 * KIB),
    89: SmLimits(89, 48, 24, 100 * KIB, 99 * KIB),
    90: SmLimits(90, 64, 32, 228 * KIB, 227 * KIB),
    100: SmLimits(100, 64, 32, 228 * KIB, 227 * KIB),
    101: SmLimits(101, 48, 24, 228 * KIB, 227 * KIB),
    103: SmLimits(103, 64, 32, 228 * KIB, 227 * KIB),
    110: SmLimits(110, 48, 24, 228 * KIB, 227 * KIB),
    120: SmLimits(120, 48, 24, 100 * KIB, 99 * KIB),
}


def sm_limits(arch: int) -> SmLimits:
    """The limits of ``sm_<arch>``; an unlisted one takes the closest older entry."""
    known = [a for a in _SM_LIMITS if a <= arch]
    return _SM_LIMITS[max(known)] if known else _SM_LIMITS[min(_SM_LIMITS)]


class Limiter(enum.Enum):
    WARPS = "warps per SM"
    BLOCKS = "blocks per SM"
    REGISTERS = "registers"
    SHARED_MEMORY = "shared memory"
    BARRIERS = "barriers"


@dataclass(frozen=True)
class Occupancy:
    """The theoretical occupancy of one launch configuration."""

    arch: int
    block_threads: int
    registers: int
    shared_bytes: int
    """Static and dynamic shared memory of one block, without the driver's reserve."""
    blocks: int
    """Resident blocks per SM (0: the block cannot launch)."""
    max_warps: int
    limits: tuple[tuple[Limiter, int], ...]
    """Blocks per SM each resource allows, in the order of ``Limiter``."""
    shared_allocated: int
    """Bytes one block takes from the SM's shared memory, reserve and rounding included."""

    @property
    def block_warps(self) -> int:
        return math.ceil(self.block_threads / WARP_SIZE)

    @property
    def warps(self) -> int:
        return self.blocks * self.block_warps

    @property
    def fraction(self) -> float:
        return self.warps / self.max_warps

    @property
    def percent(self) -> float:
        return round(100 * self.fraction, 1)

    @property
    def limiters(self) -> tuple[Limiter, ...]:
        """The resources that allow no more blocks than the SM holds."""
        return tuple(limiter for limiter, blocks in self.limits if blocks == self.blocks)

    def allowed_by(self, limiter: Limiter) -> int:
        return dict(self.limits).get(limiter, self.blocks)

    @property
    def limited_by_registers(self) -> bool:
        return Limiter.REGISTERS in self.limiters and self.warps < self.max_warps


def theoretical_occupancy(
    arch: int, block_threads: int, registers: int, shared_bytes: int = 0, barriers: int = 1
) -> Occupancy:
    """Resident blocks and warps per SM for blocks of ``block_threads`` threads using
    ``registers`` per thread, ``shared_bytes`` of shared memory (static and dynamic) and
    ``barriers`` named barriers (``cudaOccMaxActiveBlocksPerMultiprocessor``, with the
    default carve-out preference and no partitioned global caching)."""
    sm = sm_limits(arch)
    block_warps = math.ceil(block_threads / WARP_SIZE)
    by_warps = sm.max_warps // block_warps if block_threads <= sm.max_threads_per_block else 0

    per_warp = _round_up(max(registers, MIN_REGISTERS) * WARP_SIZE, REGISTER_ALLOCATION_UNIT)
    hardware_check = per_warp * _round_up(block_warps, SUB_PARTITIONS)
    if registers > sm.max_registers_per_thread or max(hardware_check, per_warp * block_warps) > sm.registers_per_block:
        by_registers = 0
    else:
        warps_per_partition = sm.registers_per_sm // SUB_PARTITIONS // per_warp
        by_registers = warps_per_partition * SUB_PARTITIONS // block_warps

    allocated = _round_up(shared_bytes + sm.reserved_shared_per_block, sm.shared_allocation_unit)
    per_block_limit = (sm.shared_per_block_optin if shared_bytes > sm.shared_per_block else sm.shared_per_block) + (
        sm.reserved_shared_per_block
    )
    if allocated > per_block_limit:
        by_shared = 0
    elif allocated == 0:
        by_shared = sm.max_blocks
    else:
        by_shared = sm.shared_per_sm // allocated

    limits = (
        (Limiter.WARPS, by_warps),
        (Limiter.BLOCKS, sm.max_blocks),
        (Limiter.REGISTERS, by_registers),
        (Limiter.SHARED_MEMORY, by_shared),
    )
    if arch >= 90 and barriers > 0 and sm.max_blocks * sm.barriers_per_block_slot // barriers < sm.max_blocks:
        # Only a kernel with several named barriers per block is held back by them.
        limits += ((Limiter.BARRIERS, sm.max_blocks * sm.barriers_per_block_slot // barriers),)
    blocks = min(blocks for _, blocks in limits)
    return Occupancy(arch, block_threads, registers, shared_bytes, blocks, sm.max_warps, limits, allocated)


def _round_up(value: int, unit: int) -> int:
    return -(-value // unit) * unit


@dataclass(frozen=True)
class Step:
    """The smallest change of one resource that lets the SM hold one more block."""

    limiter: Limiter
    now: int
    target: int
    """Registers per thread, or shared bytes per block, at which the next block fits."""
    occupancy: Occupancy
    """The occupancy at ``target``, all else equal."""

    @property
    def saving(self) -> int:
        return self.now - self.target


def next_step(occupancy: Occupancy) -> Step | None:
    """How many registers or shared bytes fewer raise the occupancy, when registers or
    shared memory limit it and one of them alone can: the largest count at which the SM
    holds another block (and with it, the others' limits permitting, more warps)."""
    if occupancy.blocks == 0 or occupancy.warps >= occupancy.max_warps:
        return None
    sm = sm_limits(occupancy.arch)
    wanted = occupancy.blocks + 1
    if any(blocks < wanted for limiter, blocks in occupancy.limits if limiter not in _RESOURCES):
        return None
    steps = []
    if occupancy.allowed_by(Limiter.REGISTERS) < wanted and (
        Limiter.SHARED_MEMORY not in occupancy.limiters or occupancy.allowed_by(Limiter.SHARED_MEMORY) >= wanted
    ):
        partition_warps = math.ceil(wanted * occupancy.block_warps / SUB_PARTITIONS)
        per_warp = sm.registers_per_sm // SUB_PARTITIONS // partition_warps
        target = per_warp // REGISTER_ALLOCATION_UNIT * (REGISTER_ALLOCATION_UNIT // WARP_SIZE)
        if target > 0:
            steps.append((Limiter.REGISTERS, occupancy.registers, target, {"registers": target}))
    if occupancy.allowed_by(Limiter.SHARED_MEMORY) < wanted and occupancy.allowed_by(Limiter.REGISTERS) >= wanted:
        unit = sm.shared_allocation_unit
        target = sm.shared_per_sm // wanted // unit * unit - sm.reserved_shared_per_block
        if target >= 0:
            steps.append((Limiter.SHARED_MEMORY, occupancy.shared_bytes, target, {"shared_bytes": target}))
    if len(steps) != 1:
        return None
    limiter, now, target, change = steps[0]
    arguments = {"registers": occupancy.registers, "shared_bytes": occupancy.shared_bytes, **change}
    raised = theoretical_occupancy(occupancy.arch, occupancy.block_threads, **arguments)
    return Step(limiter, now, target, raised) if raised.warps > occupancy.warps else None


_RESOURCES = (Limiter.REGISTERS, Limiter.SHARED_MEMORY)


def register_headroom(occupancy: Occupancy) -> int | None:
    """The most registers per thread at which the occupancy stays as it is (the cliff one
    register above it); None when registers are not what bounds it from below."""
    if occupancy.blocks == 0:
        return None
    sm = sm_limits(occupancy.arch)
    partition_warps = math.ceil(occupancy.blocks * occupancy.block_warps / SUB_PARTITIONS)
    per_warp = sm.registers_per_sm // SUB_PARTITIONS // partition_warps
    most = min(
        per_warp // REGISTER_ALLOCATION_UNIT * (REGISTER_ALLOCATION_UNIT // WARP_SIZE), sm.max_registers_per_thread
    )
    return most if most >= occupancy.registers else None


@dataclass(frozen=True)
class LaunchOccupancy:
    """The occupancy of one way a kernel is launched, with where each input comes from."""

    where: str
    """The launch (``line 40``, ``main.cu:40``), or what stands for one (``__launch_bounds__(256)``)."""
    span: ir.Span
    """The launch's first line, or the kernel's header where no launch stands for it."""
    block_threads: int
    registers: int
    registers_exact: bool
    """ptxas's count (``--ptxas``); otherwise the source-level estimate within the kernel's budget."""
    static_shared: int
    dynamic_shared: int | None
    """None: the kernel sizes a dynamic shared array and the launch's bytes are not known (taken as 0)."""
    occupancy: Occupancy
    step: Step | None
    headroom: int | None

    @property
    def exact(self) -> bool:
        """Every input is what the hardware gets: ptxas's registers and known shared bytes."""
        return self.registers_exact and self.dynamic_shared is not None

    def record(self) -> dict[str, object]:
        """The row as ``cudalint facts --format json`` and finding properties give it."""
        occupancy = self.occupancy
        record: dict[str, object] = {
            "where": self.where,
            "blockThreads": self.block_threads,
            "registers": self.registers,
            "registersFrom": "ptxas" if self.registers_exact else "estimate",
            "staticSharedBytes": self.static_shared,
            "dynamicSharedBytes": self.dynamic_shared,
            "blocksPerSM": occupancy.blocks,
            "warpsPerSM": occupancy.warps,
            "maxWarpsPerSM": occupancy.max_warps,
            "occupancyPercent": occupancy.percent,
            "limiters": [limiter.value for limiter in occupancy.limiters],
            "blocksAllowed": {limiter.value: blocks for limiter, blocks in occupancy.limits},
        }
        if self.step is not None:
            record["nextStep"] = {
                "resource": self.step.limiter.value,
                "now": self.step.now,
                "target": self.step.target,
                "warpsPerSM": self.step.occupancy.warps,
                "occupancyPercent": self.step.occupancy.percent,
            }
        if self.headroom is not None:
            record["registerHeadroom"] = self.headroom
        return record

    def describe(self) -> str:
        """``block 256, 72 registers (ptxas), 4096 + 0 B shared: 3 blocks, 24/64 warps
        (37.5%), limited by registers; 64 registers would give 32 warps (50.0%)``."""
        occupancy = self.occupancy
        dynamic = "?" if self.dynamic_shared is None else str(self.dynamic_shared)
        source = "ptxas" if self.registers_exact else "estimated"
        text = (
            f"block {self.block_threads}, {self.registers} registers ({source}), "
            f"{self.static_shared} + {dynamic} B shared: {occupancy.blocks} blocks, "
            f"{occupancy.warps}/{occupancy.max_warps} warps ({occupancy.percent:g}%), "
            f"limited by {' and '.join(limiter.value for limiter in occupancy.limiters) or 'nothing'}"
        )
        if self.step is not None:
            unit = "registers" if self.step.limiter is Limiter.REGISTERS else "B of shared memory per block"
            text += (
                f"; {self.step.target} {unit} would give {self.step.occupancy.warps} warps "
                f"({self.step.occupancy.percent:g}%)"
            )
        if self.headroom is not None and self.headroom > self.registers:
            text += f"; up to {self.headroom} registers keep it"
        return text


def launch_occupancy(
    where: str,
    span: ir.Span,
    arch: int,
    block_threads: int,
    registers: int,
    registers_exact: bool,
    static_shared: int,
    dynamic_shared: int | None,
    barriers: int = 1,
) -> LaunchOccupancy:
    occupancy = theoretical_occupancy(arch, block_threads, registers, static_shared + (dynamic_shared or 0), barriers)
    return LaunchOccupancy(
        where,
        span,
        block_threads,
        registers,
        registers_exact,
        static_shared,
        dynamic_shared,
        occupancy,
        next_step(occupancy),
        register_headroom(occupancy),
    )


def source_shared_bytes(functions: list[ir.Function], file_scope: list[ir.VarDecl]) -> tuple[int, bool]:
    """Static shared bytes of a kernel read from the source (without ptxas): the
    ``__shared__`` variables ``functions`` (the kernel and the device functions it calls)
    declare, and the file-scope ones they name, each at its alignment; and whether any
    declares a dynamic (``extern``) array."""
    names = {var.decl for var in file_scope}
    used: dict[str, ir.VarDecl] = {}
    dynamic = False
    for function in functions:
        for stmt in function.body.walk() if function.body is not None else ():
            for var in stmt.decls:
                if var.storage is ir.StorageClass.SHARED:
                    dynamic |= var.is_extern
                    if not var.is_extern:
                        used[var.decl] = var
            for expr in stmt.expressions():
                for node in expr.walk():
                    if node.kind is ir.ExprKind.DECL_REF and node.decl in names:
                        used.setdefault(node.decl, next(v for v in file_scope if v.decl == node.decl))
    total = 0
    for var in used.values():
        if var.is_extern:
            dynamic = True
            continue
        total = _round_up(total, var.type.align or 1) + (var.type.size or 0)
    return total, dynamic

// cudalint shared corpus: cp.async (global to shared without registers) through inline
// PTX and __pipeline_memcpy_async, over tiles of 16-bit elements.
// Each lane copies 4, 8 or 16 bytes, written at least as a store of that width is (16-byte
// lanes: 8 per 128-byte wavefront). Measured on an H200 and an H100 (the same figures),
// 16-byte copies also take a wavefront per global line a phase reads, and more where
// their 32-byte pieces split. The kernels vary one thing at a time: the shared layout
// (packed, 64-byte rows, rows padded to 80 bytes, permuted chunks, lanes 32 or 128
// bytes apart) and the global pattern (one contiguous run per warp, or eight rows of 64
// bytes 2 KiB apart, the tile loads of tensor-core GEMMs). Launch lines use
// scripts/measure_gpu.py's format (`--lines` measures per line).

#include <cuda_fp16.h>
#include <cuda_pipeline.h>
#include <stdint.h>

#define CP_ASYNC_CA(dst, src, Bytes) \
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(Bytes))

#define CP_ASYNC_CG(dst, src, Bytes) \
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(Bytes))

#define CP_ASYNC_CG_NO_HINT(dst, src, Bytes) \
    asm volatile("cp.async.cg.shared::cta.global [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(Bytes))

#define CP_ASYNC_WAIT_ALL() asm volatile("cp.async.wait_all;\n" ::)

// Half elements per row of the global matrix the "rows" kernels read (2 KiB rows).
#define GLOBAL_ROW 1024

// Writes one word of the tile per lane to out (so the copy has a consumer).
__device__ void ca_drain(uint32_t* out, const half* tile) {
    CP_ASYNC_WAIT_ALL();
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = reinterpret_cast<const uint32_t*>(tile)[threadIdx.x];
}

// 16 bytes per lane, 512 contiguous bytes on both sides: 4 wavefronts, the ideal.
// launch: grid=8 block=32
__global__ void ca_cg16_packed(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 8];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 8]);
    CP_ASYNC_CG(dst, in + blockIdx.x * 256 + lane * 8, 16);
    ca_drain(out, tile);
}

// The same with .ca (cached in L1 as well).
// launch: grid=8 block=32
__global__ void ca_ca16_packed(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 8];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 8]);
    CP_ASYNC_CA(dst, in + blockIdx.x * 256 + lane * 8, 16);
    ca_drain(out, tile);
}

// Packed shared side, global side eight rows of 64 bytes 2 KiB apart: two lines a phase, 2x.
// launch: grid=8 block=32
__global__ void ca_cg16_packed_global_rows(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 8];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 8]);
    CP_ASYNC_CG(dst, in + blockIdx.x * 32 + (lane / 4) * GLOBAL_ROW + (lane % 4) * 8, 16);  // expect: CL201 warning @5 "2-way bank conflict"
    ca_drain(out, tile);
}

// A 32x32 half tile (64-byte rows), lane -> row lane / 4, chunk lane % 4: each phase of
// 8 lanes covers two whole rows, 128 contiguous bytes. Global side contiguous.
// launch: grid=8 block=32
__global__ void ca_cg16_rows64(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32][32];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane / 4][(lane % 4) * 8]);
    CP_ASYNC_CG(dst, in + blockIdx.x * 256 + lane * 8, 16);
    ca_drain(out, &tile[0][0]);
}

// The tile load of a tensor-core GEMM: 64-byte shared rows, eight global rows: 2x.
// launch: grid=8 block=32
__global__ void ca_cg16_rows64_global_rows(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32][32];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane / 4][(lane % 4) * 8]);
    CP_ASYNC_CG(dst, in + blockIdx.x * 32 + (lane / 4) * GLOBAL_ROW + (lane % 4) * 8, 16);  // expect: CL201 warning @5 "2-way bank conflict"
    ca_drain(out, &tile[0][0]);
}

// Rows padded to 80 bytes: a phase's two rows start 80 bytes apart, so its 8 lanes
// cover bank groups 0-3 and 5, 6, 7, 0: 2x as a store; measured 3.75x (split pieces).
// launch: grid=8 block=32
__global__ void ca_cg16_padded(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32][40];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane / 4][(lane % 4) * 8]);
    CP_ASYNC_CG(dst, in + blockIdx.x * 256 + lane * 8, 16);  // expect: CL201 warning
    ca_drain(out, &tile[0][0]);
}

// The same padded tile filled from eight global rows.
// launch: grid=8 block=32
__global__ void ca_cg16_padded_global_rows(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32][40];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane / 4][(lane % 4) * 8]);
    CP_ASYNC_CG(dst, in + blockIdx.x * 32 + (lane / 4) * GLOBAL_ROW + (lane % 4) * 8, 16);  // expect: CL201 warning
    ca_drain(out, &tile[0][0]);
}

// The same store with an ordinary 16-byte store (STS.128) through registers.
// launch: grid=8 block=32
__global__ void ca_sts128_padded(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32][40];
    unsigned lane = threadIdx.x % 32;
    int4 v = *reinterpret_cast<const int4*>(in + blockIdx.x * 256 + lane * 8);
    *reinterpret_cast<int4*>(&tile[lane / 4][(lane % 4) * 8]) = v;  // expect: CL201 warning
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = reinterpret_cast<const uint32_t*>(&tile[0][0])[threadIdx.x];
}

// 64-byte rows whose 16-byte chunks are rotated by (row % 8) / 2, from eight global rows
// (the permuted GEMM's tile load): conflict-free as a store, two lines a phase: measured 3x.
// launch: grid=8 block=32
__global__ void ca_cg16_permuted_global_rows(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32][32];
    unsigned lane = threadIdx.x % 32;
    unsigned row = lane / 4;
    uint32_t dst = __cvta_generic_to_shared(&tile[row][0]) + ((lane % 4 + (row % 8) / 2) % 4) * 16;
    CP_ASYNC_CG(dst, in + blockIdx.x * 32 + row * GLOBAL_ROW + (lane % 4) * 8, 16);  // expect: CL201 warning
    ca_drain(out, &tile[0][0]);
}

// Lanes 32 bytes apart: bank groups 0, 2, 4, 6 twice a phase, 2x as a store; measured 8x.
// launch: grid=8 block=32
__global__ void ca_cg16_stride32(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 16];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 16]);
    CP_ASYNC_CG(dst, in + blockIdx.x * 256 + lane * 8, 16);  // expect: CL201 warning  // expect-miss: CL101 the global source is contiguous (16 sectors for 16); ncu counts 2x as LDGSTS replays its 8-way conflicted shared side (1.5x at 4-way, line 95): CL201 names the cause
    ca_drain(out, tile);
}

// Lanes 128 bytes apart: the 8 lanes of a phase all in one bank group: 8x.
// launch: grid=8 block=32
__global__ void ca_cg16_stride128(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 64];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 64]);
    CP_ASYNC_CG(dst, in + blockIdx.x * 256 + lane * 8, 16);  // expect: CL201 warning  // expect-miss: CL101 the global source is contiguous (16 sectors for 16); ncu counts 2x as LDGSTS replays its 8-way conflicted shared side (1.5x at 4-way, line 95): CL201 names the cause
    ca_drain(out, tile);
}

// 8 bytes per lane, packed: 256 bytes, 2 wavefronts, the ideal.
// launch: grid=8 block=32
__global__ void ca_ca8_packed(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 4];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 4]);
    CP_ASYNC_CA(dst, in + blockIdx.x * 128 + lane * 4, 8);
    ca_drain(out, tile);
}

// 8 bytes per lane, lanes 16 bytes apart: 2x.
// launch: grid=8 block=32
__global__ void ca_ca8_stride16(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 8];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 8]);
    CP_ASYNC_CA(dst, in + blockIdx.x * 128 + lane * 4, 8);  // expect: CL201 warning
    ca_drain(out, tile);
}

// 4 bytes per lane, packed: 1 wavefront.
// launch: grid=8 block=32
__global__ void ca_ca4_packed(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 2];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 2]);
    CP_ASYNC_CA(dst, in + blockIdx.x * 64 + lane * 2, 4);
    ca_drain(out, tile);
}

// 4 bytes per lane, lanes 8 bytes apart: 2-way.
// launch: grid=8 block=32
__global__ void ca_ca4_stride8(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 4];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 4]);
    CP_ASYNC_CA(dst, in + blockIdx.x * 64 + lane * 2, 4);  // expect: CL201 warning
    ca_drain(out, tile);
}

// 4 bytes per lane, lanes 128 bytes apart: 32-way.
// launch: grid=8 block=32
__global__ void ca_ca4_stride128(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 64];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 64]);
    CP_ASYNC_CA(dst, in + blockIdx.x * 64 + lane * 2, 4);  // expect: CL201 warning
    ca_drain(out, tile);
}

// The C++ intrinsic issues the same LDGSTS: packed (ideal) and padded (measured 3.75x).
// launch: grid=8 block=32
__global__ void ca_pipeline16_packed(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 8];
    unsigned lane = threadIdx.x % 32;
    __pipeline_memcpy_async(&tile[lane * 8], in + blockIdx.x * 256 + lane * 8, 16);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = reinterpret_cast<const uint32_t*>(tile)[threadIdx.x];
}

// launch: grid=8 block=32
__global__ void ca_pipeline16_padded(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32][40];
    unsigned lane = threadIdx.x % 32;
    __pipeline_memcpy_async(&tile[lane / 4][(lane % 4) * 8], in + blockIdx.x * 256 + lane * 8, 16);  // expect: CL201 warning
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = reinterpret_cast<const uint32_t*>(&tile[0][0])[threadIdx.x];
}

// Eight warps copying a 256x32 tile in the GEMM's layout, 4 trips each (rows 64 apart).
// launch: grid=8 block=256
__global__ void ca_cg16_rows64_block(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[256][32];
    unsigned warp = threadIdx.x / 32;
    unsigned lane = threadIdx.x % 32;
#pragma unroll
    for (unsigned i = 0; i < 4; ++i) {
        unsigned row = warp * 32 + i * 8 + lane / 4;
        uint32_t dst = __cvta_generic_to_shared(&tile[row][(lane % 4) * 8]);
        CP_ASYNC_CG(dst, in + blockIdx.x * 32 + row * GLOBAL_ROW + (lane % 4) * 8, 16);  // expect: CL201 warning
    }
    ca_drain(out, &tile[0][0]);
}

// Without the L2 prefetch hint, the same eight global rows into a packed tile.
// launch: grid=8 block=32
__global__ void ca_cg16_no_hint_global_rows(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 8];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 8]);
    CP_ASYNC_CG_NO_HINT(dst, in + blockIdx.x * 32 + (lane / 4) * GLOBAL_ROW + (lane % 4) * 8, 16);  // expect: CL201 warning
    ca_drain(out, tile);
}

// Eight warps in the permuted layout of ca_cg16_permuted_global_rows, 4 trips each.
// launch: grid=8 block=256
__global__ void ca_cg16_permuted_block(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[256][32];
    unsigned warp = threadIdx.x / 32;
    unsigned lane = threadIdx.x % 32;
#pragma unroll
    for (unsigned i = 0; i < 4; ++i) {
        unsigned row = warp * 32 + i * 8 + lane / 4;
        uint32_t dst = __cvta_generic_to_shared(&tile[row][0]) + ((lane % 4 + (row % 8) / 2) % 4) * 16;
        CP_ASYNC_CG(dst, in + blockIdx.x * 32 + row * GLOBAL_ROW + (lane % 4) * 8, 16);  // expect: CL201 warning
    }
    ca_drain(out, &tile[0][0]);
}

// The zero-filling form (src-size operand): lanes 16-31 copy nothing and fill zeros.
// launch: grid=8 block=32
__global__ void ca_cg16_zero_fill_packed(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 8];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 8]);
    int src_size = lane < 16 ? 16 : 0;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(in + blockIdx.x * 256 + lane * 8), "r"(src_size));
    ca_drain(out, tile);
}

// The permuted GEMM's tile load with the global row length given at run time (`K`, which
// the kernel also loops over: a size): for any realistic K the eight rows a warp reads are
// in different 128-byte lines, two a phase. Measured with K = 1024: 3x, as with the
// constant row length above.
// launch: grid=8 block=32 args: K=1024
__global__ void ca_cg16_permuted_runtime_rows(uint32_t* out, const half* in, int K) {
    __shared__ __align__(16) half tile[32][32];
    unsigned lane = threadIdx.x % 32;
    unsigned row = lane / 4;
    for (int k = 0; k < K; k += 512) {
        uint32_t dst = __cvta_generic_to_shared(&tile[row][0]) + ((lane % 4 + (row % 8) / 2) % 4) * 16;
        CP_ASYNC_CG(dst, in + blockIdx.x * 32 + k + row * K + (lane % 4) * 8, 16);  // expect: CL201 warning @9 "for any realistic K"
        CP_ASYNC_WAIT_ALL();
        __syncthreads();
    }
    ca_drain(out, &tile[0][0]);
}

// A run-time spacing between lanes that is no size of the kernel (nothing compares with
// it, and no other lane index sits beside it): which lines a phase reads is the caller's
// choice, so nothing is said. At the launch's 8 halves the copy is contiguous: ideal.
// launch: grid=8 block=32 args: spacing=8
__global__ void ca_cg16_packed_runtime_spacing(uint32_t* out, const half* in, int spacing) {
    __shared__ __align__(16) half tile[32 * 8];
    unsigned lane = threadIdx.x % 32;
    uint32_t dst = __cvta_generic_to_shared(&tile[lane * 8]);
    CP_ASYNC_CG(dst, in + blockIdx.x * 256 + lane * spacing, 16);  // expect: CL101 note "spacing"
    ca_drain(out, tile);
}

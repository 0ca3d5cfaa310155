// cudalint shared corpus: ldmatrix through inline PTX over tiles of 16-bit elements.
// ldmatrix.m8n8 reads 8x8 matrices of b16: each matrix is eight rows of 16 bytes whose
// addresses come from eight lanes (lanes 0-7 give matrix 0's rows, 8-15 matrix 1's, ...;
// .x1 and .x2 use the first 8 and 16 lanes). The hardware serves one matrix per
// wavefront at best; two rows of one matrix in the same four banks (16-byte bank group)
// cost a wavefront more. Row-major tiles whose rows are 64 bytes apart (the shape of a
// 16x32 half tile) put rows 0, 2, 4 and 6 in one bank group: 4 wavefronts per matrix.
// Padding each row by 16 bytes, or permuting the 16-byte chunks of a row by the row
// number (XOR swizzle), spreads the eight rows over the eight bank groups.
// The address reaches the asm as a 32-bit shared-window address from
// __cvta_generic_to_shared. Launch lines use scripts/measure_gpu.py's format (`--lines`
// measures per line).

#include <cuda_fp16.h>
#include <stdint.h>

#define LDSM_X1(R, addr) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(R) : "r"(addr))

#define LDSM_X2(R0, R1, addr) \
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n" : "=r"(R0), "=r"(R1) : "r"(addr))

// The qualifier order older code uses (.x4 before .m8n8); ptxas accepts both.
#define LDSM_X4(R0, R1, R2, R3, addr)                                             \
    asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n" \
                 : "=r"(R0), "=r"(R1), "=r"(R2), "=r"(R3)                         \
                 : "r"(addr))

#define LDSM_X4_TRANS(R0, R1, R2, R3, addr)                                                  \
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%0, %1, %2, %3}, [%4];\n" \
                 : "=r"(R0), "=r"(R1), "=r"(R2), "=r"(R3)                                    \
                 : "r"(addr))

// Copies n halves of `in` into a tile, lanes on consecutive elements.
__device__ void lm_fill(half* tile, const half* in, int n) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) tile[i] = in[blockIdx.x * n + i];
    __syncthreads();
}

// Writes the fragments to out, lanes on consecutive words (so the loads have a consumer).
__device__ void lm_store(uint32_t* out, uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3) {
    unsigned base = blockIdx.x * 4 * blockDim.x + threadIdx.x;
    out[base] = r0;
    out[base + blockDim.x] = r1;
    out[base + 2 * blockDim.x] = r2;
    out[base + 3 * blockDim.x] = r3;
}

// A 64x32 half tile (64-byte rows) read as four 8x8 matrices: rows lane % 16, column
// block lane / 16. Rows 0, 2, 4, 6 of each matrix share a bank group: 4x.
// launch: grid=8 block=32
__global__ void lm_x4_rows64(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[64][32];
    lm_fill(&tile[0][0], in, 64 * 32);
    unsigned lane = threadIdx.x % 32;
    uint32_t r0, r1, r2, r3;
    uint32_t addr = __cvta_generic_to_shared(&tile[lane % 16][(lane / 16) * 8]);
    LDSM_X4(r0, r1, r2, r3, addr);  // expect: CL201 warning @5 "4-way bank conflict"
    lm_store(out, r0, r1, r2, r3);
}

// Two matrices of the same tile (the B operand of m16n8k16): 4x.
// launch: grid=8 block=32
__global__ void lm_x2_rows64(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[64][32];
    lm_fill(&tile[0][0], in, 64 * 32);
    unsigned lane = threadIdx.x % 32;
    uint32_t r0, r1;
    uint32_t addr = __cvta_generic_to_shared(&tile[lane % 8][((lane / 8) % 2) * 8]);
    LDSM_X2(r0, r1, addr);  // expect: CL201 warning @5 "4-way bank conflict"
    lm_store(out, r0, r1, r0, r1);
}

// One matrix: lanes 0-7 give the rows, the other lanes' addresses are not used. 4x.
// launch: grid=8 block=32
__global__ void lm_x1_rows64(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[64][32];
    lm_fill(&tile[0][0], in, 64 * 32);
    unsigned lane = threadIdx.x % 32;
    uint32_t r0;
    uint32_t addr = __cvta_generic_to_shared(&tile[lane % 8][0]);
    LDSM_X1(r0, addr);  // expect: CL201 warning
    lm_store(out, r0, r0, r0, r0);
}

// 32-byte rows (a 16-wide half tile): rows r and r + 4 share a bank group: 2x.
// launch: grid=8 block=32
__global__ void lm_x4_rows32(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32][16];
    lm_fill(&tile[0][0], in, 32 * 16);
    unsigned lane = threadIdx.x % 32;
    uint32_t r0, r1, r2, r3;
    uint32_t addr = __cvta_generic_to_shared(&tile[lane][0]);
    LDSM_X4(r0, r1, r2, r3, addr);  // expect: CL201 warning
    lm_store(out, r0, r1, r2, r3);
}

// 128-byte rows (a 64-wide half tile): all eight rows of a matrix in one bank group: 8x.
// launch: grid=8 block=32
__global__ void lm_x4_rows128(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[16][64];
    lm_fill(&tile[0][0], in, 16 * 64);
    unsigned lane = threadIdx.x % 32;
    uint32_t r0, r1, r2, r3;
    uint32_t addr = __cvta_generic_to_shared(&tile[lane % 16][(lane / 16) * 8]);
    LDSM_X4(r0, r1, r2, r3, addr);  // expect: CL201 warning
    lm_store(out, r0, r1, r2, r3);
}

// Rows stored one after another (16-byte rows): each matrix is 128 contiguous bytes: 1x.
// launch: grid=8 block=32
__global__ void lm_x4_packed(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[32 * 8];
    lm_fill(tile, in, 32 * 8);
    unsigned lane = threadIdx.x % 32;
    uint32_t r0, r1, r2, r3;
    uint32_t addr = __cvta_generic_to_shared(&tile[lane * 8]);
    LDSM_X4(r0, r1, r2, r3, addr);
    lm_store(out, r0, r1, r2, r3);
}

// The 64-byte-row tile padded by 8 halves (80-byte rows): rows fall in bank groups
// 0, 5, 2, 7, 4, 1, 6, 3: 1x.
// launch: grid=8 block=32
__global__ void lm_x4_padded(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[64][40];
    lm_fill(&tile[0][0], in, 64 * 40);
    unsigned lane = threadIdx.x % 32;
    uint32_t r0, r1, r2, r3;
    uint32_t addr = __cvta_generic_to_shared(&tile[lane % 16][(lane / 16) * 8]);
    LDSM_X4(r0, r1, r2, r3, addr);
    lm_store(out, r0, r1, r2, r3);
}

// The 64-byte-row tile with each row's 16-byte chunks rotated by (row % 8) / 2 (the
// permuted layout of tensor-core GEMMs): the eight rows of a matrix land in eight
// different bank groups: 1x.
// launch: grid=8 block=32
__global__ void lm_x4_permuted(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[64][32];
    lm_fill(&tile[0][0], in, 64 * 32);
    unsigned lane = threadIdx.x % 32;
    unsigned row = lane % 16;
    uint32_t r0, r1, r2, r3;
    uint32_t addr = __cvta_generic_to_shared(&tile[row][((lane / 16) * 8 + (row % 8) / 2 * 8) % 32]);
    LDSM_X4(r0, r1, r2, r3, addr);
    lm_store(out, r0, r1, r2, r3);
}

// 128-byte rows with the chunk index XORed by the row (chunk ^ row % 8): 1x.
// launch: grid=8 block=32
__global__ void lm_x4_xor_swizzled(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[16][64];
    lm_fill(&tile[0][0], in, 16 * 64);
    unsigned lane = threadIdx.x % 32;
    unsigned row = lane % 16;
    unsigned chunk = (lane / 16) ^ (row % 8);
    uint32_t r0, r1, r2, r3;
    uint32_t addr = __cvta_generic_to_shared(&tile[row][chunk * 8]);
    LDSM_X4(r0, r1, r2, r3, addr);
    lm_store(out, r0, r1, r2, r3);
}

// .trans moves the same rows (it transposes in the registers): 4x like lm_x4_rows64.
// The address is cast with static_cast from the generic pointer's conversion.
// launch: grid=8 block=32
__global__ void lm_x4_trans_rows64(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[64][32];
    lm_fill(&tile[0][0], in, 64 * 32);
    unsigned lane = threadIdx.x % 32;
    uint32_t r0, r1, r2, r3;
    uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(&tile[lane % 16][(lane / 16) * 8]));
    LDSM_X4_TRANS(r0, r1, r2, r3, addr);  // expect: CL201 warning
    lm_store(out, r0, r1, r2, r3);
}

// Four warps, each reading its own 16-row slice of the tile (warp offset 16 rows): the
// slice start is a multiple of 1024 bytes, the conflicts are the same as one warp's: 4x.
// launch: grid=8 block=128
__global__ void lm_x4_rows64_warps(uint32_t* out, const half* in) {
    __shared__ __align__(16) half tile[64][32];
    lm_fill(&tile[0][0], in, 64 * 32);
    unsigned warp = threadIdx.x / 32;
    unsigned lane = threadIdx.x % 32;
    uint32_t r0, r1, r2, r3;
    uint32_t addr = __cvta_generic_to_shared(&tile[warp * 16 + lane % 16][(lane / 16) * 8]);
    LDSM_X4(r0, r1, r2, r3, addr);  // expect: CL201 warning
    lm_store(out, r0, r1, r2, r3);
}

// stmatrix (sm_90) writes the same 8x8 matrices: 16-byte rows from 8 lanes per matrix.
#define STSM_X4(addr, R0, R1, R2, R3)                                                        \
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), \
                 "r"(R0), "r"(R1), "r"(R2), "r"(R3))

// Fragments stored into 64-byte rows: 4x, as the loads.
// launch: grid=8 block=32
__global__ void lm_stmatrix_x4_rows64(uint32_t* out, const uint32_t* in) {
    __shared__ __align__(16) half tile[64][32];
    unsigned lane = threadIdx.x % 32;
    uint32_t addr = __cvta_generic_to_shared(&tile[lane % 16][(lane / 16) * 8]);
    STSM_X4(addr, in[lane], in[lane + 32], in[lane + 64], in[lane + 96]);  // expect: CL201 warning
    __syncthreads();
    out[blockIdx.x * 32 + lane] = reinterpret_cast<const uint32_t*>(&tile[0][0])[lane];
}

// The same into the padded tile: 1x.
// launch: grid=8 block=32
__global__ void lm_stmatrix_x4_padded(uint32_t* out, const uint32_t* in) {
    __shared__ __align__(16) half tile[64][40];
    unsigned lane = threadIdx.x % 32;
    uint32_t addr = __cvta_generic_to_shared(&tile[lane % 16][(lane / 16) * 8]);
    STSM_X4(addr, in[lane], in[lane + 32], in[lane + 64], in[lane + 96]);
    __syncthreads();
    out[blockIdx.x * 32 + lane] = reinterpret_cast<const uint32_t*>(&tile[0][0])[lane];
}

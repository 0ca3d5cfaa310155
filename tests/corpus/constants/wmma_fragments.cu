// Tensor-core fragments (nvcuda::wmma): `num_elements` is a compile-time constant, so a
// loop over `frag.x[t]` unrolls and the fragment stays in registers (ptxas: no stack), and
// each fragment holds num_elements registers per thread (two halves share one): a warp
// tile of accumulators fills the register file as fast as a float array does.
// The "ptxas:" lines are nvcc's figures for each kernel (scripts/measure_ptxas.py --write).
#include <mma.h>
using namespace nvcuda;

constexpr int TILE = 16;

// One 16x16 output tile per warp in half precision, then C = alpha * A*B + beta * C over
// the accumulator's elements. Eight floats of accumulator, 8 registers: nothing on the stack.
// ptxas: registers=32 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void wf_half_tile_epilogue(const half* A, const half* B, float* C, int n, float alpha, float beta) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tiles = n / TILE;
    int row = warp / tiles * TILE, col = warp % tiles * TILE;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < n; k += TILE) {
        wmma::load_matrix_sync(a, A + row * n + k, n);
        wmma::load_matrix_sync(b, B + col * n + k, n);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::load_matrix_sync(c, C + row * n + col, n, wmma::mem_row_major);
    for (int t = 0; t < acc.num_elements; t++) acc.x[t] = alpha * acc.x[t] + beta * c.x[t];
    wmma::store_matrix_sync(C + row * n + col, acc, n, wmma::mem_row_major);
}

// A 2x2 warp tile in tf32: the operands are rounded to tf32 element by element, and the
// epilogue scales every accumulator element. Arrays of fragments indexed by unrolled
// loops and `num_elements`: all constant indices, all in registers.
// ptxas: registers=72 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void wf_tf32_small_tile(const float* A, const float* B, float* C, int n, float alpha) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tiles = n / (2 * TILE);
    int row = warp / tiles * 2 * TILE, col = warp % tiles * 2 * TILE;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[2][2];
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k = 0; k < n; k += 8) {
        wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[2];
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b[2];
#pragma unroll
        for (int i = 0; i < 2; i++) {
            wmma::load_matrix_sync(a[i], A + (row + i * TILE) * n + k, n);
            wmma::load_matrix_sync(b[i], B + (col + i * TILE) * n + k, n);
            for (int t = 0; t < a[i].num_elements; t++) a[i].x[t] = wmma::__float_to_tf32(a[i].x[t]);
            for (int t = 0; t < b[i].num_elements; t++) b[i].x[t] = wmma::__float_to_tf32(b[i].x[t]);
        }
#pragma unroll
        for (int i = 0; i < 2; i++)
#pragma unroll
            for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
#pragma unroll
    for (int i = 0; i < 2; i++)
#pragma unroll
        for (int j = 0; j < 2; j++) {
            for (int t = 0; t < acc[i][j].num_elements; t++) acc[i][j].x[t] *= alpha;
            wmma::store_matrix_sync(C + (row + i * TILE) * n + col + j * TILE, acc[i][j], n, wmma::mem_row_major);
        }
}

constexpr int WARP_M = 4;
constexpr int WARP_N = 8;
constexpr int K_STEPS = 2;

// A tf32 GEMM whose warps each own a 64x128 tile: 32 accumulator fragments of 8 floats
// (256 registers) before any operand is loaded, plus two k-steps of operand fragments
// (96 more). ptxas caps the kernel at 255 registers and spills well over 1 KB a thread.
// ptxas: registers=255 stack=968 spill-stores=1556 spill-loads=1316 (nvcc 13.0 sm_90)
__global__ void wf_tf32_warp_tile_gemm(const float* A, const float* B, float* C, int n, float alpha) {  // expect: CL501 warning @1 "needs about 335 registers per thread"
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int tiles = n / (TILE * WARP_N);
    int row = warp / tiles * TILE * WARP_M, col = warp % tiles * TILE * WARP_N;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[WARP_M][WARP_N];
#pragma unroll
    for (int i = 0; i < WARP_M; i++)
#pragma unroll
        for (int j = 0; j < WARP_N; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k = 0; k < n; k += 8 * K_STEPS) {
        wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[K_STEPS][WARP_M];
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b[K_STEPS][WARP_N];
#pragma unroll
        for (int s = 0; s < K_STEPS; s++) {
#pragma unroll
            for (int i = 0; i < WARP_M; i++) {
                wmma::load_matrix_sync(a[s][i], A + (row + i * TILE) * n + k + s * 8, n);
                for (int t = 0; t < a[s][i].num_elements; t++) a[s][i].x[t] = wmma::__float_to_tf32(a[s][i].x[t]);
            }
#pragma unroll
            for (int j = 0; j < WARP_N; j++) {
                wmma::load_matrix_sync(b[s][j], B + (col + j * TILE) * n + k + s * 8, n);
                for (int t = 0; t < b[s][j].num_elements; t++) b[s][j].x[t] = wmma::__float_to_tf32(b[s][j].x[t]);
            }
        }
#pragma unroll
        for (int s = 0; s < K_STEPS; s++)
#pragma unroll
            for (int i = 0; i < WARP_M; i++)
#pragma unroll
                for (int j = 0; j < WARP_N; j++) wmma::mma_sync(acc[i][j], a[s][i], b[s][j], acc[i][j]);
    }
#pragma unroll
    for (int i = 0; i < WARP_M; i++)
#pragma unroll
        for (int j = 0; j < WARP_N; j++) {
            for (int t = 0; t < acc[i][j].num_elements; t++) acc[i][j].x[t] *= alpha;
            wmma::store_matrix_sync(C + (row + i * TILE) * n + col + j * TILE, acc[i][j], n, wmma::mem_row_major);
        }
}

constexpr int BLOCK_M = 128, BLOCK_N = 256, BLOCK_K = 16;

// The same warp tile fed from shared memory: a 128-thread block stages a 128x16 slab of A
// and a 256x16 slab of B, and each of its four warps loads both k-steps of its operand
// fragments, then multiplies its 64x128 tile. Still 256 registers of accumulators a thread.
// ptxas: registers=255 stack=760 spill-stores=1104 spill-loads=1104 (nvcc 13.0 sm_90)
__global__ void __launch_bounds__(128, 1) wf_tf32_block_tile_gemm(const float* A, const float* B, float* C, int n,  // expect: CL501 warning @1 "needs about 339 registers per thread"
                                                                  float alpha) {
    __shared__ float As[BLOCK_M][BLOCK_K];
    __shared__ float Bs[BLOCK_N][BLOCK_K];
    int warp = threadIdx.x / 32;
    int warp_row = warp / 2 * TILE * WARP_M, warp_col = warp % 2 * TILE * WARP_N;
    int row = blockIdx.y * BLOCK_M, col = blockIdx.x * BLOCK_N;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[WARP_M][WARP_N];
#pragma unroll
    for (int i = 0; i < WARP_M; i++)
#pragma unroll
        for (int j = 0; j < WARP_N; j++) wmma::fill_fragment(acc[i][j], 0.0f);
    for (int k = 0; k < n; k += BLOCK_K) {
        for (int e = threadIdx.x; e < BLOCK_M * BLOCK_K; e += blockDim.x)
            As[e / BLOCK_K][e % BLOCK_K] = wmma::__float_to_tf32(A[(row + e / BLOCK_K) * n + k + e % BLOCK_K]);
        for (int e = threadIdx.x; e < BLOCK_N * BLOCK_K; e += blockDim.x)
            Bs[e / BLOCK_K][e % BLOCK_K] = wmma::__float_to_tf32(B[(col + e / BLOCK_K) * n + k + e % BLOCK_K]);
        __syncthreads();
        wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[K_STEPS][WARP_M];
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b[K_STEPS][WARP_N];
#pragma unroll
        for (int s = 0; s < K_STEPS; s++) {
#pragma unroll
            for (int i = 0; i < WARP_M; i++)
                wmma::load_matrix_sync(a[s][i], &As[warp_row + i * TILE][s * 8], BLOCK_K);
#pragma unroll
            for (int j = 0; j < WARP_N; j++)
                wmma::load_matrix_sync(b[s][j], &Bs[warp_col + j * TILE][s * 8], BLOCK_K);
        }
#pragma unroll
        for (int s = 0; s < K_STEPS; s++)
#pragma unroll
            for (int i = 0; i < WARP_M; i++)
#pragma unroll
                for (int j = 0; j < WARP_N; j++) wmma::mma_sync(acc[i][j], a[s][i], b[s][j], acc[i][j]);
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < WARP_M; i++)
#pragma unroll
        for (int j = 0; j < WARP_N; j++) {
            for (int t = 0; t < acc[i][j].num_elements; t++) acc[i][j].x[t] *= alpha;
            wmma::store_matrix_sync(C + (row + warp_row + i * TILE) * n + col + warp_col + j * TILE, acc[i][j], n,
                                    wmma::mem_row_major);
        }
}

// Ten accumulator fragments kept as separate variables under __launch_bounds__(1024): 64
// registers a thread at most, and the fragments alone need 80.
// ptxas: registers=32 stack=1368 spill-stores=3080 spill-loads=2864 (nvcc 13.0 sm_90)
__global__ void __launch_bounds__(1024) wf_fragments_over_launch_bounds(const half* A, const half* B, float* C, int n) {  // expect: CL501 warning
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int row = warp * TILE;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c0, c1, c2, c3, c4, c5, c6, c7, c8, c9;
    wmma::fill_fragment(c0, 0.0f); wmma::fill_fragment(c1, 0.0f); wmma::fill_fragment(c2, 0.0f);
    wmma::fill_fragment(c3, 0.0f); wmma::fill_fragment(c4, 0.0f); wmma::fill_fragment(c5, 0.0f);
    wmma::fill_fragment(c6, 0.0f); wmma::fill_fragment(c7, 0.0f); wmma::fill_fragment(c8, 0.0f);
    wmma::fill_fragment(c9, 0.0f);
    for (int k = 0; k < n; k += TILE) {
        wmma::load_matrix_sync(a, A + row * n + k, n);
        wmma::load_matrix_sync(b, B + 0 * TILE * n + k, n); wmma::mma_sync(c0, a, b, c0);
        wmma::load_matrix_sync(b, B + 1 * TILE * n + k, n); wmma::mma_sync(c1, a, b, c1);
        wmma::load_matrix_sync(b, B + 2 * TILE * n + k, n); wmma::mma_sync(c2, a, b, c2);
        wmma::load_matrix_sync(b, B + 3 * TILE * n + k, n); wmma::mma_sync(c3, a, b, c3);
        wmma::load_matrix_sync(b, B + 4 * TILE * n + k, n); wmma::mma_sync(c4, a, b, c4);
        wmma::load_matrix_sync(b, B + 5 * TILE * n + k, n); wmma::mma_sync(c5, a, b, c5);
        wmma::load_matrix_sync(b, B + 6 * TILE * n + k, n); wmma::mma_sync(c6, a, b, c6);
        wmma::load_matrix_sync(b, B + 7 * TILE * n + k, n); wmma::mma_sync(c7, a, b, c7);
        wmma::load_matrix_sync(b, B + 8 * TILE * n + k, n); wmma::mma_sync(c8, a, b, c8);
        wmma::load_matrix_sync(b, B + 9 * TILE * n + k, n); wmma::mma_sync(c9, a, b, c9);
    }
    float* out = C + row * n;
    wmma::store_matrix_sync(out + 0 * TILE, c0, n, wmma::mem_row_major);
    wmma::store_matrix_sync(out + 1 * TILE, c1, n, wmma::mem_row_major);
    wmma::store_matrix_sync(out + 2 * TILE, c2, n, wmma::mem_row_major);
    wmma::store_matrix_sync(out + 3 * TILE, c3, n, wmma::mem_row_major);
    wmma::store_matrix_sync(out + 4 * TILE, c4, n, wmma::mem_row_major);
    wmma::store_matrix_sync(out + 5 * TILE, c5, n, wmma::mem_row_major);
    wmma::store_matrix_sync(out + 6 * TILE, c6, n, wmma::mem_row_major);
    wmma::store_matrix_sync(out + 7 * TILE, c7, n, wmma::mem_row_major);
    wmma::store_matrix_sync(out + 8 * TILE, c8, n, wmma::mem_row_major);
    wmma::store_matrix_sync(out + 9 * TILE, c9, n, wmma::mem_row_major);
}

// Tensor-core GEMM tiles: the register tile of one warp's output, kept across the rolled
// loop over K, with the operand fragments of one K step loaded inside it.
// The "ptxas:" lines are nvcc's figures for each instantiation (scripts/measure_ptxas.py).
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

// wmma: a WM x WN tile of 16x16 float accumulators (8 registers each), WM matrix_a and WN
// matrix_b half fragments (8 registers each) per K step. Unbounded, 4 x 6 (192 accumulator
// registers) still fits 255; 4 x 8 (256) cannot.
// ptxas: registers=64 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) wmma_tile<2,2>
// ptxas: registers=138 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) wmma_tile<2,4>
// ptxas: registers=228 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) wmma_tile<4,4>
// ptxas: registers=254 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) wmma_tile<4,6>
// ptxas: registers=255 stack=232 spill-stores=372 spill-loads=372 (nvcc 13.0 sm_90) wmma_tile<4,8>
template <int WM, int WN>
__global__ void wmma_tile(const half* A, const half* B, float* C, int K) {  // expect: CL501 warning @1 "needs about 310 registers per thread"
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[WM][WN];
#pragma unroll
    for (int i = 0; i < WM; ++i)
#pragma unroll
        for (int j = 0; j < WN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    for (int k = 0; k < K; k += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[WM];
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b[WN];
#pragma unroll
        for (int i = 0; i < WM; ++i) wmma::load_matrix_sync(a[i], A + (warp * WM + i) * 16 * K + k, K);
#pragma unroll
        for (int j = 0; j < WN; ++j) wmma::load_matrix_sync(b[j], B + j * 16 * K + k, K);
#pragma unroll
        for (int i = 0; i < WM; ++i)
#pragma unroll
            for (int j = 0; j < WN; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
#pragma unroll
    for (int i = 0; i < WM; ++i)
#pragma unroll
        for (int j = 0; j < WN; ++j)
            wmma::store_matrix_sync(C + (warp * WM + i) * 256 * WN + j * 16, acc[i][j], 16 * WN, wmma::mem_row_major);
}

// The same tile under __launch_bounds__(256, 2): 128 registers. 2 x 4 (64 accumulator
// registers) fits, 2 x 6 (96) and 2 x 7 (112) spill.
// ptxas: registers=124 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) wmma_tile_bounded<2,2>
// ptxas: registers=128 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) wmma_tile_bounded<2,3>
// ptxas: registers=128 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) wmma_tile_bounded<2,4>
// ptxas: registers=128 stack=48 spill-stores=44 spill-loads=44 (nvcc 13.0 sm_90) wmma_tile_bounded<2,6>
// ptxas: registers=128 stack=200 spill-stores=216 spill-loads=232 (nvcc 13.0 sm_90) wmma_tile_bounded<2,7>
template <int WM, int WN>
__global__ void __launch_bounds__(256, 2) wmma_tile_bounded(const half* A, const half* B, float* C, int K) {  // expect: CL501 warning @1 "needs about 150 registers per thread"
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[WM][WN];
#pragma unroll
    for (int i = 0; i < WM; ++i)
#pragma unroll
        for (int j = 0; j < WN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    for (int k = 0; k < K; k += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[WM];
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b[WN];
#pragma unroll
        for (int i = 0; i < WM; ++i) wmma::load_matrix_sync(a[i], A + (warp * WM + i) * 16 * K + k, K);
#pragma unroll
        for (int j = 0; j < WN; ++j) wmma::load_matrix_sync(b[j], B + j * 16 * K + k, K);
#pragma unroll
        for (int i = 0; i < WM; ++i)
#pragma unroll
            for (int j = 0; j < WN; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
#pragma unroll
    for (int i = 0; i < WM; ++i)
#pragma unroll
        for (int j = 0; j < WN; ++j)
            wmma::store_matrix_sync(C + (warp * WM + i) * 256 * WN + j * 16, acc[i][j], 16 * WN, wmma::mem_row_major);
}

// mma.sync m16n8k16 through inline PTX: MI x NI tiles of 4 float accumulators, 4 b32
// registers of A per row tile and 2 of B per column tile. Unbounded, 4 x 8 (128
// accumulator registers) fits; 8 x 8 (256) cannot.
// ptxas: registers=96 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) mma_tile<4,4>
// ptxas: registers=250 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) mma_tile<4,8>
// ptxas: registers=255 stack=280 spill-stores=424 spill-loads=424 (nvcc 13.0 sm_90) mma_tile<8,8>
template <int MI, int NI>
__global__ void mma_tile(const unsigned* A, const unsigned* B, float* C, int K) {  // expect: CL501 warning
    float RC[MI][NI][4] = {};
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < K; ++k) {
        unsigned RA[MI][4], RB[NI][2];
#pragma unroll
        for (int i = 0; i < MI; ++i)
#pragma unroll
            for (int r = 0; r < 4; ++r) RA[i][r] = A[(k * MI * 4 + i * 4 + r) * 4096 + t];
#pragma unroll
        for (int j = 0; j < NI; ++j)
#pragma unroll
            for (int r = 0; r < 2; ++r) RB[j][r] = B[(k * NI * 2 + j * 2 + r) * 4096 + t];
#pragma unroll
        for (int i = 0; i < MI; ++i)
#pragma unroll
            for (int j = 0; j < NI; ++j)
                asm volatile(
                    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                    "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                    : "+f"(RC[i][j][0]), "+f"(RC[i][j][1]), "+f"(RC[i][j][2]), "+f"(RC[i][j][3])
                    : "r"(RA[i][0]), "r"(RA[i][1]), "r"(RA[i][2]), "r"(RA[i][3]), "r"(RB[j][0]), "r"(RB[j][1]));
    }
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r) C[((i * NI + j) * 4 + r) * 4096 + t] = RC[i][j][r];
}

// The same under __launch_bounds__(256, 2): 4 x 6 (96 accumulator registers) fits the 128,
// 4 x 7 (112) and 4 x 8 (128) spill.
// ptxas: registers=104 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) mma_capped<2,4>
// ptxas: registers=128 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) mma_capped<4,4>
// ptxas: registers=128 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) mma_capped<4,6>
// ptxas: registers=128 stack=96 spill-stores=108 spill-loads=108 (nvcc 13.0 sm_90) mma_capped<4,7>
// ptxas: registers=128 stack=216 spill-stores=312 spill-loads=312 (nvcc 13.0 sm_90) mma_capped<4,8>
template <int MI, int NI>
__global__ void __launch_bounds__(256, 2) mma_capped(const unsigned* A, const unsigned* B, float* C, int K) {  // expect: CL501 warning
    float RC[MI][NI][4] = {};
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < K; ++k) {
        unsigned RA[MI][4], RB[NI][2];
#pragma unroll
        for (int i = 0; i < MI; ++i)
#pragma unroll
            for (int r = 0; r < 4; ++r) RA[i][r] = A[(k * MI * 4 + i * 4 + r) * 4096 + t];
#pragma unroll
        for (int j = 0; j < NI; ++j)
#pragma unroll
            for (int r = 0; r < 2; ++r) RB[j][r] = B[(k * NI * 2 + j * 2 + r) * 4096 + t];
#pragma unroll
        for (int i = 0; i < MI; ++i)
#pragma unroll
            for (int j = 0; j < NI; ++j)
                asm volatile(
                    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                    "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                    : "+f"(RC[i][j][0]), "+f"(RC[i][j][1]), "+f"(RC[i][j][2]), "+f"(RC[i][j][3])
                    : "r"(RA[i][0]), "r"(RA[i][1]), "r"(RA[i][2]), "r"(RA[i][3]), "r"(RB[j][0]), "r"(RB[j][1]));
    }
#pragma unroll
    for (int i = 0; i < MI; ++i)
#pragma unroll
        for (int j = 0; j < NI; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r) C[((i * NI + j) * 4 + r) * 4096 + t] = RC[i][j][r];
}

int main() {
    half *A = nullptr, *B = nullptr;
    unsigned *RA = nullptr, *RB = nullptr;
    float* C = nullptr;
    int K = 1024;
    wmma_tile<2, 2><<<64, 256>>>(A, B, C, K);
    wmma_tile<2, 4><<<64, 256>>>(A, B, C, K);
    wmma_tile<4, 4><<<64, 256>>>(A, B, C, K);
    wmma_tile<4, 6><<<64, 256>>>(A, B, C, K);
    wmma_tile<4, 8><<<64, 256>>>(A, B, C, K);
    wmma_tile_bounded<2, 2><<<64, 256>>>(A, B, C, K);
    wmma_tile_bounded<2, 3><<<64, 256>>>(A, B, C, K);
    wmma_tile_bounded<2, 4><<<64, 256>>>(A, B, C, K);
    wmma_tile_bounded<2, 6><<<64, 256>>>(A, B, C, K);
    wmma_tile_bounded<2, 7><<<64, 256>>>(A, B, C, K);
    mma_tile<4, 4><<<64, 256>>>(RA, RB, C, K);
    mma_tile<4, 8><<<64, 256>>>(RA, RB, C, K);
    mma_tile<8, 8><<<64, 256>>>(RA, RB, C, K);
    mma_capped<2, 4><<<64, 256>>>(RA, RB, C, K);
    mma_capped<4, 4><<<64, 256>>>(RA, RB, C, K);
    mma_capped<4, 6><<<64, 256>>>(RA, RB, C, K);
    mma_capped<4, 7><<<64, 256>>>(RA, RB, C, K);
    mma_capped<4, 8><<<64, 256>>>(RA, RB, C, K);
    return 0;
}

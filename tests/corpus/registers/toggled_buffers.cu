// Double-buffered per-thread arrays indexed by a variable a loop toggles (`st ^= 1`), as
// tensor-core pipelines keep their operand fragments: one buffer is loaded while the other
// feeds the multiply. Where each trip of the rolled loop toggles the index an even number
// of times, every trip starts with the same index, each access indexes at a constant and
// the buffers stay in registers; a loop of known trips after it (unrolled) indexes at a
// constant in each copy. Toggled once per trip of a rolled loop, the index alternates at
// run time and the buffers go to local memory.
// The "ptxas:" lines are nvcc's figures (scripts/measure_ptxas.py).
#include <mma.h>
using namespace nvcuda;

// Toggled twice per trip, then once per trip of a two-trip tail: registers.
// ptxas: registers=130 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void fragments_toggled_twice(const half* a, const half* b, float* c, int ktiles) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> A[2][4];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> B[2][2];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> C[4][2];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::fill_fragment(C[i][j], 0.0f);
    int st = 0, ld = 1;
#pragma unroll
    for (int i = 0; i < 4; ++i) wmma::load_matrix_sync(A[st][i], a + i * 256, 16);
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(B[st][j], b + j * 256, 16);
    for (int k = 1; k < ktiles; ++k) {
        st ^= 1;
        ld ^= 1;
#pragma unroll
        for (int i = 0; i < 4; ++i) wmma::load_matrix_sync(A[st][i], a + (2 * k * 4 + i) * 256, 16);
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(B[st][j], b + (2 * k * 2 + j) * 256, 16);
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 2; ++j) wmma::mma_sync(C[i][j], A[ld][i], B[ld][j], C[i][j]);
        st ^= 1;
        ld ^= 1;
#pragma unroll
        for (int i = 0; i < 4; ++i) wmma::load_matrix_sync(A[st][i], a + ((2 * k + 1) * 4 + i) * 256, 16);
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(B[st][j], b + ((2 * k + 1) * 2 + j) * 256, 16);
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 2; ++j) wmma::mma_sync(C[i][j], A[ld][i], B[ld][j], C[i][j]);
    }
#pragma unroll
    for (int step = 0; step < 2; ++step) {
        st ^= 1;
        ld ^= 1;
#pragma unroll
        for (int i = 0; i < 4; ++i) wmma::load_matrix_sync(A[st][i], a + (step * 4 + i) * 256, 16);
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 2; ++j) wmma::mma_sync(C[i][j], A[ld][i], B[ld][j], C[i][j]);
    }
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
            wmma::store_matrix_sync(c + (i * 2 + j) * 256, C[i][j], 16, wmma::mem_row_major);
}

// The same with float buffers, 2 x 32 values: registers.
// ptxas: registers=64 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void floats_toggled_twice(const float* in, float* out, int n) {
    float buf[2][32];
#pragma unroll
    for (int i = 0; i < 32; ++i) buf[0][i] = in[i * blockDim.x + threadIdx.x];
    int st = 0, ld = 1;
    float acc = 0.0f;
    for (int k = 1; k < n; ++k) {
        st ^= 1;
        ld ^= 1;
#pragma unroll
        for (int i = 0; i < 32; ++i) buf[st][i] = in[((2 * k) * 32 + i) * blockDim.x + threadIdx.x];
#pragma unroll
        for (int i = 0; i < 32; ++i) acc += buf[ld][i];
        st ^= 1;
        ld ^= 1;
#pragma unroll
        for (int i = 0; i < 32; ++i) buf[st][i] = in[((2 * k + 1) * 32 + i) * blockDim.x + threadIdx.x];
#pragma unroll
        for (int i = 0; i < 32; ++i) acc += buf[ld][i];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Toggled once per trip of the rolled loop: the index alternates at run time, local memory.
// ptxas: registers=105 stack=384 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void fragments_toggled_once(const half* a, const half* b, float* c, int ktiles) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> A[2][4];  // expect: CL502 warning
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> B[2][2];  // expect: CL502 warning
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> C[4][2];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::fill_fragment(C[i][j], 0.0f);
    int st = 0, ld = 1;
#pragma unroll
    for (int i = 0; i < 4; ++i) wmma::load_matrix_sync(A[st][i], a + i * 256, 16);
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(B[st][j], b + j * 256, 16);
    for (int k = 1; k < ktiles; ++k) {
        st ^= 1;
        ld ^= 1;
#pragma unroll
        for (int i = 0; i < 4; ++i) wmma::load_matrix_sync(A[st][i], a + (k * 4 + i) * 256, 16);  // expect: CL502 warning
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(B[st][j], b + (k * 2 + j) * 256, 16);  // expect: CL502 warning
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 2; ++j) wmma::mma_sync(C[i][j], A[ld][i], B[ld][j], C[i][j]);  // expect: CL502 warning, CL502 warning
    }
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
            wmma::store_matrix_sync(c + (i * 2 + j) * 256, C[i][j], 16, wmma::mem_row_major);
}

// Toggled once per trip of an inner loop of two trips inside the rolled loop: the inner
// loop leaves the index as it came in, every outer trip starts with the same index, and
// each unrolled copy of the inner loop indexes at a constant: registers.
// ptxas: registers=122 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void fragments_toggled_in_an_inner_loop(const half* a, const half* b, float* c, int ktiles) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> A[2][4];
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> B[2][2];
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> C[4][2];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::fill_fragment(C[i][j], 0.0f);
    int st = 0, ld = 1;
#pragma unroll
    for (int i = 0; i < 4; ++i) wmma::load_matrix_sync(A[st][i], a + i * 256, 16);
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(B[st][j], b + j * 256, 16);
    for (int k = 1; k < ktiles; ++k) {
#pragma unroll
        for (int half_step = 0; half_step < 2; ++half_step) {
            st ^= 1;
            ld ^= 1;
#pragma unroll
            for (int i = 0; i < 4; ++i) wmma::load_matrix_sync(A[st][i], a + ((2 * k + half_step) * 4 + i) * 256, 16);
#pragma unroll
            for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(B[st][j], b + ((2 * k + half_step) * 2 + j) * 256, 16);
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 2; ++j) wmma::mma_sync(C[i][j], A[ld][i], B[ld][j], C[i][j]);
        }
    }
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
            wmma::store_matrix_sync(c + (i * 2 + j) * 256, C[i][j], 16, wmma::mem_row_major);
}

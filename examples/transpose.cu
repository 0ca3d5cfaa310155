// Matrix transpose, three ways. Run: cudalint examples/   or   cudalint facts examples/transpose.cu
#include <cuda_runtime.h>

#define TILE 32

// Reads rows, writes columns: every store of a warp lands in a different sector.
__global__ void transpose_naive(const float* in, float* out, int n) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < n && y < n) out[x * n + y] = in[y * n + x];
}

// Through a shared tile, but reading its columns hits one bank 32 times.
__global__ void transpose_shared(const float* in, float* out, int n) {
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// Padded tile: coalesced in both directions and conflict-free.
__global__ void transpose_padded(const float* in, float* out, int n) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

void transpose(const float* in, float* out, int n) {
    dim3 block(TILE, TILE);
    dim3 grid(n / TILE, n / TILE);
    transpose_naive<<<grid, block>>>(in, out, n);
    transpose_shared<<<grid, block>>>(in, out, n);
    transpose_padded<<<grid, block>>>(in, out, n);
}

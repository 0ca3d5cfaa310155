// Row sums of 32x32 tiles. Run: cudalint examples/
#include <cuda_runtime.h>

#define TILE 32

// The block copies its tile as one flat run of floats (coalesced), then each thread walks
// its own row: the lanes of a warp are a row apart, all on one bank. Padding the rows
// would remove the conflict, but the flat copy assumes rows of exactly TILE floats.
__global__ void row_sums(const float* in, float* out) {
    __shared__ float tile[TILE][TILE];
    float* flat = &tile[0][0];
    const float* block_in = in + blockIdx.x * TILE * TILE;
    for (int i = threadIdx.x; i < TILE * TILE; i += TILE) flat[i] = block_in[i];
    __syncthreads();
    float sum = 0.0f;
    for (int k = 0; k < TILE; ++k) sum += tile[threadIdx.x][k];
    out[blockIdx.x * TILE + threadIdx.x] = sum;
}

int main() {
    const int rows = 1024;
    float *in, *out;
    cudaMalloc(&in, rows * TILE * sizeof(float));
    cudaMalloc(&out, rows * sizeof(float));
    row_sums<<<rows / TILE, TILE>>>(in, out);
    cudaDeviceSynchronize();
    return 0;
}

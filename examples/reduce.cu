// Block sum by interleaved pairs. Run: cudalint examples/   or   cudalint explain examples/reduce.cu:13
#include <cuda_runtime.h>

#define BLOCK 256

// Interleaved pairs: `t % (2 * s)` keeps every other lane, then every fourth, ... so each
// warp runs the addition with most of its lanes idle.
__global__ void sum_interleaved(const float* in, float* out) {
    __shared__ float partial[BLOCK];
    unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (unsigned s = 1; s < BLOCK; s *= 2) {
        if (t % (2 * s) == 0) partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = partial[0];
}

void block_sums(const float* in, float* out, int blocks) {
    sum_interleaved<<<blocks, BLOCK>>>(in, out);
}

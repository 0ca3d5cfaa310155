// The host code of barrier_trips.cu's kernels: the launches its "launch:" lines describe,
// as a program would write them (scripts/measure_gpu.py replays the "launch:" lines).
#include <cuda_runtime.h>

#include "barrier_trips.cuh"

constexpr int kBlocks = 64;
constexpr int kThreads = 256;

int main() {
    float *out, *a;
    cudaMalloc(&out, 1 << 20);
    cudaMalloc(&a, 1 << 20);
    cudaMemset(a, 0, 1 << 20);

    bar_ok_block_stride_whole<<<kBlocks, kThreads>>>(out, a);
    bar_ok_block_stride_launch<<<kBlocks, kThreads>>>(out, a, 4 * kThreads);
    bar_bad_ragged_then_exit<<<kBlocks, kThreads>>>(out, a, 1000);
    bar_bad_warp_trips_then_exit<<<kBlocks, kThreads>>>(out, a);
    bar_bad_warp_trips_then_shared<<<kBlocks, kThreads>>>(out, a);
    bar_bad_ragged_then_shared<<<kBlocks, kThreads>>>(out, a, 1000);
    cudaDeviceSynchronize();
    return 0;
}

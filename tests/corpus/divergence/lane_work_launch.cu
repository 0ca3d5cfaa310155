// The host code of lane_work.cu's kernels: the launches its "launch:" lines describe,
// as a program would write them (scripts/measure_gpu.py replays the "launch:" lines).
#include <cuda_runtime.h>

#include "lane_work.cuh"

constexpr int kBlocks = 128;
constexpr int kThreads = 256;
constexpr int kRow = 64;

int main() {
    float *out, *a;
    cudaMalloc(&out, 4 << 20);
    cudaMalloc(&a, 4 << 20);
    cudaMemset(a, 0, 4 << 20);

    lw_one_lane_store<<<kBlocks, kThreads>>>(out, a);
    lw_one_lane_serial_scan<<<kBlocks, kThreads>>>(out, a);
    lw_one_lane_normalize<<<kBlocks, kThreads>>>(out, a, kRow);
    lw_one_lane_short_loop<<<kBlocks, kThreads>>>(out, a);
    lw_one_lane_long_body<<<kBlocks, kThreads>>>(out, a);
    lw_lane_start_trips<<<kBlocks, kThreads>>>(out, a, kRow);
    lw_lane_start_while<<<kBlocks, kThreads>>>(out, a);
    lw_lane_shift_uniform_trips<<<kBlocks, kThreads>>>(out, a, kRow);
    lw_warp_ragged_rounds<<<kBlocks, kThreads>>>(out, a);
    lw_warp_whole_rounds<<<kBlocks, kThreads>>>(out, a);
    lw_grid_stride_many_rounds<<<64, kThreads>>>(out, a, 1000000);
    cudaDeviceSynchronize();
    return 0;
}

// The host code of host_kernels.cu's kernels: every value that decides a verdict there
// is set here, in the ways real launchers set them.
#include <cstdlib>
#include <cuda_runtime.h>

#include "host_kernels.cuh"

#define D 64
constexpr int C = 768;
constexpr int NH = 12;
constexpr int kTokens = 4096;
enum Layout { kUnit = 1, kPitch = 512 };

// A launch wrapper: the block size and the bound come from its callers.
static void run_half(float* out, const float* in, int threads, int half) {
    lk_half_warp<<<kTokens / threads, threads>>>(out, in, half);
}

int main(int argc, char** argv) {
    float *out, *in;
    cudaMalloc(&out, kTokens * 64 * sizeof(float));
    cudaMalloc(&in, kTokens * 64 * sizeof(float));
    cudaMemset(in, 0, kTokens * 64 * sizeof(float));

    lk_head_stride<<<kTokens / 128, 128>>>(out, in, C / NH);
    lk_unit_stride<<<kTokens / 128, 128>>>(out, in, kUnit);

    dim3 rows(32, 8);
    lk_shared_rows<<<kTokens / 256, rows>>>(out, in, D);
    lk_shared_rows_odd<<<kTokens / 256, rows>>>(out, in, D + 1);

    for (int scale = 1; scale <= 16; scale *= 4) lk_scaled<<<kTokens / 128, 128>>>(out, in, scale);

    run_half(out, in, 256, 16);

    int pitch = kPitch;
    void* args[] = {&out, &in, &pitch};
    cudaLaunchKernel((void*)lk_row_sums, dim3(kTokens / 128), dim3(128), args, 0, 0);

    lk_argv_stride<<<kTokens / 128, 128>>>(out, in, argc > 1 ? atoi(argv[1]) : 2);

    lk_block_columns<<<1, 128>>>(out, in);

    constexpr int kPasses = 1;
    lk_decimate<<<kTokens / 128, 32>>>(out, in, kPasses);

    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}

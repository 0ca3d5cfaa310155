// The host code of open_axes.cu's kernels: each block's width is a constant, its height
// comes from the command line.
#include <cstdlib>
#include <cuda_runtime.h>

#include "open_axes.cuh"

constexpr int kWidth = 1024;
constexpr int kHeight = 1024;

int main(int argc, char** argv) {
    int rows = argc > 1 ? atoi(argv[1]) : 32;
    unsigned char *dst, *src;
    cudaMalloc(&dst, kWidth * kHeight);
    cudaMalloc(&src, kWidth * kHeight);
    cudaMemset(src, 0, kWidth * kHeight);

    dim3 column_block;
    column_block.x = 1;
    column_block.y = rows;
    dim3 column_grid(kWidth, (kHeight + rows - 1) / rows);
    oa_column_pass<<<column_grid, column_block>>>(dst, src, kWidth, kHeight);

    dim3 row_block(32, rows);
    dim3 row_grid(kWidth / 32, (kHeight + rows - 1) / rows);
    oa_row_pass<<<row_grid, row_block>>>(dst, src, kWidth, kHeight);

    cudaDeviceSynchronize();
    cudaFree(src);
    cudaFree(dst);
    return 0;
}

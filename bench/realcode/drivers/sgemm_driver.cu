// Host driver for one SGEMM kernel of siboehm/SGEMM_CUDA (bench/realcode, modern part).
// The repository's kernels are templates (tile sizes as non-type parameters) in headers;
// its own runner also times cuBLAS. This driver includes the one kernel header chosen by
// -DSGEMM_KERNEL=<number>, launches it once with the template arguments and launch shape
// of the repository's runner (src/runner.cu, its A6000 settings for inputs of 128 x 128 or
// more) and checks one element of C against a host dot product.
//
//     sgemm N            (C = A * B, all N x N, N a multiple of 128)

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#if SGEMM_KERNEL == 5
#include "kernels/5_kernel_2D_blocktiling.cuh"
#elif SGEMM_KERNEL == 7
#include "kernels/7_kernel_resolve_bank_conflicts.cuh"
#elif SGEMM_KERNEL == 10
#include "kernels/10_kernel_warptiling.cuh"
#elif SGEMM_KERNEL == 12
// Kernel 12 uses the WARPSIZE that kernel 10's header defines: the repository's
// kernels.cuh includes 10 before 12.
#include "kernels/10_kernel_warptiling.cuh"
#include "kernels/12_kernel_double_buffering.cuh"
#else
#error "build with -DSGEMM_KERNEL=5, 7, 10 or 12"
#endif

static void launch(int M, int N, int K, float alpha, float *A, float *B, float beta, float *C) {
#if SGEMM_KERNEL == 5 || SGEMM_KERNEL == 7
    constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
    const dim3 grid(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
    const dim3 block((BM * BN) / (TM * TN));
#if SGEMM_KERNEL == 5
    sgemm2DBlocktiling<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
#else
    sgemmResolveBankConflicts<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
#endif
#else
    constexpr int THREADS = 128, BN = 128, BM = 128, BK = 16, WN = 64, WM = 64, WNITER = 4, TN = 4, TM = 8;
    const dim3 grid(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
#if SGEMM_KERNEL == 10
    sgemmWarptiling<BM, BN, BK, WM, WN, WNITER, TM, TN, THREADS><<<grid, THREADS>>>(M, N, K, alpha, A, B, beta, C);
#else
    runSgemmDoubleBuffering2<BM, BN, BK, WM, WN, WNITER, TM, TN, THREADS>
        <<<grid, THREADS>>>(M, N, K, alpha, A, B, beta, C);
#endif
#endif
}

static void check(cudaError_t status, const char *what) {
    if (status != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
        std::exit(1);
    }
}

int main(int argc, char **argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 512;
    std::vector<float> a(n * n), b(n * n), c(n * n, 1.0f);
    std::srand(7);
    for (auto &x : a) x = (std::rand() % 17 - 8) / 16.0f;
    for (auto &x : b) x = (std::rand() % 17 - 8) / 16.0f;
    float *A, *B, *C;
    check(cudaMalloc(&A, a.size() * sizeof(float)), "cudaMalloc A");
    check(cudaMalloc(&B, b.size() * sizeof(float)), "cudaMalloc B");
    check(cudaMalloc(&C, c.size() * sizeof(float)), "cudaMalloc C");
    check(cudaMemcpy(A, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice), "copy A");
    check(cudaMemcpy(B, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice), "copy B");
    check(cudaMemcpy(C, c.data(), c.size() * sizeof(float), cudaMemcpyHostToDevice), "copy C");
    const float alpha = 0.5f, beta = 3.0f;
    launch(n, n, n, alpha, A, B, beta, C);
    check(cudaGetLastError(), "launch");
    check(cudaMemcpy(c.data(), C, c.size() * sizeof(float), cudaMemcpyDeviceToHost), "copy C");
    const int row = n / 3, col = n / 5;
    float expected = 0.0f;
    for (int k = 0; k < n; ++k) expected += a[row * n + k] * b[k * n + col];
    expected = alpha * expected + beta;
    std::printf("C[%d][%d] = %g (host %g)\n", row, col, c[row * n + col], expected);
    return std::fabs(c[row * n + col] - expected) <= 1e-3f * (1.0f + std::fabs(expected)) ? 0 : 1;
}

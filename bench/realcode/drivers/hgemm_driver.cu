// Host driver for one HGEMM implementation of Bruce-Lee-LY/cuda_hgemm (bench/realcode,
// modern part). The repository's own main needs gflags, OpenMP and cuBLAS for its timing
// harness; this driver only fills A (M x K) and B (N x K, the layout the repository's
// kernels read) with small random halves, calls the implementation named by
// -DHGEMM_FUNCTION=<name> once and checks one element of C against a host dot product.
//
//     hgemm M N K        (each a multiple of the implementation's block tile: 256 x 128 x 32)

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef HGEMM_FUNCTION
#error "build with -DHGEMM_FUNCTION=<the implementation's host function>"
#endif

void HGEMM_FUNCTION(half *A, half *B, half *C, size_t M, size_t N, size_t K);

static void check(cudaError_t status, const char *what) {
    if (status != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
        std::exit(1);
    }
}

int main(int argc, char **argv) {
    const size_t M = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 512;
    const size_t N = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 1024;
    const size_t K = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 512;
    std::vector<half> a(M * K), b(N * K), c(M * N);
    std::srand(7);
    for (auto &x : a) x = __float2half((std::rand() % 17 - 8) / 16.0f);
    for (auto &x : b) x = __float2half((std::rand() % 17 - 8) / 16.0f);
    half *A, *B, *C;
    check(cudaMalloc(&A, a.size() * sizeof(half)), "cudaMalloc A");
    check(cudaMalloc(&B, b.size() * sizeof(half)), "cudaMalloc B");
    check(cudaMalloc(&C, c.size() * sizeof(half)), "cudaMalloc C");
    check(cudaMemcpy(A, a.data(), a.size() * sizeof(half), cudaMemcpyHostToDevice), "copy A");
    check(cudaMemcpy(B, b.data(), b.size() * sizeof(half), cudaMemcpyHostToDevice), "copy B");
    HGEMM_FUNCTION(A, B, C, M, N, K);
    check(cudaGetLastError(), "launch");
    check(cudaMemcpy(c.data(), C, c.size() * sizeof(half), cudaMemcpyDeviceToHost), "copy C");
    const size_t row = M / 3, col = N / 5;
    float expected = 0.0f;
    for (size_t k = 0; k < K; ++k) expected += __half2float(a[row * K + k]) * __half2float(b[col * K + k]);
    const float got = __half2float(c[row * N + col]);
    std::printf("C[%zu][%zu] = %g (host %g)\n", row, col, got, expected);
    return std::fabs(got - expected) <= 0.05f * std::fabs(expected) + 0.5f ? 0 : 1;
}

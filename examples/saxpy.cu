// A small CUDA file with typical precision slips. Run: cudalint examples/
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void normalize(float* v, int n, float scale) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = v[i] * scale;
    if (fabsf(x) < 1e-6) x = 0.0f;       // double comparison
    v[i] = x * 0.5;                       // narrowed to fp32 by the compiler
    v[i] += pow(x, 2.5) * 0.1;            // fp64 pow and multiply
}

__global__ void accumulate_double(const float* in, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = static_cast<double>(in[i]) * 0.1;   // double on purpose
}

int main() {
    float *x, *y;
    cudaMalloc(&x, 1024 * sizeof(float));
    cudaMalloc(&y, 1024 * sizeof(float));
    saxpy<<<4, 256>>>(1024, 2.0f, x, y);
    normalize<<<4, 256>>>(y, 1024, 0.5f);
    cudaDeviceSynchronize();
    return 0;
}

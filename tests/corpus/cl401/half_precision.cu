// CL401 corpus: half-precision data (cuda_fp16.h) meeting double literals.
// The "measured:" lines are nvcc's fp64 PTX instruction counts (scripts/measure_fp64.py).
// Cases where NVVM rewrites double code in less obvious ways are in compiler_rewrites.cu.
#include <cuda_fp16.h>

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void hp_convert_inexact(float* out, const __half* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __half2float(in[i]) * 0.1;  // expect: CL401 warning @36 "1 fp64 operation"
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void hp_convert_exact(float* out, const __half* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __half2float(in[i]) * 0.5;  // expect: CL401 note @36 "is written in double precision"
}

// __half converts implicitly to float, which is then promoted.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void hp_implicit_float(float* out, const __half* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    out[i] = x * 0.1;  // expect: CL401 warning
}

// The double product goes to __float2half's float parameter: narrowed.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void hp_float2half_argument(__half* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __float2half(in[i] * 0.5);  // expect: CL401 note
}

// Already correct: half arithmetic.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void hp_half_arithmetic(__half* out, const __half* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __hmul(in[i], __float2half(0.5f));
}

// CL401 corpus: comparisons between float (or integer) values and double constants.
// The "measured:" lines are nvcc's fp64 PTX instruction counts (scripts/measure_fp64.py).
// Cases where NVVM rewrites double code in less obvious ways are in compiler_rewrites.cu.

// A comparison with an exact constant is narrowed to setp.f32.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_gt_zero(int* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] > 0.0;  // expect: CL401 note @22 "is written in double precision"
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_lt_half(int* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] < 0.5;  // expect: CL401 note @22 "is written in double precision"
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_eq_exact(int* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] == 1.0;  // expect: CL401 note
}

// The comparison decides between two float constants.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_selects_floats(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] >= 1.0 ? 1.0f : -1.0f;  // expect: CL401 note
}

// The classic epsilon test: 1e-6 is not exact in float, setp.f64 is executed.
// measured: fp64=2 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_epsilon(int* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = fabsf(in[i]) < 1e-6;  // expect: CL401 warning
}

// measured: fp64=2 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_lt_inexact(int* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] < 0.1;  // expect: CL401 warning
}

// A float never equals the double 0.1, but NVVM does not fold this: setp.eq.f64.
// measured: fp64=2 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_eq_inexact(int* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] == 0.1;  // expect: CL401 warning
}

// A promoted product compared with a constant: two fp64 operations.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_product(int* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 0.5 > 1.0;  // expect: CL401 warning
}

// A float compared with an int: the int converts to float, no double anywhere.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_float_int(int* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] < n;
}

// Already correct: a float literal.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_float_literal(int* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = fabsf(in[i]) < 1e-6f;
}

// CL401 corpus: what NVVM rewrites, and what it cannot.
//
// Integers compared with a double constant become integer comparisons; ternary
// arms that are constants are folded to float; pow(float, int), integer compound
// assignments and double values stored into __half really run on the fp64 units.
// Each "measured:" line is the PTX count from scripts/measure_fp64.py.
#include <cuda_fp16.h>

// An int compared with a double constant. NVVM rewrites (double)n > 0.5 as an
// integer comparison (every int is exact in double), so no fp64 is emitted
// (setp.gt.s32).
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_int_exact(int* out, const int* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] > 0.5;  // expect: CL401 note @22 "is written in double precision"
}

// The same with a constant that is not even exact in float; still folded to an
// integer comparison, no fp64.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_int_inexact(int* out, const int* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] < 0.1;  // expect: CL401 note @22 "is written in double precision"
}

// A narrow integer compared with a double constant: folded to an integer
// comparison, no fp64.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void cmp_unsigned_char(int* out, const unsigned char* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] >= 128.0;  // expect: CL401 note
}

// A compound assignment to an int with a double right-hand side. n *= 0.5 is n =
// (int)((double)n * 0.5): cvt.rn.f64.s32, mul.f64, cvt.rzi.s32.f64.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void int_compound_mul(int* out, const int* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = in[i];
    n *= 0.5;  // expect: CL401 warning
    out[i] = n;
}

// The same with +=: n = (int)((double)n + 0.5) in fp64.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void int_compound_add(int* out, const int* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = in[i];
    n += 0.5;  // expect: CL401 warning
    out[i] = n;
}

// pow(float, int): with libstdc++ in C++11 mode nvcc's crt/math_functions.h
// declares pow(float, int) as the promoting template (__gnu_cxx::__promote_2), so
// the double pow runs (__internal_accurate_pow).
// measured: fp64=143 (nvcc 13.0 sm_90 ptx)
__global__ void pow_int_exponent(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = pow(in[i], 2);  // expect: CL401 warning
}

// An exact multiply in one branch, a float-exact constant in the other. NVVM
// moves the conversion to float into both arms (fptrunc of a select with a
// constant) and narrows the multiply: no fp64.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void ternary_exact_constant(float* out, const float* in, bool flag) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = flag ? in[i] * 2.0 : 0.5;  // expect: CL401 note
}

// The constant arm need not even be exact in float: NVVM folds fptrunc(0.1) into
// the select (the same value the source computes), narrows the multiply and emits
// no fp64.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void ternary_inexact_constant(float* out, const float* in, bool flag) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = flag ? in[i] * 2.0 : 0.1;  // expect: CL401 note
}

// The double product is stored straight into a __half. __half has an operator=
// (and a constructor) taking double (__double2half), so the product is not
// converted to float first: cvt.f64.f32, mul.f64, cvt.rn.f16.f64.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void store_to_half(__half* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 0.5;  // expect: CL401 warning
}

// A double constant assigned to a __half. __half::operator=(double) calls
// __double2half, an inline-asm cvt.rn.f16.f64 that NVVM cannot fold, so the
// constant is materialised as a double and converted at run time (mov.f64,
// cvt.rn.f16.f64).
// measured: fp64=2 (nvcc 13.0 sm_90 ptx)
__global__ void half_assign_constant(__half* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 0.5;  // expect: CL401 warning
}

// CL401 corpus: unsuffixed floating literals in float arithmetic.
//
// Each case is one kernel. The "measured:" line above a kernel is the number of
// PTX instructions with an .f64 type component that nvcc emits for it
// (scripts/measure_fp64.py); a kernel stores its result to global memory so that
// nothing is optimised away.

// A single multiply by a float-exact constant: NVVM narrows it to fp32.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void lit_mul_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 2.0;  // expect: CL401 note @22 "is written in double precision"
}

// Division by an exact constant is narrowed as well (double rounding is harmless).
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void lit_div_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] / 3.0;  // expect: CL401 note @22 "is written in double precision"
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void lit_add_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1.0;  // expect: CL401 note
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void lit_sub_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] - 0.5;  // expect: CL401 note
}

// A negated exact literal is still one narrowable multiply.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void lit_mul_negative_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * -0.5;  // expect: CL401 note
}

// Hexadecimal floating literal, exact in float.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void lit_mul_hex_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 0x1p-3;  // expect: CL401 note
}

// 1e10 = 2^10 * 9765625 fits in float's 24-bit significand: exact, narrowed.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void lit_mul_large_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 1e10;  // expect: CL401 note
}

// Reciprocal with the literal on the left.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void lit_reciprocal_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 1.0 / in[i];  // expect: CL401 note
}

// 0.1 is not exact in float: the multiply really runs in fp64.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void lit_mul_inexact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 0.1;  // expect: CL401 warning
}

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void lit_add_inexact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 0.1;  // expect: CL401 warning
}

// 2^24 + 1 needs 25 significand bits: not exact in float.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void lit_mul_large_inexact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 16777217.0;  // expect: CL401 warning
}

// Two chained double operations are not narrowed, even with exact constants.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void lit_chain_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 2.0 + 1.0;  // expect: CL401 warning
}

// measured: fp64=4 (nvcc 13.0 sm_90 ptx)
__global__ void lit_chain_div(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 2.0 / 3.0;  // expect: CL401 warning
}

// The promoted product is multiplied again by a float variable: a double chain.
// measured: fp64=4 (nvcc 13.0 sm_90 ptx)
__global__ void lit_chain_variable(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 0.5 * in[i];  // expect: CL401 warning
}

// An exact constant, but the result goes to an int, not back to float.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void lit_to_int(int* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 2.0;  // expect: CL401 warning
}

// The literal only initialises a float: converted at compile time, no fp64 operation.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void lit_initializer_only(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float k = 0.1;
    out[i] = in[i] * k;
}

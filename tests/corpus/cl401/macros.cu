// CL401 corpus: double constants that come from #define.
// cudalint reports at the use of the macro. The "measured:" lines are nvcc's fp64
// PTX instruction counts (scripts/measure_fp64.py).

#define SCALE 0.1
#define HALF 0.5
#define EPSILON 1e-6
#define SCALE_F 0.1f
#define LERP(a, b, t) ((a) + ((b) - (a)) * (t))
#define TENTH_OF(x) ((x) * 0.1)

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void mc_scale_inexact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * SCALE;  // expect: CL401 warning @22 "1 fp64 operation"
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void mc_scale_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * HALF;  // expect: CL401 note @22 "is written in double precision"
}

// measured: fp64=2 (nvcc 13.0 sm_90 ptx)
__global__ void mc_epsilon(int* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = fabsf(in[i]) < EPSILON;  // expect: CL401 warning
}

// A function-like macro whose argument is the double literal.
// measured: fp64=4 (nvcc 13.0 sm_90 ptx)
__global__ void mc_lerp_literal_argument(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = LERP(in[i], in[i + 1], 0.25);  // expect: CL401 warning
}

// A function-like macro whose body holds the double literal.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void mc_literal_in_body(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = TENTH_OF(in[i]);  // expect: CL401 warning
}

// Already correct: the macro is a float literal.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void mc_float_macro(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * SCALE_F;
}

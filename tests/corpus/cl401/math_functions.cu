// CL401 corpus: math functions called on float data.
// CUDA overloads sqrt/exp/sin/pow(float, float)... for float, so a float argument
// alone stays in fp32; a double argument (or pow's double exponent) selects the
// double routine. The "measured:" lines are nvcc's fp64 PTX instruction counts
// (scripts/measure_fp64.py), libdevice routines included.
// Cases where NVVM rewrites double code in less obvious ways are in compiler_rewrites.cu.

// pow(float, double) promotes to the double pow: ~140 fp64 instructions.
// measured: fp64=143 (nvcc 13.0 sm_90 ptx)
__global__ void mf_pow_double_exponent(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = pow(in[i], 2.5);  // expect: CL401 warning @14 "1 fp64 operation"
}

// pow(float, float) is the float overload.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void mf_pow_float_exponent(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = pow(in[i], 2.5f);
}

// sqrt(float) is the float overload.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void mf_sqrt_float(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = sqrt(in[i]);
}

// The argument is already double, so the double sqrt runs.
// measured: fp64=4 (nvcc 13.0 sm_90 ptx)
__global__ void mf_sqrt_double_argument(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = sqrt(in[i] * 4.0);  // expect: CL401 warning @27 "2 fp64 operations"
}

// A Gaussian written with a double literal: the whole exp runs in fp64.
// measured: fp64=39 (nvcc 13.0 sm_90 ptx)
__global__ void mf_exp_gaussian(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    out[i] = exp(-0.5 * x * x);  // expect: CL401 warning
}

// exp(float) is the float overload.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void mf_exp_float(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = exp(in[i]);
}

// measured: fp64=50 (nvcc 13.0 sm_90 ptx)
__global__ void mf_log_double_argument(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = log(in[i] + 1.0);  // expect: CL401 warning
}

// fabs of a promoted difference: NVVM keeps both operations in fp64.
// measured: fp64=4 (nvcc 13.0 sm_90 ptx)
__global__ void mf_fabs_double_argument(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = fabs(in[i] - 1.0);  // expect: CL401 warning
}

// measured: fp64=4 (nvcc 13.0 sm_90 ptx)
__global__ void mf_floor_double_argument(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = floor(in[i] * 0.5);  // expect: CL401 warning
}

// fmax(double, double) on a promoted product. (fmax(float, double) itself does not
// compile with nvcc: it resolves to libstdc++'s host-only constexpr template.)
// measured: fp64=5 (nvcc 13.0 sm_90 ptx)
__global__ void mf_fmax_double_argument(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = fmax(in[i] * 1.5, 0.0);  // expect: CL401 warning
}

// A float function whose argument is a narrowable double product.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void mf_expf_double_argument(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = expf(in[i] * 0.5);  // expect: CL401 note
}

// A double literal passed to a float parameter is converted at compile time.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void mf_fminf_double_literal(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = fminf(in[i], 0.0);
}

// The float sqrt's result times an exact constant: one narrowable multiply.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void mf_sqrt_then_scale(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = sqrt(in[i]) * 0.5;  // expect: CL401 note
}

// The author asked for a double sqrt.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx) declared-double
__global__ void mf_sqrt_explicit_double(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = sqrt((double)in[i]);
}

// sin(float) is the float overload (sinf). Its PTX still holds 3 fp64 instructions:
// the Payne-Hanek reduction for huge arguments (|x| > 105615) in libdevice's sinf
// converts the reduced integer with cvt.rn.f64.s64 / mul.f64 / cvt.rn.f32.f64.
// That is the library's fp32 routine, not a promotion in this source: quiet.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx) library-internal
__global__ void mf_sin_float(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = sin(in[i]);
}

// min(float, double) is CUDA's double overload: cvt.f64.f32, min.f64, cvt.rn.f32.f64.
// measured: fp64=4 (nvcc 13.0 sm_90 ptx)
__global__ void mf_min_double_literal(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = min(in[i], 0.5);  // expect: CL401 warning
}

// fmaxf takes floats: the constant is converted when compiling, no fp64.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void mf_fmaxf_double_literal(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = fmaxf(in[i], 0.5);
}

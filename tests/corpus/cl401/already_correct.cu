// CL401 corpus: float code written correctly. Nothing here is reported.
// The "measured:" lines are nvcc's fp64 PTX instruction counts (scripts/measure_fp64.py).

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void ok_float_literal(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 0.1f;
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void ok_gaussian(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    out[i] = expf(-0.5f * x * x);
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void ok_sqrtf(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = sqrtf(in[i] * 4.0f);
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void ok_powf(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = powf(in[i], 2.5f);
}

// An intrinsic with a float literal.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void ok_intrinsic(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __fmul_rn(in[i], 0.1f);
}

// A double literal cast to float is a float constant.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void ok_cast_literal(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * (float)0.1;
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void ok_fmaxf(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = fmaxf(in[i], 0.0f);
}

// Integer arithmetic only.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void ok_integer(int* out, const int* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 3 / 2;
}

// sinf's PTX holds 3 fp64 instructions of libdevice's own Payne-Hanek range
// reduction (taken only for |x| > 105615); nothing in this source is promoted.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx) library-internal
__global__ void ok_sinf(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = sinf(in[i]);
}

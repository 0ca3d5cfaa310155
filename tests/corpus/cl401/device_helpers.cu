// CL401 corpus: the promotion sits in a __device__ helper called by the kernel.
// cudalint reports in the helper; the helper belongs to the case of the kernel that
// follows it. The "measured:" lines count the kernel's fp64 PTX instructions,
// including any non-inlined .func it calls (scripts/measure_fp64.py).

__device__ float dh_tenth(float x) {
    return x * 0.1;  // expect: CL401 warning @16 "1 fp64 operation"
}

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void dh_inlined_helper(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = dh_tenth(in[i]);
}

// Not inlined: the fp64 instructions live in a .func that the kernel calls.
__noinline__ __device__ float dh_tenth_noinline(float x) {
    return x * 0.1;  // expect: CL401 warning @16 "1 fp64 operation"
}

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void dh_noinline_helper(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = dh_tenth_noinline(in[i]);
}

__host__ __device__ float dh_tenth_host_device(float x) {
    return x * 0.1;  // expect: CL401 warning
}

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void dh_host_device_helper(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = dh_tenth_host_device(in[i]);
}

// One narrowable multiply in the helper's return.
__forceinline__ __device__ float dh_half(float x) {
    return x * 0.5;  // expect: CL401 note
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void dh_exact_helper(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = dh_half(in[i]);
}

// A helper that promotes an int.
__device__ float dh_index_scale(int k) {
    return k * 0.5;  // expect: CL401 warning
}

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void dh_int_helper(float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = dh_index_scale(i);
}

// Already correct.
__device__ float dh_tenth_float(float x) {
    return x * 0.1f;
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void dh_float_helper(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = dh_tenth_float(in[i]);
}

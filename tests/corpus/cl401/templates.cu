// CL401 corpus: kernel templates instantiated with float and with double.
// A template has one "measured:" line per instantiation (scripts/measure_fp64.py);
// the double instantiation is the author's choice ("declared-double"). cudalint
// reports a source location once, at the level of its float instantiation.

// x * 0.1: fp64 in the float instantiation.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx) tp_scale_inexact<double> declared-double
// measured: fp64=3 (nvcc 13.0 sm_90 ptx) tp_scale_inexact<float>
template <typename T>
__global__ void tp_scale_inexact(T* out, const T* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 0.1;  // expect: CL401 warning @22 "1 fp64 operation"
}

// x * 2.0: narrowed in the float instantiation.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx) tp_scale_exact<double> declared-double
// measured: fp64=0 (nvcc 13.0 sm_90 ptx) tp_scale_exact<float>
template <typename T>
__global__ void tp_scale_exact(T* out, const T* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 2.0;  // expect: CL401 note @22 "is written in double precision"
}

// The right way to write a precision-generic constant: T(0.1).
// measured: fp64=3 (nvcc 13.0 sm_90 ptx) tp_scale_typed<double> declared-double
// measured: fp64=0 (nvcc 13.0 sm_90 ptx) tp_scale_typed<float>
template <typename T>
__global__ void tp_scale_typed(T* out, const T* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * T(0.1);
}

// A device function template, instantiated for float by the kernel below it.
template <typename T>
__device__ T tp_tenth(T x) {
    return x * 0.1;  // expect: CL401 warning
}

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void tp_helper_inexact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = tp_tenth(in[i]);
}

template <typename T>
__device__ T tp_half(T x) {
    return x * 0.5;  // expect: CL401 note
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void tp_helper_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = tp_half(in[i]);
}

void tp_launch_all(float* f, double* d) {
    tp_scale_inexact<float><<<1, 128>>>(f, f);
    tp_scale_inexact<double><<<1, 128>>>(d, d);
    tp_scale_exact<float><<<1, 128>>>(f, f);
    tp_scale_exact<double><<<1, 128>>>(d, d);
    tp_scale_typed<float><<<1, 128>>>(f, f);
    tp_scale_typed<double><<<1, 128>>>(d, d);
}

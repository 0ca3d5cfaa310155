// CL401 corpus: double precision the author asked for. None of these is reported.
// They are tagged "declared-double" on the measured line: nvcc emits fp64 for most
// of them, and that is the point of the code.

// Double data.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx) declared-double
__global__ void id_double_data(double* out, const double* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 0.1;
}

// An explicit cast to double.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx) declared-double
__global__ void id_explicit_cast(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = (double)in[i] * 0.1;
}

// static_cast<double> of both operands' product. NVVM proves the product of two
// floats exact in double and emits mul.f32: no fp64, but nothing to report either.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx) declared-double
__global__ void id_static_cast_square(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = static_cast<double>(in[i]) * in[i];
}

// The result is stored in a double variable.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx) declared-double
__global__ void id_double_variable(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double d = in[i] * 0.1;
    out[i] = d;
}

// A double kernel parameter.
// measured: fp64=4 (nvcc 13.0 sm_90 ptx) declared-double
__global__ void id_double_parameter(float* out, const float* in, double scale) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * scale;
}

// A double constant the author named (NVVM folds it into a narrowed multiply).
// measured: fp64=0 (nvcc 13.0 sm_90 ptx) declared-double
__global__ void id_double_constant(float* out, const float* in) {
    const double k = 0.5;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * k;
}

// A device function that returns double.
__device__ double id_tenth_in_double(float x) {
    return x * 0.1;
}

// measured: fp64=3 (nvcc 13.0 sm_90 ptx) declared-double
__global__ void id_double_return(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = id_tenth_in_double(in[i]);
}

// A device function that takes double.
__device__ float id_round_to_float(double x) {
    return x;
}

// measured: fp64=3 (nvcc 13.0 sm_90 ptx) declared-double
__global__ void id_double_argument(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = id_round_to_float(in[i] * 0.1);
}

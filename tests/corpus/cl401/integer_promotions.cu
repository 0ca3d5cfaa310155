// CL401 corpus: integers promoted to double by a double literal.
// An int is not exact in float, so NVVM cannot narrow these: cvt.rn.f64.s32 and
// the fp64 operation stay. The "measured:" lines are nvcc's fp64 PTX instruction
// counts (scripts/measure_fp64.py).
// Cases where NVVM rewrites double code in less obvious ways are in compiler_rewrites.cu.

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void ip_int_times_half(float* out, const int* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 0.5;  // expect: CL401 warning @22 "1 fp64 operation"
}

// Even an exact constant and a float destination do not help an int.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void ip_int_times_two(float* out, const int* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 2.0;  // expect: CL401 warning @22 "1 fp64 operation"
}

// short and unsigned char are exact in float, but NVVM still converts them to double.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void ip_short(float* out, const short* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 0.5;  // expect: CL401 warning
}

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void ip_unsigned_char(float* out, const unsigned char* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] / 255.0;  // expect: CL401 warning
}

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void ip_long_long(float* out, const long long* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 0.5;  // expect: CL401 warning
}

// A thread index promoted to double.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void ip_thread_index(float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = threadIdx.x * 0.5;  // expect: CL401 warning
}

// Converted to float first: then it is a promoted float and the multiply is narrowed.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void ip_cast_to_float_first(float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = (float)i * 0.5;  // expect: CL401 note
}

// Already correct: an int times a float literal is float arithmetic.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void ip_float_literal(float* out, const int* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 0.5f;
}

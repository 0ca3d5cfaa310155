// CL401 corpus: compound assignment and accumulation in loops.
// The "measured:" lines are nvcc's fp64 PTX instruction counts (scripts/measure_fp64.py).
// Cases where NVVM rewrites double code in less obvious ways are in compiler_rewrites.cu.

// float s; s += 0.5: one add with an exact constant, narrowed to add.f32.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void acc_add_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = in[i];
    s += 0.5;  // expect: CL401 note @10 "is written in double precision"
    out[i] = s;
}

// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void acc_div_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = in[i];
    s /= 3.0;  // expect: CL401 note @10 "is written in double precision"
    out[i] = s;
}

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void acc_add_inexact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = in[i];
    s += 0.1;  // expect: CL401 warning
    out[i] = s;
}

// A decay factor: 0.99 is not exact in float.
// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void acc_mul_inexact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = in[i];
    s *= 0.99;  // expect: CL401 warning
    out[i] = s;
}

// An inner-loop accumulation: fp64 on every iteration.
// measured: fp64=20 (nvcc 13.0 sm_90 ptx)
__global__ void acc_loop_inexact(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < n; ++k) {
        s += in[k] * 0.1;  // expect: CL401 warning
    }
    out[i] = s;
}

// Exact constant, but the scaled value and the add form a chain of two fp64 operations.
// measured: fp64=20 (nvcc 13.0 sm_90 ptx)
__global__ void acc_loop_exact_chain(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < n; ++k) {
        s += in[k] * 0.125;  // expect: CL401 warning
    }
    out[i] = s;
}

// The loop counter is promoted to double.
// measured: fp64=20 (nvcc 13.0 sm_90 ptx)
__global__ void acc_loop_counter(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < n; ++k) {
        s += k * 0.5;  // expect: CL401 warning
    }
    out[i] = s;
}

// An exponential moving average written with a double factor.
// measured: fp64=20 (nvcc 13.0 sm_90 ptx)
__global__ void acc_moving_average(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < n; ++k) {
        s = s * 0.9 + in[k];  // expect: CL401 warning
    }
    out[i] = s;
}

// atomicAdd(float*, float): the double product is converted at the call and narrowed.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void acc_atomic_exact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&out[0], in[i] * 0.5);  // expect: CL401 note
}

// measured: fp64=3 (nvcc 13.0 sm_90 ptx)
__global__ void acc_atomic_inexact(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&out[0], in[i] * 0.1);  // expect: CL401 warning
}

// A double accumulator is the author's choice (and the usual fix for long sums).
// measured: fp64=13 (nvcc 13.0 sm_90 ptx) declared-double
__global__ void acc_double_accumulator(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double acc = 0.0;
    for (int k = 0; k < n; ++k) {
        acc += in[k];
    }
    out[i] = acc;
}

// Already correct.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void acc_loop_float(float* out, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < n; ++k) {
        s += in[k] * 0.1f;
    }
    out[i] = s;
}

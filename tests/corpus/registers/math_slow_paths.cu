// Local memory that no array of the kernel asks for: the argument reduction of the
// double-precision sin/cos/tan for |x| >= 2^31 is a function nvcc does not inline
// (__internal_trig_reduction_slowpathd), with a 40-byte stack frame in local memory.
// The float functions reduce large arguments too (|x| >= 105615), but ptxas keeps their
// 28-byte table in registers. The "ptxas:" lines are nvcc's figures for each kernel
// (scripts/measure_ptxas.py).
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

// Phases read from memory: nothing bounds them, and every large one takes the slow path.
// ptxas: registers=28 stack=40 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void rotate(const double* phase, double2* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double s, c;
        sincos(phase[i], &s, &c);  // expect: CL504 warning @9 "a 40-byte stack frame per thread"
        out[i] = make_double2(c, s);
    }
}

// The same in single precision: ptxas keeps the reduction's table in registers.
// ptxas: registers=22 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void rotate_float(const float* phase, float2* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s, c;
        sincosf(phase[i], &s, &c);
        out[i] = make_float2(c, s);
    }
}

// Two float call sites: ptxas keeps the reduction's table in a 32-byte stack frame.
// ptxas: registers=20 stack=32 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void polar_float(const float* phase, float2* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = make_float2(cosf(phase[i]), sinf(phase[i]));  // expect: CL504 warning, CL504 warning
}

// Twiddle factors of a 512-point FFT: the angle is at most 2*pi in magnitude, the slow
// path is compiled but never taken.
// ptxas: registers=28 stack=40 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void twiddle(double2* out) {
    double angle = -2.0 * 3.141592653589793 * threadIdx.x / 512.0;
    out[blockIdx.x * 512 + threadIdx.x] = make_double2(cos(angle), sin(angle));  // expect: CL504 note, CL504 note
}

// sinpi reduces exactly without a table: no stack.
// ptxas: registers=29 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void rotate_pi(const double* turns, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = sinpi(turns[i]);
}

int main() {
    const int n = 1 << 20;
    std::vector<double> phases(n);
    std::vector<float> phases_float(n);
    for (int i = 0; i < n; ++i) {
        phases[i] = 1.0e10 + 977.0 * i;
        phases_float[i] = 1.0e6f + 977.0f * (i % 4096);
    }
    double *phase, *turns;
    float* phase_float;
    double2* out;
    float2* out_float;
    cudaMalloc(&phase, n * sizeof(double));
    cudaMalloc(&turns, n * sizeof(double));
    cudaMalloc(&phase_float, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(double2));
    cudaMalloc(&out_float, n * sizeof(float2));
    cudaMemcpy(phase, phases.data(), n * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(turns, phases.data(), n * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(phase_float, phases_float.data(), n * sizeof(float), cudaMemcpyHostToDevice);

    rotate<<<n / 256, 256>>>(phase, out, n);
    rotate_float<<<n / 256, 256>>>(phase_float, out_float, n);
    polar_float<<<n / 256, 256>>>(phase_float, out_float, n);
    twiddle<<<n / 512, 512>>>(out);
    rotate_pi<<<n / 256, 256>>>(turns, (double*)out, n);

    cudaDeviceSynchronize();
    cudaFree(phase);
    cudaFree(turns);
    cudaFree(phase_float);
    cudaFree(out);
    cudaFree(out_float);
    return 0;
}

// build: -maxrregcount=40
// Kernels built with -maxrregcount=40 (the first line; configuration `max-registers`
// or compile_commands.json give it to cudalint). The "ptxas:" lines are nvcc's figures.

// 48 running sums do not fit in 40 registers.
// ptxas: registers=40 stack=136 spill-stores=312 spill-loads=220 (nvcc 13.0 sm_90)
__global__ void band_energy(const float* spectrum, float* energy, int frames) {  // expect: CL501 warning @1 "needs about 59 registers per thread"
    float band[48] = {};
    for (int f = 0; f < frames; ++f) {
#pragma unroll
        for (int b = 0; b < 48; ++b) {
            float v = spectrum[(f * 48 + b) * 128 + threadIdx.x];
            band[b] += v * v;
        }
    }
#pragma unroll
    for (int b = 0; b < 48; ++b) energy[b * 128 + threadIdx.x] = band[b];
}

// 16 sums fit.
// ptxas: registers=40 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void band_energy_16(const float* spectrum, float* energy, int frames) {
    float band[16] = {};
    for (int f = 0; f < frames; ++f) {
#pragma unroll
        for (int b = 0; b < 16; ++b) {
            float v = spectrum[(f * 16 + b) * 128 + threadIdx.x];
            band[b] += v * v;
        }
    }
#pragma unroll
    for (int b = 0; b < 16; ++b) energy[b * 128 + threadIdx.x] = band[b];
}

// Launch bounds take precedence over -maxrregcount: 256 threads x 2 blocks leave 128.
// ptxas: registers=114 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void __launch_bounds__(256, 2) band_energy_bounded(const float* spectrum, float* energy, int frames) {
    float band[48] = {};
    for (int f = 0; f < frames; ++f) {
#pragma unroll
        for (int b = 0; b < 48; ++b) {
            float v = spectrum[(f * 48 + b) * 128 + threadIdx.x];
            band[b] += v * v;
        }
    }
#pragma unroll
    for (int b = 0; b < 48; ++b) energy[b * 128 + threadIdx.x] = band[b];
}

// A 6x6 register tile of doubles (72 registers) under the 40-register cap.
// ptxas: registers=40 stack=408 spill-stores=1016 spill-loads=768 (nvcc 13.0 sm_90) outer_product<double,6>
// ptxas: registers=40 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) outer_product<float,4>
template <typename T, int N>
__global__ void outer_product(const T* x, const T* y, T* out, int k) {  // expect: CL501 warning @1 "needs about 85 registers per thread"
    T acc[N][N] = {};
    for (int s = 0; s < k; ++s) {
#pragma unroll
        for (int i = 0; i < N; ++i)
#pragma unroll
            for (int j = 0; j < N; ++j) acc[i][j] += x[(s * N + i) * 64 + threadIdx.x] * y[(s * N + j) * 64 + threadIdx.x];
    }
#pragma unroll
    for (int i = 0; i < N; ++i)
#pragma unroll
        for (int j = 0; j < N; ++j) out[(i * N + j) * 64 + threadIdx.x] = acc[i][j];
}

void run_outer(const double* xd, const double* yd, double* od, const float* xf, const float* yf, float* of, int k) {
    outer_product<double, 6><<<32, 64>>>(xd, yd, od, k);
    outer_product<float, 4><<<32, 64>>>(xf, yf, of, k);
}

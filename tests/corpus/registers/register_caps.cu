// Register pressure against the caps a kernel is built under.
// The "ptxas:" lines are nvcc's figures for each kernel (scripts/measure_ptxas.py).

// An 8x8 accumulator tile: about 64 live floats plus fragments, with room to spare
// under the 128 registers that __launch_bounds__(256, 2) leaves.
// ptxas: registers=48 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) gemm_tile<4,4>
// ptxas: registers=96 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) gemm_tile<8,8>
template <int TM, int TN>
__global__ void __launch_bounds__(256, 2) gemm_tile(const float* A, const float* B, float* C, int K) {
    float acc[TM][TN] = {};
    for (int k = 0; k < K; ++k) {
        float a[TM], b[TN];
#pragma unroll
        for (int i = 0; i < TM; ++i) a[i] = A[k * 2048 + i * 256 + threadIdx.x];
#pragma unroll
        for (int j = 0; j < TN; ++j) b[j] = B[k * 2048 + j * 256 + threadIdx.x];
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) C[(i * TN + j) * 256 + threadIdx.x] = acc[i][j];
}

// The same tile asked to fit four blocks per SM: 64 registers cannot hold it.
// ptxas: registers=48 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) gemm_tile_4<4,4>
// ptxas: registers=64 stack=112 spill-stores=268 spill-loads=188 (nvcc 13.0 sm_90) gemm_tile_4<8,8>
template <int TM, int TN>
__global__ void __launch_bounds__(256, 4) gemm_tile_4(const float* A, const float* B, float* C, int K) {  // expect: CL501 warning @1 "needs about 86 registers per thread"
    float acc[TM][TN] = {};
    for (int k = 0; k < K; ++k) {
        float a[TM], b[TN];
#pragma unroll
        for (int i = 0; i < TM; ++i) a[i] = A[k * 2048 + i * 256 + threadIdx.x];
#pragma unroll
        for (int j = 0; j < TN; ++j) b[j] = B[k * 2048 + j * 256 + threadIdx.x];
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) C[(i * TN + j) * 256 + threadIdx.x] = acc[i][j];
}

// 1024 threads per block leave 64 registers: a 96-float running window does not fit.
// ptxas: registers=32 stack=408 spill-stores=756 spill-loads=752 (nvcc 13.0 sm_90)
__global__ void __launch_bounds__(1024) window_sum(const float* in, float* out, int n) {  // expect: CL501 warning @1 "needs about 107 registers per thread"
    float window[96];
#pragma unroll
    for (int i = 0; i < 96; ++i) window[i] = in[i * 1024 + threadIdx.x];
    for (int step = 0; step < n; ++step) {
        float next = in[(96 + step) * 1024 + threadIdx.x];
#pragma unroll
        for (int i = 0; i < 95; ++i) window[i] = window[i + 1] * 0.5f + next;
        window[95] = next;
    }
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < 96; ++i) s += window[i];
    out[threadIdx.x] = s;
}

// The same window without launch bounds: up to 255 registers, no spills.
// ptxas: registers=106 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void window_sum_free(const float* in, float* out, int n) {
    float window[96];
#pragma unroll
    for (int i = 0; i < 96; ++i) window[i] = in[i * 1024 + threadIdx.x];
    for (int step = 0; step < n; ++step) {
        float next = in[(96 + step) * 1024 + threadIdx.x];
#pragma unroll
        for (int i = 0; i < 95; ++i) window[i] = window[i + 1] * 0.5f + next;
        window[95] = next;
    }
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < 96; ++i) s += window[i];
    out[threadIdx.x] = s;
}

// __maxnreg__ caps the kernel directly: 32 registers for a 48-value polynomial state.
// ptxas: registers=32 stack=120 spill-stores=116 spill-loads=116 (nvcc 13.0 sm_90)
__global__ void __maxnreg__(32) horner_bank(const float* coeffs, const float* x, float* y, int n) {  // expect: CL501 warning
    float c[48];
#pragma unroll
    for (int i = 0; i < 48; ++i) c[i] = coeffs[i];
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += gridDim.x * blockDim.x) {
        float v = x[t], r = 0.f;
#pragma unroll
        for (int i = 0; i < 48; ++i) r = r * v + c[i];
        y[t] = r;
    }
}

// __maxnreg__(128) leaves room for the same 48 coefficients.
// ptxas: registers=62 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void __maxnreg__(128) horner_bank_roomy(const float* coeffs, const float* x, float* y, int n) {
    float c[48];
#pragma unroll
    for (int i = 0; i < 48; ++i) c[i] = coeffs[i];
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += gridDim.x * blockDim.x) {
        float v = x[t], r = 0.f;
#pragma unroll
        for (int i = 0; i < 48; ++i) r = r * v + c[i];
        y[t] = r;
    }
}

// Double-precision state counts twice: 24 doubles under a cap of 40.
// ptxas: registers=40 stack=168 spill-stores=448 spill-loads=448 (nvcc 13.0 sm_90)
__global__ void __launch_bounds__(768, 2) double_state(const double* in, double* out, int n) {  // expect: CL501 warning
    double s[24];
#pragma unroll
    for (int i = 0; i < 24; ++i) s[i] = in[i * 768 + threadIdx.x];
    for (int k = 0; k < n; ++k) {
        double v = in[(24 + k) * 768 + threadIdx.x];
#pragma unroll
        for (int i = 0; i < 24; ++i) s[i] = s[i] * v + 1.0;
    }
#pragma unroll
    for (int i = 0; i < 24; ++i) out[i * 768 + threadIdx.x] = s[i];
}

// Eight doubles fit well under the same cap.
// ptxas: registers=36 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void __launch_bounds__(768, 2) double_state_small(const double* in, double* out, int n) {
    double s[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) s[i] = in[i * 768 + threadIdx.x];
    for (int k = 0; k < n; ++k) {
        double v = in[(8 + k) * 768 + threadIdx.x];
#pragma unroll
        for (int i = 0; i < 8; ++i) s[i] = s[i] * v + 1.0;
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) out[i * 768 + threadIdx.x] = s[i];
}

// A plain streaming kernel under the tightest common cap: nothing to spill.
// ptxas: registers=10 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void __launch_bounds__(1024, 2) saxpy_tight(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// 16 accumulators per thread under 1024 threads x 2 blocks (32 registers): tight, but they fit.
// ptxas: registers=32 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void __launch_bounds__(1024, 2) multi_dot(const float* x, const float* w, float* out, int n) {
    float acc[16] = {};
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        float v = x[i];
#pragma unroll
        for (int j = 0; j < 16; ++j) acc[j] += v * w[j * n + i];
    }
#pragma unroll
    for (int j = 0; j < 16; ++j) out[j * blockDim.x + threadIdx.x] = acc[j];
}

// Four accumulators under the same cap fit.
// ptxas: registers=28 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void __launch_bounds__(1024, 2) multi_dot_small(const float* x, const float* w, float* out, int n) {
    float acc[4] = {};
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        float v = x[i];
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[j] += v * w[j * n + i];
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) out[j * blockDim.x + threadIdx.x] = acc[j];
}

// 288 live floats exceed what any thread can hold, with or without a cap.
// ptxas: registers=255 stack=272 spill-stores=492 spill-loads=492 (nvcc 13.0 sm_90)
__global__ void huge_tile(const float* in, float* out, int n) {  // expect: CL501 warning
    float acc[288];
#pragma unroll
    for (int i = 0; i < 288; ++i) acc[i] = in[i * 256 + threadIdx.x];
    for (int k = 0; k < n; ++k) {
        float v = in[k];
#pragma unroll
        for (int i = 0; i < 288; ++i) acc[i] = acc[i] * v + 1.0f;
    }
#pragma unroll
    for (int i = 0; i < 288; ++i) out[i * 256 + threadIdx.x] = acc[i];
}

void launch_tiles(const float* A, const float* B, float* C, int K) {
    gemm_tile<8, 8><<<64, 256>>>(A, B, C, K);
    gemm_tile<4, 4><<<64, 256>>>(A, B, C, K);
    gemm_tile_4<8, 8><<<64, 256>>>(A, B, C, K);
    gemm_tile_4<4, 4><<<64, 256>>>(A, B, C, K);
}

// Theoretical occupancy against each of its limits: registers per thread, shared memory
// (static and dynamic, with and without the opt-in above 48 KiB), block size and blocks
// per SM. Every launch in main() is one configuration Nsight Compute measured
// (tests/gpu/occupancy_ncu.csv, scripts/occupancy_job/run.sh); the "ptxas:" lines are
// nvcc's figures for each kernel (scripts/measure_ptxas.py).
#include <cuda_runtime.h>

// A few registers: every block size is limited by warps or by blocks per SM.
// ptxas: registers=10 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void scale(const float* in, float* out, float factor, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * factor;
}

// N running products kept in registers: the register count grows with N.
// ptxas: registers=44 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) products<16>
// ptxas: registers=56 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) products<40>
// ptxas: registers=142 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) products<56>
// ptxas: registers=254 stack=24 spill-stores=24 spill-loads=24 (nvcc 13.0 sm_90) products<112>
template <int N>
__global__ void products(const float* in, float* out, int steps) {
    float acc[N];
#pragma unroll
    for (int i = 0; i < N; ++i) acc[i] = in[i * 32768 + blockIdx.x * blockDim.x + threadIdx.x];
    for (int step = 0; step < steps; ++step) {
        float x = in[step * 64 + threadIdx.x % 64];
#pragma unroll
        for (int i = 0; i < N; ++i) acc[i] = acc[i] * x + 0.5f;
    }
#pragma unroll
    for (int i = 0; i < N; ++i) out[i * 32768 + blockIdx.x * blockDim.x + threadIdx.x] = acc[i];
}

// The same 56 products asked to fit three blocks of 256 threads per SM: ptxas caps them
// at 80 registers (spilling the rest), and the cap sets the occupancy.
// ptxas: registers=80 stack=288 spill-stores=280 spill-loads=280 (nvcc 13.0 sm_90)
__global__ void __launch_bounds__(256, 3) products_bounded(const float* in, float* out, int steps) {
    float acc[56];
#pragma unroll
    for (int i = 0; i < 56; ++i) acc[i] = in[i * 32768 + blockIdx.x * blockDim.x + threadIdx.x];
    for (int step = 0; step < steps; ++step) {
        float x = in[step * 64 + threadIdx.x % 64];
#pragma unroll
        for (int i = 0; i < 56; ++i) acc[i] = acc[i] * x + 0.5f;
    }
#pragma unroll
    for (int i = 0; i < 56; ++i) out[i * 32768 + blockIdx.x * blockDim.x + threadIdx.x] = acc[i];
}

// Capped by __maxnreg__ instead: 40 registers whatever the launch.
// ptxas: registers=40 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void __maxnreg__(40) products_capped(const float* in, float* out, int steps) {
    float acc[24];
#pragma unroll
    for (int i = 0; i < 24; ++i) acc[i] = in[i * 32768 + blockIdx.x * blockDim.x + threadIdx.x];
    for (int step = 0; step < steps; ++step) {
        float x = in[step * 64 + threadIdx.x % 64];
#pragma unroll
        for (int i = 0; i < 24; ++i) acc[i] = acc[i] * x + 0.5f;
    }
#pragma unroll
    for (int i = 0; i < 24; ++i) out[i * 32768 + blockIdx.x * blockDim.x + threadIdx.x] = acc[i];
}

// A static tile of BYTES bytes per block: shared memory limits the blocks per SM.
// ptxas: registers=12 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) staged<12288>
// ptxas: registers=12 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) staged<20480>
// ptxas: registers=12 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) staged<40960>
// ptxas: registers=12 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) staged<49152>
// ptxas: registers=12 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) staged<4096>
template <int BYTES>
__global__ void staged(const float* in, float* out) {
    __shared__ float tile[BYTES / 4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = threadIdx.x; k < BYTES / 4; k += blockDim.x) tile[k] = in[k];
    __syncthreads();
    out[i] = tile[(threadIdx.x * 7) % (BYTES / 4)];
}

// Shared memory sized at the launch.
// ptxas: registers=12 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void staged_dynamic(const float* in, float* out, int words) {
    extern __shared__ float buffer[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = threadIdx.x; k < words; k += blockDim.x) buffer[k] = in[k];
    __syncthreads();
    out[i] = buffer[(threadIdx.x * 7) % words];
}

int main() {
    float *in, *out;
    cudaMalloc(&in, 64 << 20);
    cudaMalloc(&out, 64 << 20);

    // Block size alone.
    scale<<<132, 32>>>(in, out, 2.0f, 4224);
    scale<<<132, 64>>>(in, out, 2.0f, 8448);
    scale<<<132, 96>>>(in, out, 2.0f, 12672);
    scale<<<132, 200>>>(in, out, 2.0f, 26400);
    scale<<<132, 384>>>(in, out, 2.0f, 50688);
    scale<<<132, 640>>>(in, out, 2.0f, 84480);
    scale<<<132, 768>>>(in, out, 2.0f, 101376);
    scale<<<132, 1024>>>(in, out, 2.0f, 135168);

    // Registers.
    products<16><<<132, 256>>>(in, out, 64);
    products<40><<<132, 256>>>(in, out, 64);
    products<40><<<132, 128>>>(in, out, 64);
    products<56><<<132, 256>>>(in, out, 64);
    products<56><<<132, 96>>>(in, out, 64);
    products<112><<<132, 256>>>(in, out, 64);
    products<112><<<132, 512>>>(in, out, 64);
    products_bounded<<<132, 256>>>(in, out, 64);
    products_capped<<<132, 384>>>(in, out, 64);

    // Static shared memory.
    staged<4096><<<132, 128>>>(in, out);
    staged<12288><<<132, 256>>>(in, out);
    staged<20480><<<132, 64>>>(in, out);  // expect: CL503 note @5 "holds 20 of 64 warps per SM"
    staged<40960><<<132, 128>>>(in, out);  // expect: CL503 note @5 "holds 20 of 64 warps per SM"
    staged<49152><<<132, 256>>>(in, out);  // expect: CL503 note

    // Dynamic shared memory, above 48 KiB only once the kernel opts in.
    staged_dynamic<<<132, 32, 1024>>>(in, out, 256);
    staged_dynamic<<<132, 64, 7168>>>(in, out, 1792);  // expect: CL503 note
    staged_dynamic<<<132, 128, 30000>>>(in, out, 7500);  // expect: CL503 note
    staged_dynamic<<<132, 256, 49152>>>(in, out, 12288);  // expect: CL503 note
    cudaFuncSetAttribute(staged_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448);
    staged_dynamic<<<132, 512, 76800>>>(in, out, 19200);  // expect: CL503 note
    staged_dynamic<<<132, 1024, 232448>>>(in, out, 58112);  // expect: CL503 note

    cudaDeviceSynchronize();
    cudaFree(in);
    cudaFree(out);
    return 0;
}

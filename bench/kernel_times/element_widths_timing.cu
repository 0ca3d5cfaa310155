// Kernel times of array-of-structs accesses against the structure-of-arrays or
// whole-vector form of the same bytes, on the GPU at hand: cudaEvent time of each
// kernel, median of REPS launches after a warm-up, over arrays far larger than L2.
// The corpus kernels of tests/corpus/access/element_widths.cu are the same accesses.
//   nvcc -O3 -arch=sm_90 -o element_widths_timing element_widths_timing.cu && ./element_widths_timing
//
// Measured (NVIDIA H100 80GB HBM3, CUDA 13.0, N = 32 Mi threads, median of 20):
//   float3_struct          0.186 ms   float3_arrays          0.183 ms   (+1.6%)
//   float3_struct_store    0.189 ms   float3_arrays_store    0.192 ms   (-1.6%)
//   pair_copy              0.732 ms   float4_copy_2n         0.716 ms   (+2.2%)
//   particle_x             0.309 ms   array_x                0.117 ms   (2.6x)
//   bf16_chunk             0.150 ms   bf16_planes            0.155 ms   (-3.2%)
//   half8_copy             0.754 ms   float4_copy_n          0.362 ms   (2.1x)
// A float3 read or written whole (3 requests of 12 sectors for 4) and a 32-byte struct of
// two float4 copied (2 requests of 32 sectors for 16) cost what their bytes cost: the
// pieces are back-to-back instructions on the same lines, served by L1 (loads) or merged
// in L2 (stores). One field of a 24-byte struct costs 2.6x: the lines hold the unused
// fields. half8_copy is slower for another reason: __half2's own assignment operator makes
// the copy member by member, each 4-byte load waiting for the previous store (the pointers
// may alias), so fewer bytes are in flight.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <algorithm>
#include <cstdio>
#include <vector>

constexpr long N = 32L << 20;  // elements (threads) per launch
constexpr int REPS = 20;
constexpr int BLOCK = 256;

struct Pair { float4 a, b; };
struct Particle { float x, y, z, vx, vy, vz; };
struct __align__(16) Half8 { __half2 a, b, c, d; };

__global__ void float3_struct(float* out, const float3* p) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    float3 v = p[i];
    out[i] = v.x + v.y + v.z;
}
__global__ void float3_arrays(float* out, const float* x, const float* y, const float* z) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    out[i] = x[i] + y[i] + z[i];
}
__global__ void float3_struct_store(float3* out, const float* in) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    float v = in[i];
    out[i] = make_float3(v, v + 1.0f, v + 2.0f);
}
__global__ void float3_arrays_store(float* x, float* y, float* z, const float* in) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    float v = in[i];
    x[i] = v;
    y[i] = v + 1.0f;
    z[i] = v + 2.0f;
}
__global__ void pair_copy(Pair* out, const Pair* in) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    out[i] = in[i];
}
__global__ void float4_copy(float4* out, const float4* in) {  // 2N threads: the same bytes
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    out[i] = in[i];
}
__global__ void particle_x(float* out, const Particle* p) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    out[i] = p[i].x;
}
__global__ void array_x(float* out, const float* x) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    out[i] = x[i];
}
__global__ void bf16_chunk(float* out, const __nv_bfloat16* x) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 4; ++k) s += (float)x[4 * i + k];
    out[i] = s;
}
__global__ void bf16_planes(float* out, const __nv_bfloat16* x) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 4; ++k) s += (float)x[k * N + i];
    out[i] = s;
}
__global__ void half8_copy(Half8* out, const Half8* in) {  // member-wise: four 4-byte pieces
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    out[i] = in[i];
}
__global__ void float4_copy_n(float4* out, const float4* in) {
    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
    out[i] = in[i];
}

template <typename Launch>
float median_ms(Launch launch) {
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    launch();
    cudaDeviceSynchronize();
    std::vector<float> times;
    for (int r = 0; r < REPS; ++r) {
        cudaEventRecord(start);
        launch();
        cudaEventRecord(stop);
        cudaEventSynchronize(stop);
        float ms = 0.0f;
        cudaEventElapsedTime(&ms, start, stop);
        times.push_back(ms);
    }
    std::sort(times.begin(), times.end());
    return times[REPS / 2];
}

int main() {
    char *a, *b, *c, *d;
    size_t bytes = 32 * N;  // the largest array: N 32-byte pairs (1 GiB)
    cudaMalloc(&a, bytes); cudaMalloc(&b, bytes); cudaMalloc(&c, bytes); cudaMalloc(&d, bytes);
    cudaMemset(a, 0, bytes); cudaMemset(b, 0, bytes); cudaMemset(c, 0, bytes); cudaMemset(d, 0, bytes);
    dim3 grid(N / BLOCK), grid2(2 * N / BLOCK);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("device %s, N=%ld, median of %d\n", prop.name, N, REPS);
    auto report = [](const char* what, float ms, double megabytes) {
        printf("%-22s %8.3f ms  %7.2f TB/s of data\n", what, ms, megabytes / ms / 1e3);
    };
    double mb = N / 1e6;
    report("float3_struct", median_ms([&] { float3_struct<<<grid, BLOCK>>>((float*)a, (const float3*)b); }), mb * 16);
    report("float3_arrays", median_ms([&] { float3_arrays<<<grid, BLOCK>>>((float*)a, (const float*)b, (const float*)c, (const float*)d); }), mb * 16);
    report("float3_struct_store", median_ms([&] { float3_struct_store<<<grid, BLOCK>>>((float3*)a, (const float*)b); }), mb * 16);
    report("float3_arrays_store", median_ms([&] { float3_arrays_store<<<grid, BLOCK>>>((float*)a, (float*)b, (float*)c, (const float*)d); }), mb * 16);
    report("pair_copy", median_ms([&] { pair_copy<<<grid, BLOCK>>>((Pair*)a, (const Pair*)b); }), mb * 64);
    report("float4_copy_2n", median_ms([&] { float4_copy<<<grid2, BLOCK>>>((float4*)a, (const float4*)b); }), mb * 64);
    report("particle_x", median_ms([&] { particle_x<<<grid, BLOCK>>>((float*)a, (const Particle*)b); }), mb * 8);
    report("array_x", median_ms([&] { array_x<<<grid, BLOCK>>>((float*)a, (const float*)b); }), mb * 8);
    report("bf16_chunk", median_ms([&] { bf16_chunk<<<grid, BLOCK>>>((float*)a, (const __nv_bfloat16*)b); }), mb * 12);
    report("bf16_planes", median_ms([&] { bf16_planes<<<grid, BLOCK>>>((float*)a, (const __nv_bfloat16*)b); }), mb * 12);
    report("half8_copy", median_ms([&] { half8_copy<<<grid, BLOCK>>>((Half8*)a, (const Half8*)b); }), mb * 32);
    report("float4_copy_n", median_ms([&] { float4_copy_n<<<grid, BLOCK>>>((float4*)a, (const float4*)b); }), mb * 32);
    cudaError_t err = cudaDeviceSynchronize();
    printf("status %s\n", cudaGetErrorString(err));
    return err != cudaSuccess;
}

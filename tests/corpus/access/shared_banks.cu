// cudalint access corpus: shared-memory bank conflicts (wavefronts per request).
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)
// The "launch:" lines sit in the comment block right above the kernel they launch (a
// template has one per instantiation, each naming it with kernel=). The harness gives
// every pointer parameter its own zeroed device buffer (256 MiB, or bytes=), scalars
// their args: value (0 when absent), launches once to warm up, once under Nsight
// Compute, and writes the "measured:" line under its "launch:" line. Metrics are
// kernel-wide, so each kernel has ONE access instruction of interest; the rest is a
// coalesced 4-byte load in[i] / store out[i] (4 sectors/request). A "-" means the
// kernel has no access of that class. Sizes are multiples of the block: no tail warps.
// Unless noted, a kernel stores a[i] into shared memory with an access pattern, waits at
// __syncthreads(), and loads it back with the same pattern: one STS and one LDS.

// s[t]: 32 consecutive words, one per bank = 1 wavefront.
// launch: grid=256 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_contiguous(float* out, const float* a) {
    __shared__ float s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    __syncthreads();
    out[i] = s[t];
}

// s[2 * t]: two lanes per bank = 2 wavefronts.
// launch: grid=256 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=2.00 shst_wavefronts_per_request=2.00 bank_conflicts_ld=1024 bank_conflicts_st=1024 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_stride2(float* out, const float* a) {
    __shared__ float s[2 * 128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[2 * t] = a[i];  // expect: CL201 warning @5 "2-way bank conflict"
    __syncthreads();
    out[i] = s[2 * t];  // expect: CL201 warning @14 "2-way bank conflict"
}

// s[32 * t]: every lane in bank 0 = 32 wavefronts.
// launch: grid=256 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=32.00 shst_wavefronts_per_request=32.00 bank_conflicts_ld=31744 bank_conflicts_st=31744 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_stride32(float* out, const float* a) {
    __shared__ float s[32 * 128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[32 * t] = a[i];  // expect: CL201 warning
    __syncthreads();
    out[i] = s[32 * t];  // expect: CL201 warning
}

// s[33 * t]: 33 is odd, one lane per bank = 1 wavefront.
// launch: grid=256 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_stride33(float* out, const float* a) {
    __shared__ float s[33 * 128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[33 * t] = a[i];
    __syncthreads();
    out[i] = s[33 * t];
}

// s[0]: every lane reads one word (broadcast) = 1 wavefront; the store is s[t].
// launch: grid=256 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_broadcast(float* out, const float* a) {
    __shared__ float s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    __syncthreads();
    out[i] = s[0];
}

// Tile transpose through float[32][32]: the store tile[ty][tx] is a row (1 wavefront),
// the load tile[tx][ty] a column, all lanes in one bank = 32 wavefronts.
// launch: grid=32,32 block=32,32 args: n=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=32.01 shst_wavefronts_per_request=1.00 bank_conflicts_ld=1016063 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_tile32(float* out, const float* in, int n) {
    __shared__ float tile[32][32];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int idx = (blockIdx.y * 32 + ty) * n + blockIdx.x * 32 + tx;
    tile[ty][tx] = in[idx];
    __syncthreads();
    out[idx] = tile[tx][ty];  // expect: CL201 warning
}

// The padded tile float[32][33]: the column load is conflict-free = 1 wavefront.
// Measured: about 1% extra load wavefronts and conflicts (373, then 313 of 32768
// requests in two runs) in both tile kernels: noise of 1024-thread blocks, not the pattern.
// launch: grid=32,32 block=32,32 args: n=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.01 shst_wavefronts_per_request=1.00 bank_conflicts_ld=373 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_tile33(float* out, const float* in, int n) {
    __shared__ float tile[32][33];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int idx = (blockIdx.y * 32 + ty) * n + blockIdx.x * 32 + tx;
    tile[ty][tx] = in[idx];
    __syncthreads();
    out[idx] = tile[tx][ty];
}

// double s[t]: 8 bytes a lane, 256 bytes of consecutive words.
// launch: grid=256 block=128
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=2.00 shst_wavefronts_per_request=2.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_double(float* out, const double* a) {
    __shared__ double s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    __syncthreads();
    out[i] = static_cast<float>(s[t]);
}

// unsigned char s[t]: 1 byte a lane, 32 bytes in 8 banks = 1 wavefront.
// launch: grid=256 block=128
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_char(float* out, const unsigned char* a) {
    __shared__ unsigned char s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    __syncthreads();
    out[i] = static_cast<float>(s[t]);
}

// float4 s[t]: 16 bytes a lane, 512 bytes (one 128-bit LDS/STS).
// launch: grid=256 block=128
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=4.00 shst_wavefronts_per_request=4.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_float4(float* out, const float4* a) {
    __shared__ float4 s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    __syncthreads();
    float4 v = s[t];
    out[i] = (v.x + v.y) + (v.z + v.w);
}

struct SmVec3 {
    float x, y, z;
};

struct SmVec4 {
    float x, y, z, w;
};

// AoS in shared: s[t].y with 3-word structs, lanes 3 banks apart (3 is odd) = 1 wavefront.
// launch: grid=256 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_aos3(float* out, const float* a) {
    __shared__ SmVec3 s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t].y = a[i];
    __syncthreads();
    out[i] = s[t].y;
}

// AoS in shared: s[t].x with 4-word structs, lanes 4 banks apart = 4 wavefronts.
// launch: grid=256 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=4.00 shst_wavefronts_per_request=4.00 bank_conflicts_ld=3072 bank_conflicts_st=3072 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_aos4(float* out, const float* a) {
    __shared__ SmVec4 s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t].x = a[i];  // expect: CL201 warning
    __syncthreads();
    out[i] = s[t].x;  // expect: CL201 warning
}

// Interleaved tree reduction: s[2 * stride * t] += s[2 * stride * t + stride] for
// stride = 1, 2, 4, ...: the conflict degree grows with the stride, so the kernel-wide
// figures are an average over the iterations (two LDS and one STS in the loop, plus the
// contiguous s[t] store before it). Thread 0 stores the block's sum. Measured: fewer
// than 1 wavefront per instruction, since warps whose threads all fail idx < blockDim.x
// still execute the (predicated-off) LDS/STS, which counts as an instruction with no wavefront.
// launch: grid=256 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=0.82 shst_wavefronts_per_request=0.84 bank_conflicts_ld=7680 bank_conflicts_st=3840 branch_divergent_targets=0 pred_on_ratio=19.73 gld_requests_per_warp=1.00 gst_requests_per_warp=0.25 shld_requests_per_warp=14.25 shst_requests_per_warp=8.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void sm_reduce_interleaved(float* out, const float* a) {
    __shared__ float s[128];
    unsigned int t = threadIdx.x;
    s[t] = a[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        unsigned int idx = 2 * stride * t;
        if (idx < blockDim.x) {  // expect: CL301 warning @9 "16 of 32 lanes take it"
            s[idx] += s[idx + stride];  // expect: CL201 warning, CL201 warning
        }
        __syncthreads();
    }
    if (t == 0) {  // expect-miss: CL301 one lane's short body: the model counts a single lane's store as predicated and cheap; measured, it idles 1.4% of this short kernel's lane slots (the yardstick counts from 0.5%)
        out[blockIdx.x] = s[0];
    }
}

// cudalint dataflow corpus: values that pass through device functions (reference and
// pointer out-parameters, helpers with several returns, a conversion operator that hands
// out the dynamic shared memory), intrinsics whose result keeps a known relation to the
// lane (24-bit multiplies, bit counts, shuffles, votes), and min()/max() over mixed
// operands in device and host code, as nvcc declares them.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)
// The "launch:" lines sit in the comment block right above the kernel they launch (a
// template has one per instantiation, each naming it with kernel=). The harness gives
// every pointer parameter its own zeroed device buffer (256 MiB, or bytes=), scalars
// their args: value (0 when absent), dynamic shared memory its shmem= bytes, and launches
// the kernels of the file in order, once to warm up and once under Nsight Compute.
// Run of the recorded lines (H100, sm_90): the sectors, bank conflicts and divergent
// branch targets the comments predict; df_min_overloads averages its two loads (8 and 4
// sectors per request).

// Quotient and remainder through reference out-parameters.
__device__ void df_divmod(int value, int divisor, int& quotient, int& remainder) {
    quotient = value / divisor;
    remainder = value - quotient * divisor;
}

// Transpose of a 64 x 128 matrix through df_divmod: row is blockIdx.x and col
// threadIdx.x (width 128 = the block), so out[col * 64 + row] puts lanes 64 floats (256
// bytes) apart: 32 sectors per store where 4 would do. The load in[i] is coalesced.
// launch: grid=64 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=32.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_transpose_by_divmod(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int row, col;
    df_divmod(i, 128, row, col);
    out[col * 64 + row] = in[i];  // expect: CL101 warning @5 "32 sectors per request where 4 would do"
}

// A lane number written through a pointer out-parameter: half of every warp takes the
// branch, which guards several statements: divergent.
__device__ void df_lane_of(int* lane) {
    *lane = threadIdx.x % 32;
}

// launch: grid=64 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=512 pred_on_ratio=24.50 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_pointer_out_param(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = 0;
    df_lane_of(&lane);
    float v = in[i];
    if (lane < 16) {  // expect: CL301 warning @5 "16 of 32 lanes take it"
        v = v * v;
        v = sqrtf(v + 1.0f);
        v = v * 0.5f;
    }
    out[i] = v;
}

// A helper with two returns: the index it gives is still exact per lane. Lanes of a
// warp get consecutive mirrored indices, doubled: 8 bytes apart, 8 sectors for 4 of data.
__device__ int df_mirror(int t, int n) {
    if (t < n / 2) {
        return t;
    }
    return n - 1 - t;
}

// launch: grid=64 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_mirrored_gather(float* out, const float* in) {
    int t = threadIdx.x;
    int m = df_mirror(t, 256);
    out[blockIdx.x * blockDim.x + t] = in[blockIdx.x * 512 + 2 * m];  // expect: CL101 warning @40 "8 sectors per request where 4 would do"
}

// The dynamic shared memory handed out by a conversion operator, as reduction codes do
// to use one extern array from a kernel template.
template <class T>
struct DfDynamicShared {
    __device__ operator T*() {
        extern __shared__ int df_dynamic_words[];
        return (T*)df_dynamic_words;
    }
};

// Interleaved tree reduction in the dynamic shared memory: at stride s lane t adds
// sdata[2st + s] into sdata[2st], words 2s apart: a 2-, 4- and then 8-way bank conflict
// (at s = 4 the first warp's 32 lanes are all active). The branch on
// `index < blockDim.x` leaves half of the first warp idle at s = 8.
// launch: kernel=df_reduce_interleaved_dynamic<float> grid=64 block=256 shmem=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=0.74 shst_wavefronts_per_request=0.76 bank_conflicts_ld=4480 bank_conflicts_st=2240 branch_divergent_targets=0 pred_on_ratio=19.49 gld_requests_per_warp=1.00 gst_requests_per_warp=0.12 shld_requests_per_warp=16.12 shst_requests_per_warp=9.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
template <class T>
__global__ void df_reduce_interleaved_dynamic(T* out, const T* in) {
    T* sdata = DfDynamicShared<T>();
    unsigned int t = threadIdx.x;
    sdata[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned int s = 1; s < blockDim.x; s *= 2) {
        unsigned int index = 2 * s * t;
        if (index < blockDim.x) {  // expect: CL301 warning @9 "16 of 32 lanes take it"
            sdata[index] += sdata[index + s];  // expect: CL201 warning, CL201 warning
        }
        __syncthreads();
    }
    if (t == 0) {  // expect-miss: CL301 one lane's short body: the model counts a single lane's store as predicated and cheap; measured, it idles 0.64% of this short kernel's lane slots (the yardstick counts from 0.5%)
        out[blockIdx.x] = sdata[0];
    }
}

// The last warp's steps in a helper over a volatile shared pointer: lanes read 32
// consecutive words (no conflict) and the stores go to shared memory, not global.
template <class T>
__device__ void df_warp_tail(volatile T* sdata, unsigned int t) {
    sdata[t] += sdata[t + 32];
    sdata[t] += sdata[t + 16];
    sdata[t] += sdata[t + 8];
    sdata[t] += sdata[t + 4];
    sdata[t] += sdata[t + 2];
    sdata[t] += sdata[t + 1];
}

// Sequential reduction in the dynamic shared memory, finished by df_warp_tail: every
// access is conflict-free; `t < s` splits no warp while s >= 32.
// launch: kernel=df_reduce_sequential_dynamic<float> grid=64 block=256 shmem=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=0.56 shst_wavefronts_per_request=0.67 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=26.02 gld_requests_per_warp=1.00 gst_requests_per_warp=0.12 shld_requests_per_warp=5.62 shst_requests_per_warp=3.75 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
template <class T>
__global__ void df_reduce_sequential_dynamic(T* out, const T* in) {
    T* sdata = DfDynamicShared<T>();
    unsigned int t = threadIdx.x;
    sdata[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (t < s) {  // expect-miss: CL301 no warp splits (s >= 64): nvcc predicates the body, so the warps that skip it still issue it with every lane off (14% of lane slots), which the yardstick counts as idle lanes
            sdata[t] += sdata[t + s];
        }
        __syncthreads();
    }
    if (t < 32) {
        df_warp_tail(sdata, t);
    }
    if (t == 0) {  // expect-miss: CL301 one lane's short body: the model counts a single lane's store as predicated and cheap; measured, it idles 1.9% of this short kernel's lane slots (the yardstick counts from 0.5%)
        out[blockIdx.x] = sdata[0];
    }
}

// The host code that launches both reductions (256 threads, 1 KB of dynamic shared
// memory), with min() over an int and an unsigned in host code, as nvcc accepts it.
void df_launch_reductions(float* out, const float* in, int n, cudaStream_t stream) {
    unsigned int blocks = min(n / 256, 64u);
    df_reduce_interleaved_dynamic<float><<<blocks, 256, 256 * sizeof(float), stream>>>(out, in);
    df_reduce_sequential_dynamic<float><<<blocks, 256, 256 * sizeof(float), stream>>>(out, in);
}

// 24-bit multiplies in the index: __umul24(blockIdx.x, blockDim.x) + threadIdx.x is the
// usual global index; doubled, lanes are 8 bytes apart (8 sectors for 4 of data).
// launch: grid=64 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_mul24_index(float* out, const float* in) {
    unsigned int i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
    int j = __mul24((int)blockIdx.x, (int)blockDim.x) + (int)threadIdx.x;
    out[i] = in[2 * j];  // expect: CL101 warning
}

// Warp-aggregated append: lane 0 reserves 32 slots with one atomicAdd and broadcasts the
// start with __shfl_sync from lane 0, the same for the whole warp; out[start + lane] is
// then contiguous (4 or 5 sectors). The vote and the bit count give each lane a rank
// among the lanes with a positive value: __popc of a lane mask is exact per lane.
// launch: grid=64 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=512 pred_on_ratio=23.10 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_warp_aggregated_append(float* out, int* counter, const float* in, int* ranks) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int start = 0;
    if (lane == 0) {
        start = atomicAdd(counter, 32);
    }
    start = __shfl_sync(0xffffffffu, start, 0);
    out[start + lane] = in[i];
    unsigned int positive = __ballot_sync(0xffffffffu, in[i] > 0.0f);
    ranks[i] = __popc(positive & ((1u << lane) - 1u)) + __ffs(positive) + __clz(positive);
}

// min() over unsigned and int operands keeps the lane index exact: min(t, 31u) is the
// lane in the first warp; doubled, lanes are 8 bytes apart.
// launch: grid=64 block=256
// measured: gld_sectors_per_request=6.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_min_overloads(float* out, const float* in) {
    unsigned int t = threadIdx.x;
    unsigned int capped = min(t, 255u);
    int signed_capped = max((int)t, 0);
    out[blockIdx.x * blockDim.x + t] = in[blockIdx.x * 512 + 2 * capped] + in[signed_capped];  // expect: CL101 warning
}

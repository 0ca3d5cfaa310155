// cudalint shared corpus: neighbouring words that nvcc merges into one wider access.
// A lane that loads (or stores) s[2t] and s[2t + 1] of a float array, with nothing in
// between, gets one 8-byte LDS/STS of s[2t]: conflict-free (2 wavefronts, ideal 2), on
// the line of one of the two statements. Words that cannot be merged (the pair starts
// at an odd word) stay 4-byte accesses with stride 2: 2-way conflicts. Merged words
// with a stride of two pairs (s[4t], s[4t + 1]) are an 8-byte access with stride 2:
// 2-way. Launch lines use scripts/measure_gpu.py's format (`--lines` measures per line).

// launch: grid=8 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=2.00 shst_wavefronts_per_request=2.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void mw_pair_stores_and_loads(float* out, const float* in) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[2 * t] = in[blockIdx.x * 256 + t];
    s[2 * t + 1] = in[blockIdx.x * 256 + t + 128];
    __syncthreads();
    float even = s[2 * t];
    float odd = s[2 * t + 1];
    out[blockIdx.x * 128 + t] = even * odd;
}

// One statement, two neighbouring words, in dynamic shared memory.
// launch: grid=8 block=128 shmem=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=2.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=2.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void mw_pair_in_one_expression(float* out, const float* in) {
    extern __shared__ float dyn[];
    int t = threadIdx.x;
    dyn[t] = in[blockIdx.x * 256 + t];
    dyn[t + 128] = in[blockIdx.x * 256 + t + 128];
    __syncthreads();
    out[blockIdx.x * 128 + t] = dyn[2 * t] + dyn[2 * t + 1];
}

// The pair starts at an odd word: no 8-byte access can hold it.
// launch: grid=8 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=2.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=64 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.57 gld_requests_per_warp=3.00 gst_requests_per_warp=1.00 shld_requests_per_warp=2.00 shst_requests_per_warp=3.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void mw_pair_misaligned(float* out, const float* in) {
    __shared__ float s[384];
    int t = threadIdx.x;
    for (int k = t; k < 384; k += 128) s[k] = in[blockIdx.x * 384 + k];
    __syncthreads();
    float left = s[2 * t + 1];  // expect: CL201 warning @18 "2-way bank conflict"
    float right = s[2 * t + 2];  // expect: CL201 warning @19 "2-way bank conflict"
    out[blockIdx.x * 128 + t] = left - right;
}

// Merged into 8-byte words two pairs apart: an 8-byte stride-2 access.
// launch: grid=8 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=4.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=64 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.57 gld_requests_per_warp=4.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=4.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void mw_pairs_two_apart(float* out, const float* in) {
    __shared__ float s[512];
    int t = threadIdx.x;
    for (int k = t; k < 512; k += 128) s[k] = in[blockIdx.x * 512 + k];
    __syncthreads();
    float low = s[4 * t];  // expect: CL201 warning
    float high = s[4 * t + 1];  // expect: CL201 warning
    out[blockIdx.x * 128 + t] = low + high;
}

// A barrier between the two stores keeps them apart: two 4-byte stride-2 stores.
// launch: grid=8 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=2.00 bank_conflicts_ld=0 bank_conflicts_st=64 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=2.00 shst_requests_per_warp=2.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void mw_pair_split_by_barrier(float* out, const float* in) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[2 * t] = in[blockIdx.x * 256 + t];  // expect: CL201 warning
    __syncthreads();
    s[2 * t + 1] = in[blockIdx.x * 256 + t + 128];  // expect: CL201 warning
    __syncthreads();
    out[blockIdx.x * 128 + t] = s[t] + s[255 - t];
}

void mw_launch_all(float* out, const float* in) {
    mw_pair_stores_and_loads<<<8, 128>>>(out, in);
    mw_pair_in_one_expression<<<8, 128, 1024>>>(out, in);
    mw_pair_misaligned<<<8, 128>>>(out, in);
    mw_pairs_two_apart<<<8, 128>>>(out, in);
    mw_pair_split_by_barrier<<<8, 128>>>(out, in);
}

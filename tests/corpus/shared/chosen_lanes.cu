// cudalint shared corpus: accesses that only some lanes run, chosen by a condition,
// and addresses that come from data.
// Only the lanes that choose an arm of `c ? a : b` run the loads in it; one lane cannot
// conflict; data-dependent indices (a histogram's bins) hit whatever banks the data
// says. Launch lines use scripts/measure_gpu.py's format (`--lines` measures per line).

// The first 8 lanes read 32 words apart (8-way); the others take the constant arm.
// launch: grid=8 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=8.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=224 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=29.22 gld_requests_per_warp=8.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=8.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void cl_strided_arm(float* out, const float* in) {
    __shared__ float s[1024];
    int t = threadIdx.x;
    for (int k = t; k < 1024; k += 128) s[k] = in[blockIdx.x * 1024 + k];
    __syncthreads();
    float v = (t % 32) < 8 ? s[32 * (t % 32) + t / 32] : 0.0f;  // expect: CL201 warning @30 "8-way bank conflict"
    out[blockIdx.x * 128 + t] = v;
}

// Lanes 0-3 of each warp read neighbouring pairs of words: merged into 8-byte loads,
// four lanes, one wavefront.
// launch: grid=8 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.25 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=2.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void cl_paired_arms(float* out, const float* in) {
    __shared__ float x[256];
    int t = threadIdx.x, lane = t % 32;
    x[t] = in[blockIdx.x * 256 + t];
    x[t + 128] = in[blockIdx.x * 256 + t + 128];
    __syncthreads();
    float mean = lane < 4 ? x[lane * 2] : 0.0f;
    float m2 = lane < 4 ? x[lane * 2 + 1] : 0.0f;
    out[blockIdx.x * 128 + t] = mean + m2;
}

// One thread, chosen by the launch, copies its row of 16 bytes: no conflict, 31 idle lanes.
// launch: grid=8 block=256 args: pick=5
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=4.00 bank_conflicts_ld=0 bank_conflicts_st=3072 branch_divergent_targets=0 pred_on_ratio=30.57 gld_requests_per_warp=16.00 gst_requests_per_warp=2.00 shld_requests_per_warp=2.00 shst_requests_per_warp=16.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void cl_one_chosen_lane(unsigned char* out, const unsigned char* in, int pick) {
    __shared__ unsigned char rows[16 * 256];
    unsigned char* row = &rows[threadIdx.x * 16];
    for (int i = 0; i < 16; i++) row[i] = in[(blockIdx.x * 16 + i) * 256 + threadIdx.x];  // expect: CL201 warning @34 "4-way bank conflict"
    __syncthreads();
    if (pick == threadIdx.x) {  // known false positive: CL301 warning measured clean only because nvcc puts this branch on line 43's loop, where the chosen lane's 16 trips idle the other 31 (4% of lane slots)
        for (int i = 0; i < 16; i++) out[blockIdx.x * 16 + i] = row[i];
    }
}

// A histogram in shared memory: the bins each lane updates are the data's.
// launch: grid=8 block=256
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void cl_histogram(unsigned* out, const unsigned char* in) {
    __shared__ unsigned bins[256];
    int t = threadIdx.x;
    bins[t] = 0;
    __syncthreads();
    atomicAdd(&bins[in[blockIdx.x * 256 + t]], 1u);
    __syncthreads();
    out[blockIdx.x * 256 + t] = bins[t];
}

void cl_launch_all(float* out, const float* in, unsigned char* bytes, const unsigned char* in_bytes, unsigned* counts) {
    cl_strided_arm<<<8, 128>>>(out, in);
    cl_paired_arms<<<8, 128>>>(out, in);
    cl_one_chosen_lane<<<8, 256>>>(bytes, in_bytes, 5);
    cl_histogram<<<8, 256>>>(counts, in_bytes);
}

// cudalint shared corpus: the trips of a loop nvcc unrolls are instructions of their own.
// The last merge of a bitonic sort over 256 words with 128 threads walks j = 128, 64,
// ..., 1 and compares s[pos] with s[pos + j], pos = 2t - (t & (j - 1)): for j = 1 to 16
// the lanes of a warp ask for 32 words spread over 64 (2 wavefronts, 2-way), for
// j = 32 to 128 for 32 contiguous words (1). With a constant trip count nvcc unrolls
// the loop: each trip is an instruction of its own, and five of the eight show 2x
// in Nsight Compute, as a line's costliest instruction. Kept rolled (#pragma unroll 1),
// one instruction serves every trip and shows their sum: 13 wavefronts for 8, 1.6x.

// launch: grid=64 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.53 shst_wavefronts_per_request=1.53 bank_conflicts_ld=2048 bank_conflicts_st=2048 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=17.00 shst_requests_per_warp=17.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ut_bitonic_merge_unrolled(unsigned* out, const unsigned* in) {
    __shared__ unsigned s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    s[t + 128] = in[blockIdx.x * 256 + t + 128];
    __syncthreads();
    for (unsigned j = 128; j > 0; j >>= 1) {
        unsigned pos = 2 * t - (t & (j - 1));
        unsigned a = s[pos], b = s[pos + j];  // expect: CL201 warning, CL201 warning
        __syncthreads();
        s[pos] = min(a, b);  // expect: CL201 warning
        s[pos + j] = max(a, b);  // expect: CL201 warning
        __syncthreads();
    }
    out[blockIdx.x * 256 + t] = s[t];
    out[blockIdx.x * 256 + t + 128] = s[t + 128];
}

// launch: grid=64 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.56 shst_wavefronts_per_request=1.56 bank_conflicts_ld=2560 bank_conflicts_st=2560 branch_divergent_targets=0 pred_on_ratio=31.80 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=18.00 shst_requests_per_warp=18.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ut_bitonic_merge_rolled(unsigned* out, const unsigned* in) {
    __shared__ unsigned s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    s[t + 128] = in[blockIdx.x * 256 + t + 128];
    __syncthreads();
#pragma unroll 1
    for (unsigned j = 128; j > 0; j >>= 1) {
        unsigned pos = 2 * t - (t & (j - 1));
        unsigned a = s[pos], b = s[pos + j];
        __syncthreads();
        s[pos] = min(a, b);
        s[pos + j] = max(a, b);
        __syncthreads();
    }
    out[blockIdx.x * 256 + t] = s[t];
    out[blockIdx.x * 256 + t + 128] = s[t + 128];
}

void ut_launch_all(unsigned* out, const unsigned* in) {
    ut_bitonic_merge_unrolled<<<64, 128>>>(out, in);
    ut_bitonic_merge_rolled<<<64, 128>>>(out, in);
}

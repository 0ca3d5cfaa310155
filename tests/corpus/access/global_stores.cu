// cudalint access corpus: global stores (the access of interest is the store out[...]).
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

// out[i + 1]: a misaligned store, 5 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=5.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gs_misaligned(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i + 1] = a[i];
}

// out[2 * i]: 8 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=8.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gs_stride2(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[2 * i] = a[i];  // expect: CL101 warning @5 "8 sectors per request where 4 would do"
}

// out[32 * i]: 32 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=32.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gs_stride32(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[32 * i] = a[i];  // expect: CL101 warning @5 "32 sectors per request where 4 would do"
}

// out[i * stride], stride = 4 at run time: 16 sectors.
// launch: grid=128 block=256 args: stride=4
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=16.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gs_stride_param(float* out, const float* a, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i * stride] = a[i];  // expect: CL101 note
}

// cudalint access corpus: indices computed through helpers, macros and template constants.
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

__device__ int gi_twice(int i) {
    return 2 * i;
}

// a[gi_twice(i)]: the index comes from a __device__ helper, 2 * i = 8 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gi_helper(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[gi_twice(i)];  // expect: CL101 warning @14 "8 sectors per request where 4 would do"
}

#define GI_SPREAD(i) ((i) * 4)

// a[GI_SPREAD(i)]: the index comes from a macro, 4 * i = 16 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gi_macro(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[GI_SPREAD(i)];  // expect: CL101 warning @14 "16 sectors per request where 4 would do"
}

// a[i * S] with a template constant: S = 1 coalesced, S = 8 a sector per lane.
// launch: kernel=gi_template_stride<1> grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
// launch: kernel=gi_template_stride<8> grid=128 block=256
// measured: gld_sectors_per_request=32.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
template <int S>
__global__ void gi_template_stride(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i * S];  // expect: CL101 note
}

template __global__ void gi_template_stride<1>(float*, const float*);
template __global__ void gi_template_stride<8>(float*, const float*);

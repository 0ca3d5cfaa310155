// cudalint access corpus: element types and array-of-structs field loads from global memory.
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

// float2 whole-element load: 8 bytes a lane, 256 bytes = 8 sectors (one 64-bit load).
// launch: grid=128 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gt_float2(float* out, const float2* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float2 v = a[i];
    out[i] = v.x + v.y;
}

// float4 whole-element load: 16 bytes a lane, 512 bytes = 16 sectors (one 128-bit load).
// launch: grid=128 block=256
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gt_float4(float* out, const float4* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = a[i];
    out[i] = (v.x + v.y) + (v.z + v.w);
}

// a[i].x on float4 (AoS field): a 4-byte load, lanes 16 bytes apart = 16 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gt_float4_x(float* out, const float4* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i].x;  // expect: CL102 warning @14 "16 sectors per request for 4 sectors of data"
}

struct GtVec3 {
    float x, y, z;
};

// p[i].y on a struct of 3 floats: lanes 12 bytes apart, 384 bytes = 12 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=12.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gt_struct3_y(float* out, const GtVec3* p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = p[i].y;  // expect: CL102 warning @14 "12 sectors per request for 4 sectors of data"
}

// double d[i]: 8 bytes a lane = 8 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gt_double(float* out, const double* d) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = static_cast<float>(d[i]);
}

// unsigned char c[i]: 32 bytes = 1 sector.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gt_char(float* out, const unsigned char* c) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = static_cast<float>(c[i]);
}

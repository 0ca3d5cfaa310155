// cudalint access corpus: global loads, 1-D index shapes (hardware truth for coalescing).
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

// a[i]: a warp reads 32 consecutive floats, 128 aligned bytes = 4 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gl_contiguous(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i];
}

// a[i + 1]: the same 128 bytes shifted by 4, straddling 5 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=5.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gl_misaligned(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i + 1];
}

// a[2 * i]: every other float, 256 bytes = 8 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gl_stride2(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[2 * i];  // expect: CL101 warning @14 "8 sectors per request where 4 would do"
}

// a[32 * i]: one float per 128 bytes, a sector per thread = 32 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=32.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gl_stride32(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[32 * i];  // expect: CL101 warning @14 "32 sectors per request where 4 would do"
}

// a[i * stride] with a runtime stride of 1: coalesced.
// launch: grid=128 block=256 args: stride=1
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gl_stride_param(float* out, const float* a, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i * stride];  // expect: CL101 note
}

// The same code with a runtime stride of 4: 512 bytes = 16 sectors.
// launch: grid=128 block=256 args: stride=4
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gl_stride_param4(float* out, const float* a, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i * stride];  // expect: CL101 note
}

// a[blockIdx.x]: every thread of the warp reads the same float = 1 sector.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gl_broadcast(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[blockIdx.x];
}

// a[i / 2]: pairs of threads share a float, 64 bytes = 2 sectors.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=2.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gl_half_index(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i / 2];
}

// p = a + blockIdx.x * blockDim.x; p[threadIdx.x]: a block-aligned base, coalesced.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gl_ptr_block(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = a + blockIdx.x * blockDim.x;
    out[i] = p[threadIdx.x];
}

// p = a + off; p[i] with off = 1: misaligned by 4 bytes, like a[i + 1].
// launch: grid=128 block=256 args: off=1
// measured: gld_sectors_per_request=5.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gl_ptr_offset(float* out, const float* a, int off) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = a + off;
    out[i] = p[i];
}

// The same code with off = 32 (128 bytes): aligned again.
// launch: grid=128 block=256 args: off=32
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void gl_ptr_offset32(float* out, const float* a, int off) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = a + off;
    out[i] = p[i];
}

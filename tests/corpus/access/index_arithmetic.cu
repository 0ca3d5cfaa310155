// cudalint dataflow corpus: flat thread indices decomposed with `/` and `%` (by constants,
// by run-time row lengths, through fast-division helpers and layout functors), block-stride
// loops, and a stride the kernel asserts equal to 1. Consecutive lanes stay consecutive
// within a row: `i % W` over consecutive `i` walks along the row, and a warp crosses at
// most one row end when rows are at least a warp long.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)
// The "launch:" lines sit in the comment block right above the kernel they launch.
#include <cassert>

// Rows of 64 elements, decomposed by constants: y * 64 + x is i again. 4 sectors per request.
// launch: grid=64 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ia_flat_constant(const float* in, float* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int x = i % 64;
    const int y = i / 64;
    out[y * 64 + x] = in[y * 64 + x] * 2.0f;
}

// Rows of W elements stored with a pitch of ld: lanes walk along a row, and a warp that
// crosses a row end jumps to the next row's start. W = 1024, ld = 1056: 4 sectors.
// launch: grid=64 block=256 args: W=1024 ld=1056 n=16384
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=27.73 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ia_flat_pitched(const float* in, float* out, int W, int ld, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const int x = i % W;
    const int y = i / W;
    out[y * ld + x] = in[y * ld + x];
}

// The same decomposition written to a transposed layout: consecutive lanes write H floats
// apart, a sector each. 32 sectors per store request.
// launch: grid=64 block=256 args: W=1024 H=16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=32.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=27.54 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ia_flat_transposed(const float* in, float* out, int W, int H) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= W * H) return;
    const int x = i % W;
    const int y = i / W;
    out[x * H + y] = in[i];  // expect: CL101 warning @5 "32 sectors per request where 4 would do"
}

// Division by a run-time divisor through a multiply-high and a shift, as fast-division
// helpers do: x + y * d is i again. 4 sectors.
struct fast_divisor {
    unsigned multiplier;
    unsigned shift;
    unsigned divisor;
};
static __device__ __forceinline__ unsigned fast_div(unsigned n, const fast_divisor& f) {
    return (__umulhi(n, f.multiplier) + n) >> f.shift;
}
static __device__ __forceinline__ unsigned fast_mod(unsigned n, const fast_divisor& f) {
    return n - fast_div(n, f) * f.divisor;
}
// launch: grid=64 block=256 args: multiplier=1 shift=10 divisor=1024 n=16384
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ia_fast_division(const float* in, float* out, unsigned multiplier, unsigned shift, unsigned divisor,
                                 unsigned n) {
    const fast_divisor row = {multiplier, shift, divisor};
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const unsigned x = fast_mod(i, row);
    const unsigned y = fast_div(i, row);
    out[y * row.divisor + x] = in[i];
}

// A layout functor mapping (row, column) to a pitched offset. 4 sectors.
struct pitched_layout {
    int pitch;
    __device__ int operator()(int r, int c) const { return r * pitch + c; }
};
// launch: grid=64 block=256 args: W=1024 pitch=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=28.28 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ia_layout_functor(const float* in, float* out, int W, int pitch) {
    const pitched_layout at = {pitch};
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[at(i / W, i % W)] = in[at(i / W, i % W)] + 1.0f;
}

// One row per block, walked by the block's threads: i = threadIdx.x, i += blockDim.x.
// Every trip the warp reads 32 consecutive floats. 4 sectors.
// launch: grid=64 block=256 args: n=4096
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.64 gld_requests_per_warp=48.00 gst_requests_per_warp=32.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ia_block_stride(const float* in, float* out, int n) {
    const float* row = in + blockIdx.x * n;
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[blockIdx.x * n + i] = row[i] * 0.5f;
    const int tid = threadIdx.x;
    for (int i0 = 0; i0 < n; i0 += blockDim.x) {
        const int i = i0 + tid;
        if (i >= n) break;
        out[blockIdx.x * n + i] += row[i];
    }
}

// The kernel asserts its stride is 1: the loads are contiguous. 4 sectors.
// launch: grid=64 block=256 args: stride=1 n=16384
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.48 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ia_asserted_unit_stride(const float* in, float* out, int stride, int n) {
    assert(stride == 1);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i * stride];
}

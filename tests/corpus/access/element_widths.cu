// cudalint access corpus: element widths as nvcc moves them (narrow elements converted to
// float, 16-byte vectors and aligned structs) and addresses stepped by uniform amounts.
// Format: see global_types.cu (scripts/measure_gpu.py's docstring has the details). Structs
// copied in pieces are in ../global/records.cu; kernel times of structs against arrays in
// bench/kernel_times/element_widths_timing.cu.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// bf16 read four to a lane and converted with (float)x[...]: each of the four unrolled
// loads is an LDG.E.U16 with lanes 8 bytes apart: 8 sectors per request for 2.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=4.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ew_bf16_chunk(float* out, const __nv_bfloat16* x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 4; ++k) s += (float)x[4 * i + k];  // expect: CL101 warning @45 "8 sectors per request where 2 would do"
    out[i] = s;
}

// __half read as (float)h[2 * i]: lanes 4 bytes apart, 2-byte loads: 4 sectors for 2.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ew_half_every_other(float* out, const __half* h) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = (float)h[2 * i];  // expect: CL101 warning @21 "4 sectors per request where 2 would do"
}

// bf16 read with consecutive lanes on consecutive elements: 2 sectors for 2.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=2.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ew_bf16_coalesced(float* out, const __nv_bfloat16* x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = (float)x[i];
}

struct alignas(16) EwBf16x8 {
    __nv_bfloat16 v[8];
};

// An alignas(16) struct of eight bf16 copied whole: one LDG.E.128 / STG.E.128, 16 sectors for 16.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=16.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ew_aligned_bf16x8(EwBf16x8* out, const EwBf16x8* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

// float data read as float4 through reinterpret_cast: LDG.E.128, 16 sectors for 16.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ew_float4_reinterpret(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 v = reinterpret_cast<const float4*>(in)[i];
    out[i] = (v.x + v.y) + (v.z + v.w);
}

struct EwParticle {
    float x, y, z, vx, vy, vz;
};

// One field of a 24-byte struct: 24 sectors per request for 4, and the lines hold the
// other fields too: what DRAM moves is six times the data.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=24.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ew_particle_x(float* out, const EwParticle* p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = p[i].x;  // expect: CL102 warning @14 "24 sectors per request for 4 sectors of data"
}

// An index and a pointer stepped by a runtime amount, one under a guard: the lanes stay
// 4 bytes apart in every trip and after the loop (4 sectors for 4).
// launch: grid=128 block=256 args: n=32768 trips=4
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.10 gld_requests_per_warp=8.00 gst_requests_per_warp=5.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ew_stepped(float* out, const float* in, int n, int trips) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = in + threadIdx.x;
    for (int k = 0; k < trips; ++k) {
        out[j] += *p;
        if (k & 1) j += n;
        p += n;
    }
    out[j] = *p;
}

struct alignas(16) EwHalf2x4 {  // expect-miss: CL102 nvcc lays __half2's member-by-member copy (both kernels below) on this line: 4-byte pieces 16 bytes apart, 4x sectors; CL102 reports each copy where it is written (lines 98, 107, 108)
    __half2 a, b, c, d;
};

// An alignas(16) struct of four __half2 assigned from memory to memory: __half2's own copy
// code makes the copy member by member, LDG.E and STG.E of 4 bytes with lanes 16 bytes
// apart (16 sectors per request for 4), and each load waits for the previous store.
// Timed (bench/kernel_times, half8_copy): 2.1x the time of the same bytes as float4.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=16.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=4.00 gst_requests_per_warp=4.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ew_half2x4_assign(EwHalf2x4* out, const EwHalf2x4* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];  // expect: CL102 warning, CL102 warning
}

// The same struct copied into a variable first: four LDG.E, then four STG.E; the pieces
// of each share lines (16 sectors together for 16).
// launch: grid=128 block=256
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=16.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=4.00 gst_requests_per_warp=4.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ew_half2x4_staged(EwHalf2x4* out, const EwHalf2x4* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    EwHalf2x4 v = in[i];  // expect: CL102 note @19 "16 sectors per request for 4 sectors of data"
    out[i] = v;  // expect: CL102 note
}

// cudalint global corpus: structs read and written whole. nvcc moves a struct in pieces
// no wider than its alignment (16 bytes at most) and only the fields the code uses, so
// each piece is a request of its own with the whole struct between lanes.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)
// Expectations come from the SASS (nvcc 13, sm_90): the width of each LDG/STG and the
// struct's size give the sectors of each request.

struct GrBody {
    float pos[3];
    float vel[3];
    float acc[3];
    float mass;
};

// A 40-byte body read and written whole: 4-byte pieces 40 bytes apart, 32 sectors for 4; the
// loads (pos, vel) touch 40 together for 24 (a note), the store only the changed pos (warning).
// launch: grid=64 block=256 args: n=16384
// measured: gld_sectors_per_request=32.00 gst_sectors_per_request=32.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.72 gld_requests_per_warp=6.00 gst_requests_per_warp=3.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void gr_body_copy(GrBody* bodies, float dt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    GrBody b = bodies[i];  // expect: CL102 note  // expect-miss: CL102 warning each 4-byte piece is a request with lanes 40 bytes apart (ncu: 8x), but the pieces share lines: 40 bytes moved for the 24 used, so CL102 weighs the record as a note
    b.pos[0] += b.vel[0] * dt;
    b.pos[1] += b.vel[1] * dt;
    b.pos[2] += b.vel[2] * dt;
    bodies[i] = b;  // expect: CL102 warning @5 "32 sectors per request for 4 sectors of data"
}

// The same struct read at an index every lane shares (the inner loop of an n-body step):
// one address per request, a broadcast.
// launch: grid=64 block=256 args: n=64
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.37 gld_requests_per_warp=128.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void gr_body_broadcast(const GrBody* bodies, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) {
        GrBody other = bodies[j];
        sum += other.mass * other.pos[0];
    }
    out[i] = sum;
}

struct GrComplex {
    float re, im;
};

// An 8-byte complex number, 4-byte aligned: two LDG.E of 4 bytes, lanes 8 bytes apart
// = 8 sectors for 4 (2x), 8 together for 8: a note.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void gr_complex_norm(const GrComplex* z, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    GrComplex v = z[i];  // expect: CL102 note  // expect-miss: CL102 warning two 4-byte pieces 8 bytes apart, 2x each (ncu), 8 sectors for 8 together: a note
    out[i] = v.re * v.re + v.im * v.im;
}

struct __align__(8) GrComplexAligned {
    float re, im;
};

// The same with 8-byte alignment: one LDG.E.64 per lane, 8 sectors for 8 (ideal).
// launch: grid=128 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void gr_complex_aligned_norm(const GrComplexAligned* z, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    GrComplexAligned v = z[i];
    out[i] = v.re * v.re + v.im * v.im;
}

// float3 (12 bytes, 4-byte aligned): three LDG.E, lanes 12 bytes apart = 12 sectors
// for 4 (3x), 12 together for 12: a note (bench/kernel_times: +1.6% against arrays).
// launch: grid=128 block=256
// measured: gld_sectors_per_request=12.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=3.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void gr_float3_length(const float3* v, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float3 p = v[i];  // expect: CL102 note  // expect-miss: CL102 warning three 4-byte pieces, 3x each (ncu), 12 sectors for 12 together (timed: +1.6%): a note
    out[i] = p.x * p.x + p.y * p.y + p.z * p.z;
}

struct __align__(16) GrPair {
    float4 lo, hi;
};

// A 32-byte, 16-byte aligned struct copied whole: two 128-bit accesses per lane, lanes
// 32 bytes apart = 32 sectors for 16 (2x) each, 32 together for 32: notes (timed: +2.2%).
// launch: grid=128 block=256
// measured: gld_sectors_per_request=32.00 gst_sectors_per_request=32.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void gr_pair_copy(const GrPair* in, GrPair* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];  // expect: CL102 note, CL102 note  // expect-miss: CL102 warning two 16-byte pieces 32 bytes apart, 2x each (ncu), 32 sectors for 32 together (timed: +2.2%): notes
}

// A 16-byte aligned 16-byte struct (float4) copied whole: one 128-bit access, ideal.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=16.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void gr_float4_copy(const float4* in, float4* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

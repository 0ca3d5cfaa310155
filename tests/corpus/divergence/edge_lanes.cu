// cudalint divergence corpus: thread-index guards that pick the edge lanes of a block
// (its last row, its last column), nested or not, and guards whose limit the launch gives.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
// Nsight Compute counts 32 lane slots per warp instruction: the lanes an enclosing guard
// already switched off idle through a nested guard's body too, and so do the lanes a
// block narrower than a warp never had. A limit the host passes (`rows - 1` with rows
// given by the launch) decides the split as a constant would.
// The launches are written in el_launch below, as a program's host code would write them (the
// analysis takes the block shapes and `rows` from there; scripts/measure_gpu.py replays the
// "launch:" lines). Per-line figures: edge_lanes.cu.lines.json (H200).

__device__ float el_field(unsigned x, unsigned y, unsigned z) {
    float v = 0.0f;
    for (int k = 0; k < 6; ++k) v += __sinf(0.01f * (x + k)) * __cosf(0.02f * (y + z + k));
    return v;
}

// A 4x4x8 tile: the last column also fetches its right neighbour, and within it the last
// row the corner; the last row its lower neighbour. Each guard takes 8, 2 or 8 lanes of
// a warp that holds two 4x4 slices.
// launch: grid=256 block=4,4,8 bytes=1048576
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.01 bank_conflicts_ld=0 bank_conflicts_st=32 branch_divergent_targets=3072 pred_on_ratio=20.27 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=4.00 shst_requests_per_warp=4.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void el_tile_edges(float* out, const unsigned* blocks) {
    __shared__ float s[128], right[8][4], below[8][4], corner[8];
    unsigned t = threadIdx.z * 16 + threadIdx.y * 4 + threadIdx.x;
    unsigned base = blocks[blockIdx.x % 64];
    unsigned x = base * 3 + threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    s[t] = el_field(x, y, z);
    if (threadIdx.x == 3) {  // expect: CL301 warning
        right[z][y] = el_field(x + 1, y, z);
        if (threadIdx.y == 3)  // expect: CL301 warning
            corner[z] = el_field(x + 1, y + 1, z);
    }
    if (threadIdx.y == 3) {  // expect: CL301 warning
        below[z][threadIdx.x] = el_field(x, y + 1, z);
    }
    __syncthreads();
    out[blockIdx.x * 128 + t] = s[t] + right[z][y] + below[z][threadIdx.x] + corner[z];
}

// The same tile one warp wide (32x4): the guard on threadIdx.y takes whole warps. Measured:
// nvcc predicates its body, so the other warps issue it with no lane on (not reported).
// launch: grid=256 block=32,4 bytes=1048576
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=0.62 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.10 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=2.00 shst_requests_per_warp=2.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void el_tile_rows(float* out, const unsigned* blocks) {
    __shared__ float s[5][33];
    unsigned base = blocks[blockIdx.x % 64];
    unsigned x = base * 31 + threadIdx.x, y = threadIdx.y;
    s[threadIdx.y][threadIdx.x] = el_field(x, y, 0);
    if (threadIdx.y == 3) {  // expect-miss: CL301 nvcc predicates the body instead of branching, so the warps the condition turns off (whole warps: rows are 32 lanes wide) issue it with every lane off; CL301 costs no warp-uniform condition
        s[4][threadIdx.x] = el_field(x, y + 1, 0);
    }
    __syncthreads();
    out[blockIdx.x * 128 + threadIdx.y * 32 + threadIdx.x] = s[threadIdx.y][threadIdx.x] + s[threadIdx.y + 1][threadIdx.x];
}

// Pencils two columns wide and `rows` tall (a launch value): the first and the last row
// take a one-sided difference, the others a centred one. Each warp holds 16 rows: the
// first and the last warp split 2 lanes from 30.
// launch: grid=512 block=2,128 bytes=1048576 args: rows=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=3.40 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=512 pred_on_ratio=27.19 gld_requests_per_warp=1.00 gst_requests_per_warp=1.25 shld_requests_per_warp=3.50 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void el_pencil_rows(float* out, const float* f, unsigned rows) {
    __shared__ float s[128][2];
    int j = threadIdx.y;
    s[j][threadIdx.x] = f[(blockIdx.x * 128 + j) * 2 + threadIdx.x];
    __syncthreads();
    float d;
    if (j == 0) {  // expect: CL301 warning
        d = __expf(s[1][threadIdx.x] - s[0][threadIdx.x]) * __logf(1.0f + s[0][threadIdx.x] * s[0][threadIdx.x]);
        out[(blockIdx.x * 128 + j) * 2 + threadIdx.x] = d;
    } else if (j == rows - 1) {  // expect: CL301 warning
        d = __expf(s[j - 1][threadIdx.x] - s[j][threadIdx.x]) * __logf(1.0f + s[j][threadIdx.x] * s[j][threadIdx.x]);
        out[(blockIdx.x * 128 + j) * 2 + threadIdx.x] = d;
    } else {
        d = s[j + 1][threadIdx.x] - 2.0f * s[j][threadIdx.x] + s[j - 1][threadIdx.x];
        out[(blockIdx.x * 128 + j) * 2 + threadIdx.x] = d;
    }
}

// Rows 32 wide: `rows - 1` picks a whole warp (measured: nvcc predicates it; not reported).
// launch: grid=512 block=32,8 bytes=1048576 args: rows=8
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=0.88 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=29.79 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=3.12 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void el_rows_whole_warps(float* out, const float* f, unsigned rows) {
    __shared__ float s[8][32];
    int j = threadIdx.y, i = blockIdx.x * 32 + threadIdx.x;
    s[j][threadIdx.x] = f[j * 16384 + i];
    __syncthreads();
    float d;
    if (j == 0) {
        d = __expf(s[1][threadIdx.x] - s[0][threadIdx.x]) * __logf(1.0f + s[0][threadIdx.x] * s[0][threadIdx.x]);
    } else if (j == rows - 1) {  // expect-miss: CL301 nvcc predicates the body instead of branching, so the warps the condition turns off (whole warps: rows are 32 lanes wide) issue it with every lane off; CL301 costs no warp-uniform condition
        d = __expf(s[j - 1][threadIdx.x] - s[j][threadIdx.x]) * __logf(1.0f + s[j][threadIdx.x] * s[j][threadIdx.x]);
    } else {
        d = s[j + 1][threadIdx.x] - 2.0f * s[j][threadIdx.x] + s[j - 1][threadIdx.x];
    }
    out[j * 16384 + i] = d;
}

constexpr unsigned kRows = 128;
constexpr unsigned kTileRows = 8;

void el_launch(float* out, const float* f, const unsigned* blocks) {
    el_tile_edges<<<256, dim3(4, 4, 8)>>>(out, blocks);
    el_tile_rows<<<256, dim3(32, 4)>>>(out, blocks);
    el_pencil_rows<<<512, dim3(2, kRows)>>>(out, f, kRows);
    el_rows_whole_warps<<<512, dim3(32, kTileRows)>>>(out, f, kTileRows);
}

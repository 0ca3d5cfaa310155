// cudalint shared corpus: loops whose counter changes the lanes' banks, and 3-D tiles.
// Nsight Compute sums a line's wavefronts over every trip of its loop; cudalint costs
// each trip it tries and reports the ratio of the sums. Launch lines use
// scripts/measure_gpu.py's format (`--lines` measures per line).

#define SORT_THREADS 128

// Compare-exchange of a bitonic sort: partner distance j halves each trip, and the
// outer level doubles. pos = 2t - (t & (j - 1)) puts lanes two words apart for every
// j < 32 (2-way) and one word apart for j >= 32, most trips being 2-way.
// launch: grid=8 block=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.84 shst_wavefronts_per_request=1.84 bank_conflicts_ld=1152 bank_conflicts_st=1152 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=51.00 shst_requests_per_warp=51.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lt_bitonic_sort(unsigned* data) {
    __shared__ unsigned s[2 * SORT_THREADS];
    unsigned t = threadIdx.x;
    s[t] = data[blockIdx.x * 2 * SORT_THREADS + t];
    s[t + SORT_THREADS] = data[blockIdx.x * 2 * SORT_THREADS + t + SORT_THREADS];
    __syncthreads();
    for (unsigned level = 1; level < SORT_THREADS; level <<= 1) {
        for (unsigned j = level; j > 0; j >>= 1) {
            unsigned pos = 2 * t - (t & (j - 1));
            unsigned a = s[pos], b = s[pos + j];  // expect: CL201 warning, CL201 warning
            bool up = (t & level) == 0;
            bool swap = (a > b) == up;
            s[pos] = swap ? b : a;  // expect: CL201 warning @13 "2-way bank conflict"
            s[pos + j] = swap ? a : b;  // expect: CL201 warning @13 "2-way bank conflict"
            __syncthreads();
        }
    }
    data[blockIdx.x * 2 * SORT_THREADS + t] = s[t];
    data[blockIdx.x * 2 * SORT_THREADS + t + SORT_THREADS] = s[t + SORT_THREADS];
}

// Each thread sums its own row of a [32][32] tile: the loop counter walks the columns,
// and every trip the warp reads one column (32-way). The padded tile is conflict-free.
// launch: grid=8 block=32
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=7.20 shst_wavefronts_per_request=1.00 bank_conflicts_ld=1792 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=32.00 gst_requests_per_warp=1.00 shld_requests_per_warp=40.00 shst_requests_per_warp=64.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lt_row_sums(float* out, const float* in) {
    __shared__ float tile[32][32];
    __shared__ float padded[32][33];
    int t = threadIdx.x;
    for (int r = 0; r < 32; ++r) {
        tile[r][t] = in[blockIdx.x * 1024 + r * 32 + t];
        padded[r][t] = in[blockIdx.x * 1024 + r * 32 + t];
    }
    __syncthreads();
    float sum = 0.0f, padded_sum = 0.0f;
    for (int c = 0; c < 32; ++c) {
        sum += tile[t][c];  // expect: CL201 warning
        padded_sum += padded[t][c];
    }
    out[blockIdx.x * 32 + t] = sum - padded_sum;
}

// A 3-D tile [9][5][5] of floats read by a 4x4x8 block: each warp spans two planes of
// 4x4 threads, 25 words apart, and the two planes share banks (2-way).
// launch: grid=8 block=4,4,8
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=2.00 shst_wavefronts_per_request=2.00 bank_conflicts_ld=64 bank_conflicts_st=32 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=2.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lt_cube_planes(float* out, const float* in) {
    __shared__ float cube[9][5][5];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int i = blockIdx.x * 128 + (z * 4 + y) * 4 + x;
    cube[z][y][x] = in[i];  // expect: CL201 warning
    __syncthreads();
    out[i] = cube[z][y][x] + cube[z][y][x + 1];  // expect: CL201 warning, CL201 warning
}

// The same block over a [8][4][4] cube: planes 16 words apart fill the banks once.
// launch: grid=8 block=4,4,8
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lt_cube_dense(float* out, const float* in) {
    __shared__ float cube[8][4][4];
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int i = blockIdx.x * 128 + (z * 4 + y) * 4 + x;
    cube[z][y][x] = in[i];
    __syncthreads();
    out[i] = cube[7 - z][y][x];
}

// An unrolled loop over the columns of a double tile: nvcc merges each two trips into
// one 16-byte load. Lanes x read row x (rows 128 bytes apart: 8 lanes per bank group in
// each quarter warp, 8-way); lanes read row y as a broadcast per half warp (1x).
// launch: grid=8 block=16,16
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=8.00 shld_wavefronts_per_request=17.00 shst_wavefronts_per_request=2.00 bank_conflicts_ld=14336 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=16.00 shst_requests_per_warp=2.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void lt_unrolled_double_rows(double* out, const double* in) {
    __shared__ double d[16][16];
    __shared__ double u[16][16];
    int x = threadIdx.x, y = threadIdx.y;
    d[y][x] = in[blockIdx.x * 256 + y * 16 + x];
    u[y][x] = 2.0 * in[blockIdx.x * 256 + y * 16 + x];
    __syncthreads();
    double across = 0.0, down = 0.0;
    for (int n = 0; n < 16; ++n) {
        across += d[x][n];  // expect: CL201 warning
        down += u[y][n];
    }
    out[blockIdx.x * 256 + y * 16 + x] = across * down;
}

void lt_launch_all(unsigned* data, float* out, const float* in) {
    lt_bitonic_sort<<<8, SORT_THREADS>>>(data);
    lt_row_sums<<<8, 32>>>(out, in);  // expect: CL503 note @5 "holds 24 of 64 warps per SM"
    lt_cube_planes<<<8, dim3(4, 4, 8)>>>(out, in);
    lt_cube_dense<<<8, dim3(4, 4, 8)>>>(out, in);
}

void lt_launch_doubles(double* out, const double* in) {
    lt_unrolled_double_rows<<<8, dim3(16, 16)>>>(out, in);
}

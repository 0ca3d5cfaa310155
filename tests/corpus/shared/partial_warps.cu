// cudalint shared corpus: warps that run an access with only some lanes, and accesses
// whose cost differs between the warps of a block.
// 8-byte words are served in half-warp phases (lanes 0-15, 16-31): an 8x8 double tile
// written by the lanes x < 8 of a 16x16 block fills half of each phase, so it takes two
// wavefronts for data that fits in one (2x the ideal, as the H100 counts it). The same
// tile of floats is one wavefront. Launch lines use scripts/measure_gpu.py's format.

// launch: grid=8 block=16,16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=8.00 shld_wavefronts_per_request=2.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=26.67 gld_requests_per_warp=0.50 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void pw_double_corner_tile(double* out, const double* in) {
    __shared__ double s[8][8];
    int x = threadIdx.x, y = threadIdx.y;
    if (x < 8 && y < 8) {  // expect: CL301 warning @5 "16 of 32 lanes take it"
        s[y][x] = in[blockIdx.x * 64 + y * 8 + x];  // expect: CL201 warning @9 "2-way bank conflict"
    }
    __syncthreads();
    out[blockIdx.x * 256 + y * 16 + x] = s[y % 8][x % 8];
}

// launch: grid=8 block=16,16
// measured: gld_sectors_per_request=2.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=0.50 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=26.67 gld_requests_per_warp=0.50 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void pw_float_corner_tile(float* out, const float* in) {
    __shared__ float s[8][8];
    int x = threadIdx.x, y = threadIdx.y;
    if (x < 8 && y < 8) {  // expect: CL301 warning @5 "16 of 32 lanes take it"
        s[y][x] = in[blockIdx.x * 64 + y * 8 + x];
    }
    __syncthreads();
    out[blockIdx.x * 256 + y * 16 + x] = s[y % 8][x % 8];
}

// A 16-wide float tile read down its columns by a 16x16 block: each warp reads two
// columns of 16 rows, 8 lanes per bank in every warp (8-way).
// launch: grid=8 block=16,16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=8.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=448 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void pw_float_tile_columns(float* out, const float* in) {
    __shared__ float s[16][16];
    int x = threadIdx.x, y = threadIdx.y;
    s[y][x] = in[blockIdx.x * 256 + y * 16 + x];
    __syncthreads();
    out[blockIdx.x * 256 + y * 16 + x] = s[x][y];  // expect: CL201 warning @42 "8-way bank conflict"
}

// Only the first warp of the block reads with a stride of 32 words (32-way); the other
// seven read contiguous words. Over the block: (32 + 7) wavefronts for 8, 4.9x.
// launch: grid=8 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=4.88 shst_wavefronts_per_request=1.00 bank_conflicts_ld=248 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.70 gld_requests_per_warp=4.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=4.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void pw_first_warp_strided(float* out, const float* in) {
    __shared__ float s[1024];
    int t = threadIdx.x;
    for (int k = t; k < 1024; k += 256) s[k] = in[blockIdx.x * 1024 + k];
    __syncthreads();
    int stride = t < 32 ? 32 : 1;
    out[blockIdx.x * 256 + t] = s[(stride * t) % 1024];  // expect: CL201 warning
}

// One warp in eight reads a 2-way pattern (warp 0: s[2t]); the rest are contiguous.
// Over the block 9 wavefronts for 8: the hardware shows no conflict worth a finding.
// launch: grid=8 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.12 shst_wavefronts_per_request=1.00 bank_conflicts_ld=8 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=2.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void pw_one_warp_in_eight(float* out, const float* in) {
    __shared__ float s[512];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 512 + t];
    s[t + 256] = in[blockIdx.x * 512 + t + 256];
    __syncthreads();
    int index = t < 32 ? 2 * t : t;
    out[blockIdx.x * 256 + t] = s[index];
}

void pw_launch_all(double* dout, const double* din, float* out, const float* in) {
    pw_double_corner_tile<<<8, dim3(16, 16)>>>(dout, din);
    pw_float_corner_tile<<<8, dim3(16, 16)>>>(out, in);
    pw_float_tile_columns<<<8, dim3(16, 16)>>>(out, in);
    pw_first_warp_strided<<<8, 256>>>(out, in);
    pw_one_warp_in_eight<<<8, 256>>>(out, in);
}

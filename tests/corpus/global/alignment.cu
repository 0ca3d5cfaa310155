// cudalint global corpus: narrow rows (8x8x8 blocks: a warp covers four 8-float rows) and
// what moves them off a sector boundary. A constant shift of the fast index (a halo,
// `k - 4`) splits every 32-byte row across two sectors: 8 sectors for 4 (2x). An offset
// known only at run time (`lz`, a shift of a slow index times the pitch) moves the whole
// request; the source does not say whether it misaligns it, and it is taken as aligned.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)

#define AL_IDX(i, j, k) (((i) + lx) * ny + (j) + ly) * nz + (k) + lz

// The centre of the stencil: rows start at multiples of 32 bytes when lx, ly, lz are 0.
// launch: grid=8,8,8 block=8,8,8 args: ny=80 nz=80 lx=0 ly=0 lz=0
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void al_centre(const float* u, float* v, int ny, int nz, int lx, int ly, int lz) {
    int i = blockIdx.z * blockDim.z + threadIdx.z;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    v[AL_IDX(i, j, k)] = u[AL_IDX(i, j, k)];
}

// A halo plane above and below (i -/+ 4): the shift is a whole number of planes, the
// rows stay on sector boundaries.
// launch: grid=8,8,8 block=8,8,8 args: ny=80 nz=80 lx=4 ly=0 lz=0
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void al_plane_halo(const float* u, float* v, int ny, int nz, int lx, int ly, int lz) {
    int i = blockIdx.z * blockDim.z + threadIdx.z;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    v[AL_IDX(i, j, k)] = u[AL_IDX(i - 4, j, k)] + u[AL_IDX(i + 4, j, k)];
}

// A halo along the fast index (k -/+ 4 floats = 16 bytes): each 32-byte row straddles two
// sectors.
// launch: grid=8,8,8 block=8,8,8 args: ny=80 nz=80 lx=0 ly=0 lz=4
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=8.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void al_row_halo(const float* u, float* v, int ny, int nz, int lx, int ly, int lz) {
    int i = blockIdx.z * blockDim.z + threadIdx.z;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    float left = u[AL_IDX(i, j, k - 4)];  // expect: CL101 warning @18 "8 sectors per request where 4 would do"
    float right = u[AL_IDX(i, j, k + 4)];  // expect: CL101 warning @19 "8 sectors per request where 4 would do"
    v[AL_IDX(i, j, k)] = left + right;
}

// How the application launches them: the block shape is what makes the rows narrow.
void al_run(const float* u, float* v, int ny, int nz, int lx, int ly, int lz) {
    dim3 grid(8, 8, 8), block(8, 8, 8);
    al_centre<<<grid, block>>>(u, v, ny, nz, lx, ly, lz);
    al_plane_halo<<<grid, block>>>(u, v, ny, nz, lx, ly, lz);
    al_row_halo<<<grid, block>>>(u, v, ny, nz, lx, ly, lz);
}

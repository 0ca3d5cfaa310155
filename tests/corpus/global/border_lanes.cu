// cudalint global corpus: a condition on the thread index that picks a block's border
// lanes gives each warp of the block different lanes to run an access with. Nsight
// Compute sums the line's sectors over every warp, so the verdict is the block's total,
// not the first warp's.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)

// A smoothing window: read from the block's shared tile where the window fits inside the
// block, from global memory at the block's border. Under 16x16 blocks the first warp
// reads its first row whole (16 lanes, one run) and the ends of its second; every other
// warp reads 4 lanes, each in a sector of its own: about 34 sectors where 12 would do.
// launch: grid=8,8 block=16,16 args: width=128 radius=1
// measured: gld_sectors_per_request=3.66 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=3212 pred_on_ratio=25.12 gld_requests_per_warp=10.00 gst_requests_per_warp=1.00 shld_requests_per_warp=9.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bl_window_border(const float* image, float* smoothed, int width, int radius) {
    __shared__ float tile[16 * 16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * 16 + tx;
    int y = blockIdx.y * 16 + ty;
    int at = y * width + x;
    tile[ty * 16 + tx] = image[at];
    __syncthreads();
    float sum = 0.0f;
    if (x - radius >= 0 && x + radius < width && y - radius >= 0 && y + radius < width) {  // expect: CL301 warning "in the grid's edge block"
        for (int dy = -radius; dy <= radius; dy++)
            for (int dx = -radius; dx <= radius; dx++)
                if (tx - radius >= 0 && tx + radius < blockDim.x && ty - radius >= 0 && ty + radius < blockDim.y)  // expect: CL301 warning
                    sum += tile[(ty + dy) * 16 + tx + dx];
                else
                    sum += image[at + dy * width + dx];  // expect: CL101 warning
    }
    smoothed[at] = sum;
}

// The same window with the whole block reading global memory: every warp runs every
// lane, two rows of 16 floats, each row a run of its own; nothing to report.
// launch: grid=8,8 block=16,16 args: width=128 radius=1
// measured: gld_sectors_per_request=5.09 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=140 pred_on_ratio=28.70 gld_requests_per_warp=9.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bl_window_whole(const float* image, float* smoothed, int width, int radius) {
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    int at = y * width + x;
    float sum = 0.0f;
    if (x - radius >= 0 && x + radius < width && y - radius >= 0 && y + radius < width) {  // expect: CL301 warning "in the grid's edge block"
        for (int dy = -radius; dy <= radius; dy++)
            for (int dx = -radius; dx <= radius; dx++)
                sum += image[at + dy * width + dx];
    }
    smoothed[at] = sum;
}

void bl_launch(const float* image, float* smoothed) {
    bl_window_border<<<dim3(8, 8), dim3(16, 16)>>>(image, smoothed, 128, 1);
    bl_window_whole<<<dim3(8, 8), dim3(16, 16)>>>(image, smoothed, 128, 1);
}

// cudalint launches corpus: blocks whose shape the host code gives in part. The launches
// in open_axes_launch.cu write blockDim.x as a constant and take blockDim.y from the
// command line. A warp's lanes are laid along x first, so the known width alone decides
// which rows a warp spans: one thread wide, a warp walks 32 rows of the image; 32 threads
// wide, it walks one row. The "launch:" lines are the launches with the command line the
// measurement ran, as the harness replays them.
#include "open_axes.cuh"

// A one-thread-wide block: the 32 lanes of a warp are 32 rows, `width` bytes apart, one
// sector each for one byte used. Expected: gld 32.00, gst 32.00.
// launch: grid=1024,32 block=1,32 bytes=1048576 args: width=1024 height=1024
// measured: gld_sectors_per_request=32.00 gst_sectors_per_request=32.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.77 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void oa_column_pass(unsigned char* dst, const unsigned char* src, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    dst[y * width + x] = src[y * width + x] / 2;  // expect: CL101 warning, CL101 warning
}

// The same pass with 32-thread-wide blocks: a warp reads 32 consecutive bytes of one row,
// one sector. Expected: gld 1.00, gst 1.00.
// launch: grid=32,256 block=32,4 bytes=1048576 args: width=1024 height=1024
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.77 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H200)
__global__ void oa_row_pass(unsigned char* dst, const unsigned char* src, int width, int height) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    dst[y * width + x] = src[y * width + x] / 2;
}

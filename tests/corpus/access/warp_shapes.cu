// cudalint access corpus: what a warp's shape does to an access. 2-D blocks whose warps
// span several rows (broadcasts of a row's value), lanes that move the channels of one
// pixel one store at a time, and shared tiles padded for 16 banks on a 32-bank machine.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)
// The "launch:" lines sit in the comment block right above the kernel they launch. The
// harness gives every pointer parameter its own zeroed device buffer (256 MiB), scalars
// their args: value, launches once to warm up, once under Nsight Compute, and writes the
// "measured:" line under its "launch:" line. Metrics are kernel-wide, so each kernel has
// one kind of access of interest; the rest is coalesced. Each comment says what the
// hardware should show: a request costs one sector per distinct 32-byte sector its lanes
// touch, and Nsight's ideal for it is the lanes' bytes laid end to end (32 lanes of
// 4 bytes: 4 sectors), so a broadcast is never "excessive".

// A 16x16 block: each warp is two rows of 16 threads, and A[row * n + k] is the same word
// for the 16 lanes of a row: two addresses, 512 bytes apart, two sectors a request. The
// lanes' 128 bytes would take four, so nothing is wasted: not uncoalesced. The store is
// two rows of 64 contiguous bytes: 4 sectors. Expected: gld 2.00, gst 4.00, 128 loads a warp.
// launch: grid=8,8 block=16,16 args: n=128
// measured: gld_sectors_per_request=2.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.54 gld_requests_per_warp=128.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ws_row_broadcast_16x16(float* out, const float* A, int n) {
    int row = blockIdx.y * 16 + threadIdx.y;
    int col = blockIdx.x * 16 + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += A[row * n + k];
    out[row * n + col] = sum;
}

// An 8x32 block: four rows of 8 lanes a warp, four addresses, four sectors: the ideal
// again. The store: four rows of 32 bytes, 4 sectors. Expected: gld 4.00, gst 4.00.
// launch: grid=16,4 block=8,32 args: n=128
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.54 gld_requests_per_warp=128.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ws_row_broadcast_8x32(float* out, const float* A, int n) {
    int row = blockIdx.y * 32 + threadIdx.y;
    int col = blockIdx.x * 8 + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += A[row * n + k];
    out[row * n + col] = sum;
}

// A 4x64 block: eight rows of 4 lanes a warp, eight sectors where the lanes' bytes fill
// four: half of what is fetched is used, the same 50% as a stride-2 access, which the
// hardware shows as excessive sectors. The store: eight rows of 16 bytes, 8 sectors.
// Expected: gld 8.00, gst 8.00.
// launch: grid=32,2 block=4,64 args: n=128
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=8.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.54 gld_requests_per_warp=128.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ws_row_broadcast_4x64(float* out, const float* A, int n) {
    int row = blockIdx.y * 64 + threadIdx.y;
    int col = blockIdx.x * 4 + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < n; ++k) sum += A[row * n + k];  // expect: CL101 warning @40 "8 sectors per request where 4 would do"
    out[row * n + col] = sum;  // expect: CL101 warning @5 "8 sectors per request where 4 would do"
}

// Four float channels of a pixel stored one by one: every store is 16 bytes apart from
// lane to lane, 16 sectors for 4 sectors of data, and the four together write every byte
// of the warp's 512. nvcc keeps four 4-byte STGs (float* promises only 4-byte alignment).
// The fix is one float4 store a lane, not another index order. Expected: gld 4.00,
// gst 16.00, 4 stores a warp.
// launch: grid=256 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=16.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=4.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ws_rgba_channel_stores(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    out[4 * i + 0] = v;  // expect: CL101 warning
    out[4 * i + 1] = v * 0.5f;  // expect: CL101 warning
    out[4 * i + 2] = v * 0.25f;  // expect: CL101 warning
    out[4 * i + 3] = 1.0f;  // expect: CL101 warning
}

// Three byte channels in a loop over c: lanes 3 bytes apart, each store spans 96 bytes
// (3 sectors) for 32 bytes of data. Padding the pixel to a uchar4 makes one 4-byte store a
// lane (4 sectors for 4). Expected: gld 1.00 (the coalesced byte load), gst 3.00, 3 stores a warp.
// launch: grid=256 block=256
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=3.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=3.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ws_rgb8_channel_loop(unsigned char* img, const unsigned char* __restrict__ in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned char v = in[i];
    for (int c = 0; c < 3; ++c) img[3 * i + c] = v + c;  // expect: CL101 warning
}

// Two of four channels: half of each element is never written, so a float4 store would
// write bytes the kernel does not own: the advice stays the index order. Expected: gst 16.00.
// launch: grid=256 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=16.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ws_two_of_four_channels(float* out, const float* in) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[4 * i + 0] = in[i];  // expect: CL101 warning
    out[4 * i + 2] = in[i];  // expect: CL101 warning
}

// A 16x16 tile padded to 17 columns, as for 16 banks, transposed by a 16x16 block. The
// store tile[ty][tx]: a warp writes two rows, words 17r..17r+15 and 17r+17..17r+32, and
// word 17r+32 shares bank 17r's: 2 wavefronts. The load tile[tx][ty]: words 17tx + ty for
// ty = r, r+1, where lanes (0, r) and (15, r+1) meet in one bank: 2 wavefronts. On 32
// banks a 16-wide tile wants rows 18 words apart: the load becomes conflict-free, while
// the store's two rows overlap in two banks whatever the padding (only rows 16 words
// apart, unpadded, keep it free, and make the load 8-way). Expected: shst 2.00, shld 2.00.
// launch: grid=16,16 block=16,16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=2.00 shst_wavefronts_per_request=2.00 bank_conflicts_ld=2048 bank_conflicts_st=2048 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ws_tile16_padded_17(float* out, const float* in) {
    __shared__ float tile[16][17];
    int width = gridDim.x * 16;
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];  // expect: CL201 warning @5 "2-way bank conflict"
    __syncthreads();
    x = blockIdx.y * 16 + threadIdx.x;
    y = blockIdx.x * 16 + threadIdx.y;
    out[y * width + x] = tile[threadIdx.x][threadIdx.y];  // expect: CL201 warning @26 "2-way bank conflict"
}

// The same transpose with 18 columns: the load is conflict-free, the store keeps its
// 2-way conflict. Expected: shst 2.00, shld 1.00.
// launch: grid=16,16 block=16,16
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=2.00 bank_conflicts_ld=0 bank_conflicts_st=2048 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ws_tile16_padded_18(float* out, const float* in) {
    __shared__ float tile[16][18];
    int width = gridDim.x * 16;
    int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];  // expect: CL201 warning
    __syncthreads();
    x = blockIdx.y * 16 + threadIdx.x;
    y = blockIdx.x * 16 + threadIdx.y;
    out[y * width + x] = tile[threadIdx.x][threadIdx.y];
}

// A double tile padded by one element, [32][33], transposed by a 32x8 block. 8-byte
// accesses are served a half-warp at a time: the load tile[tx][ty] puts lane tx at words
// 66tx and 66tx + 1, banks 2tx and 2tx + 1, all distinct for 16 lanes. One element of
// padding is right for doubles too: 2 wavefronts a request (the two halves), no conflict.
// Expected: shld 2.00, shst 2.00, bank conflicts 0, gld 8.00, gst 8.00.
// launch: grid=8,8 block=32,8
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=8.00 shld_wavefronts_per_request=2.00 shst_wavefronts_per_request=2.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=4.00 gst_requests_per_warp=4.00 shld_requests_per_warp=4.00 shst_requests_per_warp=4.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ws_double_tile_padded_33(double* out, const double* in) {
    __shared__ double tile[32][33];
    int width = gridDim.x * 32;
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The launches above, as the host makes them: the block shapes the analysis reads.
void ws_launch_all(float* out, const float* in, const float* A, unsigned char* img, const unsigned char* bytes,
                   double* dout, const double* din) {
    ws_row_broadcast_16x16<<<dim3(8, 8), dim3(16, 16)>>>(out, A, 128);
    ws_row_broadcast_8x32<<<dim3(16, 4), dim3(8, 32)>>>(out, A, 128);
    ws_row_broadcast_4x64<<<dim3(32, 2), dim3(4, 64)>>>(out, A, 128);
    ws_rgba_channel_stores<<<256, 256>>>(out, in);
    ws_rgb8_channel_loop<<<256, 256>>>(img, bytes);
    ws_two_of_four_channels<<<256, 256>>>(out, in);
    ws_tile16_padded_17<<<dim3(16, 16), dim3(16, 16)>>>(out, in);
    ws_tile16_padded_18<<<dim3(16, 16), dim3(16, 16)>>>(out, in);
    ws_double_tile_padded_33<<<dim3(8, 8), dim3(32, 8)>>>(dout, din);
}

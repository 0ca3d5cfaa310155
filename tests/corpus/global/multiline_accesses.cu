// cudalint global corpus: accesses written over several lines. nvcc's line table gives
// the instruction of such an access one line, and Nsight Compute counts its sectors
// there: the line that closes the address (a subscript's `]`, the end of `*`'s operand;
// a `.field` of an element takes the element's line), except that a whole struct or
// vector stored from a variable is counted on the variable's line. A finding stands on
// that line, so that it names the line the profiler shows.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)

// A GEMM epilogue: four lanes per row of C, each moving two float4 of its 8 columns
// through reinterpret_cast, the address closed on the second line. Each row's 32
// columns are read 16 at a time: 16-byte pieces 32 bytes apart, 32 sectors where 16
// would do. The store of the variable `tmp` is counted on `tmp`'s line.
// launch: grid=64 block=128 args: N=1024 alpha=2.0
// measured: gld_sectors_per_request=32.00 gst_sectors_per_request=32.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ml_float4_epilogue(float* C, int N, float alpha) {
    int row = blockIdx.x * 32 + threadIdx.x / 4;
    int col = (threadIdx.x % 4) * 8;
    for (int j = 0; j < 8; j += 4) {
        float4 tmp = reinterpret_cast<float4*>(
            &C[row * N + col + j])[0];  // expect: CL101 warning
        tmp.x *= alpha;
        tmp.y *= alpha;
        tmp.z *= alpha;
        tmp.w *= alpha;
        reinterpret_cast<float4*>(
            &C[row * N + col + j])[0] =
            tmp;  // expect: CL101 warning
    }
}

// A stride-2 read whose subscript closes on the next line, and a store of a value
// built in place (make_float2), counted on the line that closes its address.
// launch: grid=256 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=8.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ml_split_subscript(const float* in, float2* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i
                 * 2];  // expect: CL101 warning
    out[i] = make_float2(
        v, v + 1.0f);
}

// One field of an array of float2 read over two lines: the element's line counts it.
// launch: grid=256 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ml_field_of_element(const float2* points, float* xs) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    xs[i] = points[i]  // expect: CL102 warning
                .x;
}

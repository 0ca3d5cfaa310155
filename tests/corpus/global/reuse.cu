// cudalint global corpus: loads the compiler does not issue. A load of an address the
// thread loaded or stored just before (same loops, no store to the array and no barrier
// in between) reuses the value in a register; the line that repeats it has no load
// instruction, so nothing there can cost sectors.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)

// Dense matrix-vector product, one thread per row, testing each entry before using it:
// the test's load (lanes n floats apart: one sector per lane) is the only load of
// m[row * n + j]; the product's line loads only x[j], a broadcast.
// launch: grid=16 block=256 args: n=4096
// measured: gld_sectors_per_request=31.76 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=18.05 gld_requests_per_warp=4128.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ru_dense_rows(const float* m, const float* x, float* y, int n) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n) {
        float sum = 0.0f;
        for (int j = 0; j < n; ++j) {
            if (m[row * n + j] != 0.0f)  // expect: CL101 warning @17 "32 sectors per request where 4 would do", CL301 note  // expect-miss: CL301 warning with zeroed m no lane takes it: nvcc predicates the add, issued with every lane off (44% of lane slots), which the yardstick counts as idle lanes; the data decides, hence a note
                sum += m[row * n + j] * x[j];
        }
        y[row] = sum;
    }
}

// A value stored and read back by the same thread: the read is the register's.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=8.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=2.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ru_store_then_load(float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    a[2 * i] = a[2 * i] + 1.0f;  // expect: CL101 warning, CL101 warning
    float again = a[2 * i];
    a[2 * i + 1] = again;  // expect: CL101 warning @5 "8 sectors per request where 4 would do"
}

// The same address read again after a barrier: other threads may have written it, so
// the second load is issued.
// launch: grid=128 block=256
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void ru_reload_after_barrier(const float* a, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float first = a[2 * i];  // expect: CL101 warning
    __syncthreads();
    float second = a[2 * i];  // expect: CL101 warning
    out[i] = first + second;
}

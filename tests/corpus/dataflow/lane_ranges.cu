// cudalint dataflow corpus: ranges walked from a start each lane loaded (a CSR row per
// thread, an adjacency list per vertex) put every lane of a warp in its own range; a
// gather through a loaded index goes wherever the index says; a start shared by the
// lanes of a warp (a CSR row per warp) keeps them together.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)
// The "launch:" lines sit in the comment block right above the kernel they launch. The
// harness gives every pointer parameter its own zeroed device buffer (256 MiB, or
// bytes=), the i-th pointer parameter of every kernel the i-th buffer, scalars their
// args: value, and launches the kernels of the file in order. df_build_csr runs first and
// writes the sparse matrix (rows of 16 entries, columns spread over the vector) that the
// CSR and graph kernels after it read through the same buffers; per source line, the
// sectors of the walked and gathered loads are what the comments predict.
// Run of the recorded lines (H100, sm_90): df_csr_scalar and df_adjacency_walk move about
// 31 sectors per load request (their walked and gathered loads, averaged), df_csr_vector
// 4.4. df_csr_vector's 4096 divergent branch targets, one per warp, are the last trip of
// each 16-entry row (half the warp idle): like a bounds guard, only the last trip of a
// range walked by the whole warp splits it, and cudalint stays quiet there.

// Writes the CSR matrix the next kernels read, one thread per entry: row r holds entries
// 16r..16r+15, with column (r * 16 + k) * 97 % n, so every lane of a warp in the kernels
// below reads a different row and column.
// launch: grid=1024 block=256 args: n=16384
// measured: gld_sectors_per_request=- gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=28.62 gld_requests_per_warp=- gst_requests_per_warp=2.06 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_build_csr(int* row_start, int* column, float* value, int n) {
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    column[j] = j * 97 % n;
    value[j] = 1.0f;
    if (j <= n) {
        row_start[j] = 16 * j;
    }
}

// CSR sparse matrix-vector product, one row per thread: lane r walks value[j] and
// column[j] from its own row_start[r]. At every trip the 32 lanes are a row (64 bytes)
// apart: 32 sectors per request where 4 would do. The x[column[j]] gather lands on
// scattered columns: up to 32 sectors.
// launch: grid=64 block=256 args: n=16384
// measured: gld_sectors_per_request=30.90 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.93 gld_requests_per_warp=50.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_csr_scalar(const int* row_start, const int* column, const float* value, const float* x,
                              float* y, int n) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n) {
        float sum = 0.0f;
        for (int j = row_start[row]; j < row_start[row + 1]; ++j) {  // known false positive: CL301 note every row holds 16 entries here (df_build_csr): all lanes run 16 trips, no split; rows of other lengths would split, hence a note
            sum += value[j] * x[column[j]];  // expect: CL101 warning, CL101 warning, CL101 note
        }
        y[row] = sum;
    }
}

// CSR, one warp per row: the row's start is the same for the 32 lanes, which then read
// consecutive entries: value[j] and column[j] are coalesced (2-3 sectors for 16 entries
// that start anywhere). Quiet but for the gather.
// launch: grid=512 block=256 args: n=16384
// measured: gld_sectors_per_request=4.40 gst_sectors_per_request=1.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=4096 pred_on_ratio=20.22 gld_requests_per_warp=5.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_csr_vector(const int* row_start, const int* column, const float* value, const float* x,
                              float* y, int n) {
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (row < n) {
        float sum = 0.0f;
        for (int j = row_start[row] + lane; j < row_start[row + 1]; j += 32) {  // expect-miss: CL301 df_build_csr's rows hold 16 entries: the one trip a warp makes runs 16 lanes (4096 of 16384 branches divergent); the model counts a stride loop's ragged last round as cheap, here its only one
            sum += value[j] * x[column[j]];  // expect: CL101 note  // expect-miss: CL101 warning df_build_csr's columns put the x[column[j]] gather's lanes 97 floats apart (ncu: 8x); an index loaded at run time gets a note, never a warning
        }
        for (int offset = 16; offset > 0; offset /= 2) {
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        }
        if (lane == 0) {  // expect-miss: CL301 one lane's short body: the model counts a single lane's store as predicated and cheap; measured, it idles 5.5% of this short kernel's lane slots (the yardstick counts from 0.5%)
            y[row] = sum;
        }
    }
}

// Graph relaxation over adjacency lists in CSR form, one vertex per thread: the edge
// list of vertex v starts at row_start[v], loaded per lane, so neighbour[e] is walked in
// 32 separate ranges (32 sectors per request); distance[u] is a gather.
// launch: grid=64 block=256 args: n=16384
// measured: gld_sectors_per_request=30.37 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.99 gld_requests_per_warp=51.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_adjacency_walk(const int* row_start, const int* neighbour, const float* weight, float* distance,
                                  int n) {
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n) {
        return;
    }
    float best = distance[v];
    int e = row_start[v];
    int end = row_start[v + 1];
    while (e < end) {  // known false positive: CL301 note every list holds 16 edges here (df_build_csr): all lanes run 16 trips, no split; lists of other lengths would split, hence a note
        int u = neighbour[e];  // expect: CL101 warning @17 "32 sectors per request where 4 would do"
        best = fminf(best, distance[u] + weight[e]);  // expect: CL101 warning, CL101 note
        ++e;
    }
    distance[v] = best;
}

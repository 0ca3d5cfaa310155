// cudalint dataflow corpus: values that are the same in every thread of a block because
// they pass through memory at an address all threads share (a __shared__ scalar written
// by one thread before a barrier, a block's record in global memory, __constant__ data,
// the result of __syncthreads_or), and addresses built on such values: a base that is data
// but the same for the whole block keeps the lane stride of the index added to it.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)
// The "launch:" lines sit in the comment block right above the kernel they launch. The
// harness gives every pointer parameter its own zeroed device buffer (256 MiB, or
// bytes=), scalars their args: value (0 when absent), and launches every kernel of the
// file in order, once to warm up and once under Nsight Compute. The same kernels run
// under `scripts/measure_gpu.py --synccheck` (compute-sanitizer's synccheck) for the
// barrier verdicts.
// Every loop exit and every condition around a barrier below is decided the same way by
// all threads of a block: synccheck reports no error, and these branches no divergent
// targets (the divergent targets measured come from the single-lane `if (t == 0)` stores,
// one per block); cudalint must report no CL301 and no CL302 on them unless a comment says
// otherwise. The comment above each kernel says which value is uniform and why. Buffers by
// position: every kernel writes only its first buffer (df_persistent_blocks also its
// counter, the third); flags, records and box offsets are read from the second, which
// stays zero.
// Run of the recorded lines (H100, sm_90, kernel-wide counters): every plain run finished
// without a CUDA error and synccheck reported 0 errors for every kernel; the divergent
// branch targets are the single-lane stores (df_persistent_blocks: 256 = 64 blocks x 4
// items; df_block_flag_exit: 64, one per block). df_warp_shared_value's barrier, skipped by
// whole warps, also passed: undefined behaviour that runs, hence a warning, not an error.

// Persistent blocks: thread 0 takes the next work item from a global counter into the
// shared scalar s_item; after the barrier every thread reads the same item, so the
// `item >= items` exit and the barriers in the loop are block-uniform. Each block takes
// at most 4 items per launch, so the two launches of the harness find items left (the
// counter is never reset): 1 sector per s_item read, coalesced rows.
// launch: grid=64 block=256 args: items=4096
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=256 pred_on_ratio=28.92 gld_requests_per_warp=4.00 gst_requests_per_warp=4.00 shld_requests_per_warp=4.00 shst_requests_per_warp=0.50 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_persistent_blocks(float* out, const float* in, int* next_item, int items) {
    __shared__ int s_item;
    for (int taken = 0; taken < 4; ++taken) {
        if (threadIdx.x == 0) {  // expect-miss: CL301 one lane's short body: the model counts a single lane's store as predicated and cheap; measured, it idles 2.0% of this short kernel's lane slots (the yardstick counts from 0.5%)
            s_item = atomicAdd(next_item, 1);
        }
        __syncthreads();
        int item = s_item;
        if (item >= items) {
            break;
        }
        int i = item * blockDim.x + threadIdx.x;
        out[i] = 2.0f * in[i];
        __syncthreads();
    }
}

// A convergence loop (damped Jacobi sweeps, at most 100): thread 0 sets the flag, every
// thread that has not converged clears it (all writers store the same value), and after
// the barrier every thread reads the same flag: `while (!s_done && ...)` is block-uniform,
// so are the barriers in the loop. With zeroed inputs the first sweep converges.
// launch: grid=64 block=256 args: tolerance=0.001
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=0.53 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=26.76 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=4.00 shst_requests_per_warp=4.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_convergence_flag(float* x, const float* b, float tolerance) {
    __shared__ int s_done;
    __shared__ float s_x[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s_x[t] = x[i];
    int sweeps = 0;
    do {
        __syncthreads();
        if (t == 0) {
            s_done = 1;
        }
        __syncthreads();
        float left = s_x[(t + 255) % 256];
        float right = s_x[(t + 1) % 256];
        float next = 0.25f * (left + right) + b[i];
        if (fabsf(next - s_x[t]) > tolerance) {  // expect: CL301 note  // expect-miss: CL301 warning with zeroed data no lane takes it: nvcc predicates the store, issued with every lane off (6% of lane slots), which the yardstick counts as idle lanes; the data decides, hence a note
            s_done = 0;
        }
        __syncthreads();
        s_x[t] = next;
    } while (!s_done && ++sweeps < 100);
    x[i] = s_x[t];
}

// A per-block flag read by thread 0 from global memory and shared through s_skip: the
// early return is taken by whole blocks only, so the barrier after it is reached by all
// threads of every block that goes on. (Flags are zeroed: no block returns.)
// launch: grid=64 block=256
// measured: gld_sectors_per_request=3.67 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=64 pred_on_ratio=29.97 gld_requests_per_warp=1.12 gst_requests_per_warp=1.00 shld_requests_per_warp=2.00 shst_requests_per_warp=1.12 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_block_flag_exit(float* out, const int* skip_block, const float* in) {
    __shared__ int s_skip;
    __shared__ float tile[256];
    int t = threadIdx.x;
    if (t == 0) {  // expect-miss: CL301 one lane's short body: the model counts a single lane's store as predicated and cheap; measured, it idles 3.3% of this short kernel's lane slots (the yardstick counts from 0.5%)
        s_skip = skip_block[blockIdx.x];
    }
    __syncthreads();
    if (s_skip) {
        return;
    }
    int i = blockIdx.x * blockDim.x + t;
    tile[t] = in[i];
    __syncthreads();
    out[i] = tile[255 - t];
}

// The block's own record in global memory: d_tiles[blockIdx.x] is one address per block,
// so its fields are block-uniform; the loop over the tile's rows has a uniform trip
// count and the barrier inside it is fine. (Zeroed records: no trip.)
struct TileInfo {
    int rows;
    int first_row;
};
// launch: grid=64 block=256
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=- shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=- shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_block_record(float* out, const TileInfo* d_tiles, const float* in) {
    __shared__ float row_buffer[256];
    int t = threadIdx.x;
    for (int r = 0; r < d_tiles[blockIdx.x].rows; ++r) {
        int i = (d_tiles[blockIdx.x].first_row + r) * blockDim.x + t;
        row_buffer[t] = in[i];
        __syncthreads();
        out[i] = row_buffer[255 - t];
        __syncthreads();
    }
}

// __constant__ parameters: every thread reads the same address, so `c_stencil.radius > 0`
// is uniform and the barrier under it is reached by all threads.
struct StencilParams {
    int radius;
    float weight;
};
__constant__ StencilParams c_stencil;
// launch: grid=64 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=- shld_wavefronts_per_request=- shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=- shld_requests_per_warp=- shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_constant_struct(float* out, const float* in) {
    __shared__ float s[256 + 2 * 8];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t + 8] = in[i];
    if (c_stencil.radius > 0) {
        __syncthreads();
        out[i] = c_stencil.weight * (s[t + 8 - 1] + s[t + 8] + s[(t + 8 + 1) % 272]);
    }
}

// __syncthreads_or returns the same value in every thread of the block: the second
// barrier sits under a block-uniform condition. (Zeroed input: no thread votes.)
// launch: grid=64 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_vote_then_sync(float* out, const float* in) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    float v = in[i];
    int any_negative = __syncthreads_or(v < 0.0f);
    if (any_negative) {
        s[t] = -v;
        __syncthreads();
        v = s[255 - t];
    }
    out[i] = v;
}

// A value shared per warp only: lane 0 of each warp publishes its warp's count in
// s_count[warp]; after the barrier the lanes of a warp agree (no CL301), but warps
// differ, so a block barrier under `s_count[warp] > 0` is skipped by whole warps:
// undefined behaviour that passes at run time (synccheck: 0 errors): the warps that skip
// it exit without meeting another barrier, a CL302 note.
// launch: grid=64 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=30.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_warp_shared_value(float* out, const float* in) {
    __shared__ int s_count[8];
    __shared__ float s[256];
    int t = threadIdx.x;
    int warp = t / 32;
    int i = blockIdx.x * blockDim.x + t;
    float v = in[i];
    unsigned ballot = __ballot_sync(0xffffffffu, v > 0.0f);
    if (t % 32 == 0) {  // expect-miss: CL301 one lane's short body: the model counts a single lane's store as predicated and cheap; measured, it idles 6.5% of this short kernel's lane slots (the yardstick counts from 0.5%)
        s_count[warp] = __popc(ballot);
    }
    __syncthreads();
    if (s_count[warp] > 0) {
        s[t] = v;
        __syncthreads();  // expect: CL302 note @9 "is reached under `s_count[warp] > 0`"
        v = s[(t + 32) % 256];
    }
    out[i] = v;
}

struct BoxRange {
    int offset;
    int count;
};
struct Particle {
    float x, y, z;
    float vx, vy, vz;
};

// Particles grouped in boxes: box b's particles start at boxes[b].offset. The base is
// data, but one value for the whole block; lane t then reads particle t of the box: 24
// bytes apart, so reading only x uses 4 of every 24 bytes: 24 sectors per request for 4
// sectors of data, whatever the offset (zeroed here: every box at 0).
// launch: grid=64 block=128
// measured: gld_sectors_per_request=12.50 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_box_particles(float* out, const BoxRange* boxes, const Particle* particles) {
    const Particle* mine = &particles[boxes[blockIdx.x].offset];
    int t = threadIdx.x;
    out[blockIdx.x * blockDim.x + t] = mine[t].x;  // expect: CL102 warning @40 "24 sectors per request for 4 sectors of data"
}

// The same boxes over plain arrays: x[offset + t] is coalesced (4 or 5 sectors as the
// offset falls), x[offset + 2 * t] reads every other float: 8 or 9 sectors for 4 of data.
// launch: grid=64 block=128
// measured: gld_sectors_per_request=4.33 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=3.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_box_offset_arrays(float* out, const BoxRange* boxes, const float* x) {
    int base = boxes[blockIdx.x].offset;
    int t = threadIdx.x;
    float near = x[base + t];
    float far = x[base + 2 * t];  // expect: CL101 warning @17 "8 sectors per request where 4 would do"
    out[blockIdx.x * blockDim.x + t] = near + far;
}

// Row pointers kept in shared memory: thread r of the first warp stores the address of
// row r, every thread then reads the row its block handles. The pointer loaded back is
// the same for the whole block and points into global memory: row[t] is coalesced and
// row[4 * t] reads one float in four (16 sectors for 4 of data).
// launch: grid=64 block=256 args: n=4096
// measured: gld_sectors_per_request=10.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=2.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=31.85 gld_requests_per_warp=2.00 gst_requests_per_warp=1.00 shld_requests_per_warp=1.00 shst_requests_per_warp=0.12 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_shared_row_pointers(float* out, float* matrix, int n) {
    __shared__ float* s_rows[32];
    int t = threadIdx.x;
    if (t < 32) {
        s_rows[t] = matrix + (size_t)t * n;
    }
    __syncthreads();
    float* row = s_rows[blockIdx.x % 32];
    float a = row[t];
    float b = row[4 * t];  // expect: CL101 warning @15 "16 sectors per request where 4 would do"
    out[blockIdx.x * blockDim.x + t] = a + b;
}

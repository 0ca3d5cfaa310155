// cudalint divergence corpus: what a split costs when one lane works alone and when a
// loop's trip count differs from lane to lane or from warp to warp.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
// A one-lane guard (`if (threadIdx.x == 0)`) idles the other 31 lanes of its warp for
// every instruction of its body: a store or two is nothing, a serial loop over the block's
// data can be most of the kernel. A loop whose trip count differs between the lanes of a
// warp runs as long as its longest lane; one whose bound differs between warps (a
// warp-stride walk over per-warp segments) idles lanes in each warp's ragged last round.
// Per-line figures: lane_work.cu.lines.json once measured.

// One lane stores the block's result after a long per-thread loop: cheap.
// launch: grid=128 block=256 bytes=1048576
__global__ void lw_one_lane_store(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    for (int k = 0; k < 32; ++k) {
        v = v * 0.75f + a[(i + k * 64) % 32768];
    }
    out[i] = v;
    if (threadIdx.x == 0) out[32768 + blockIdx.x] = v;
}

// One lane scans the block's 256 values serially: the other 31 lanes of warp 0 idle for
// every trip, and the kernel is little else.
// launch: grid=128 block=256 bytes=1048576
__global__ void lw_one_lane_serial_scan(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = a[blockIdx.x * 256 + t];
    __syncthreads();
    if (t == 0) {  // expect: CL301 warning @5 "about 93% of the lane slots"
        float run = 0.0f;
        for (int k = 0; k < 256; ++k) {
            run += s[k];
            s[k] = run;
        }
    }
    __syncthreads();
    out[blockIdx.x * 256 + t] = s[t];
}

// One lane normalizes a row of n values (a launch value) after every thread summed a
// stretch of it: the serial loop is a tenth of the kernel's work.
// launch: grid=128 block=256 bytes=1048576 args: n=64
__global__ void lw_one_lane_normalize(float* out, const float* a, int n) {
    __shared__ float total;
    int t = threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < 64; ++k) sum += a[(blockIdx.x * 64 + k * 256 + t) % 32768];
    if (t == 0) total = 0.0f;
    __syncthreads();
    atomicAdd(&total, sum);  // expect-miss: CL301 a float atomicAdd to shared memory is an ATOMS.CAST.SPIN loop the lanes on one address leave one at a time (31744 of 32768 branches divergent); no rule models atomic contention yet
    __syncthreads();
    out[blockIdx.x * 256 + t] = sum;
    if (t == 0) {  // expect: CL301 warning
        float scale = 1.0f / total;
        for (int j = 0; j < n; ++j) out[65536 + blockIdx.x * n + j] = a[blockIdx.x * n + j] * scale;
    }
}

// One lane runs a short loop (4 trips) in a kernel whose every thread runs 256: under
// 0.5% of the lane slots.
// launch: grid=128 block=256 bytes=1048576
__global__ void lw_one_lane_short_loop(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 0.0f;
    for (int k = 0; k < 256; ++k) v = v * 0.5f + a[(i + k * 128) % 32768];
    if (threadIdx.x == 0) {
        for (int j = 0; j < 4; ++j) v += a[(blockIdx.x + j * 32) % 32768];
    }
    out[i] = v;
}

// One lane computes a long straight-line epilogue (no loop) in a short kernel.
// launch: grid=128 block=256 bytes=1048576
__global__ void lw_one_lane_long_body(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    out[i] = v * 2.0f;
    if (threadIdx.x == 0) {  // expect: CL301 warning @5 "about 88% of the lane slots"
        float x = v;
        x = sqrtf(x * x + 1.0f);
        x = expf(-x) + logf(x + 2.0f);
        x = sinf(x) * cosf(x) + tanhf(x);  // expect: CL504 warning, CL504 warning
        x = powf(x + 1.5f, 0.75f) + sqrtf(x * 3.0f + 4.0f);
        x = expf(x * 0.1f) * logf(x * x + 1.0f);
        x = sinf(x + 1.0f) + cosf(x * 2.0f);  // expect: CL504 warning, CL504 warning
        out[32768 + blockIdx.x] = x;
    }
}

// A lane-varying start (`t3` from threadIdx.x): lane l runs T - l trips, the warp runs T (a note alone, T unknown; a warning with lane_work_launch.cu's T = 64).
// launch: grid=128 block=256 bytes=1048576 args: T=64
__global__ void lw_lane_start_trips(float* out, const float* a, int T) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t3 = threadIdx.x % 32;
    float acc = 0.0f;
    for (int t = t3; t < T; t++) {  // expect: CL301 note
        acc = acc * 0.9f + a[(i + (t - t3) * 256) % 32768];  // expect-miss: CL101 nvcc runs each lane's leftover trips first, then the unrolled loop (225 SASS instructions here): the lanes are at different trips, 256 floats apart (ncu: 8x); the tool keeps them in step
    }
    out[i] = acc;
}

// A lane-varying start stepped by two: trips differ by up to four of 24.
// launch: grid=128 block=256 bytes=1048576
__global__ void lw_lane_start_while(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = threadIdx.x & 7;
    int round = 0;
    float acc = 0.0f;
    while (k < 48) {  // expect: CL301 warning
        acc = acc * 0.9f + a[(i + round * 256) % 32768];  // expect-miss: CL101 nvcc unrolls the loop (230 SASS instructions here) and lanes whose trip counts differ (21 to 24) run its copies at different rounds, 256 floats apart (ncu: 4x); the tool keeps them in step
        k += 2;
        ++round;
    }
    out[i] = acc;
}

// A lane-varying start and end that move together: every lane runs T trips.
// launch: grid=128 block=256 bytes=1048576 args: T=64
__global__ void lw_lane_shift_uniform_trips(float* out, const float* a, int T) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int shift = threadIdx.x % 32;
    float acc = 0.0f;
    for (int t = shift; t < T + shift; t++) {
        acc = acc * 0.9f + a[(i + (t - shift) * 256) % 32768];
    }
    out[i] = acc;
}

// Warp-stride walks over per-warp segments of 40 + 13 * warp values: every warp's last
// round is ragged, and the segments are two to five rounds long.
// launch: grid=128 block=256 bytes=1048576
__global__ void lw_warp_ragged_rounds(float* out, const float* a) {
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    int len = 40 + 13 * warp;
    int base = (blockIdx.x * 8 + warp) * 160;
    float acc = 0.0f;
    for (int j = lane; j < len; j += 32) {  // expect: CL301 warning
        acc = acc * 0.9f + a[(base + j) % 32768];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// The same walk over segments of a multiple of 32 values: no round is ragged.
// launch: grid=128 block=256 bytes=1048576
__global__ void lw_warp_whole_rounds(float* out, const float* a) {
    int warp = threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    int len = 64 * (1 + warp % 4);
    int base = (blockIdx.x * 8 + warp) * 256;
    float acc = 0.0f;
    for (int j = lane; j < len; j += 32) {
        acc = acc * 0.9f + a[(base + j) % 32768];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// A grid-stride loop over many rounds: only the last round of one warp is ragged.
// launch: grid=64 block=256 bytes=4194304 args: n=1000000
__global__ void lw_grid_stride_many_rounds(float* out, const float* a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = a[i] * 2.0f + 1.0f;
    }
}

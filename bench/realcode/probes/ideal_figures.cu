// What Nsight Compute's per-line counters call "ideal", "excessive" and "divergent" for
// the shapes the real-code hazard thresholds (bench/realcode/README.md) must judge:
// broadcasts, two-address warps, wide accesses, predicated and selected branch bodies,
// loop tails, reduction tails, single-lane work and inlined helpers. Launch lines use
// scripts/measure_gpu.py's format; `measure_gpu.py --lines` writes ideal_figures.cu.lines.json.

// Every lane reads one address.
// launch: grid=64 block=128
__global__ void pr_broadcast_one(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[0];
}

// Two addresses 4 KiB apart: two sectors for 8 useful bytes.
// launch: grid=64 block=128
__global__ void pr_broadcast_two_far(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[(threadIdx.x / 16) * 1024];
}

// Two addresses in one sector.
// launch: grid=64 block=128
__global__ void pr_broadcast_two_near(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[threadIdx.x / 16];
}

// 16x16 block: a warp spans two rows, so a[row * n + k] is two addresses per request.
// launch: grid=16,16 block=16,16 args: n=256
__global__ void pr_rows_2d(float* out, const float* a, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < 8; ++k) {
        sum += a[row * n + k];
    }
    out[row * n + col] = sum;
}

// Stride 2 floats: half of every sector used.
// launch: grid=64 block=128
__global__ void pr_stride2(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[2 * i];
}

// Stride 8 floats: one sector per lane.
// launch: grid=64 block=128
__global__ void pr_stride8(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[8 * i];
}

// 16-byte accesses, consecutive.
// launch: grid=64 block=128
__global__ void pr_float4_copy(float4* out, const float4* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i];
}

// Short body on odd lanes: nvcc predicates it (no branch to diverge).
// launch: grid=64 block=128
__global__ void pr_predicated_odd(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    if (threadIdx.x & 1) {
        v = v * 3.0f + 1.0f;
        v = v * v - 2.0f;
    }
    out[i] = v;
}

// A one-select body.
// launch: grid=64 block=128
__global__ void pr_select_odd(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    out[i] = (threadIdx.x & 1) ? v : 2.0f;
}

// A loop body on odd lanes: a real branch that diverges.
// launch: grid=64 block=128 args: reps=16
__global__ void pr_branch_odd(float* out, const float* a, int reps) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    if (threadIdx.x & 1) {
        for (int j = 0; j < reps; ++j) {
            v = v * v + 0.25f;
        }
    }
    out[i] = v;
}

// Grid-stride loop whose last round covers part of a warp (1000 = 7*128 + 104).
// launch: grid=1 block=128 args: n=1000
__global__ void pr_grid_stride_tail(float* out, const float* a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = a[i] * 2.0f;
    }
}

// Bounds guard with a partial last warp (1000 threads wanted, 1024 launched).
// launch: grid=8 block=128 args: n=1000
__global__ void pr_bounds_tail(float* out, const float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a[i] * 2.0f;
    }
}

// Tree reduction in shared memory: `if (t < k)` splits warp 0 for k < 32 only.
// launch: grid=64 block=256
__global__ void pr_tree_reduction(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = a[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k) {
            s[t] += s[t + k];
        }
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}

// One lane per block does the work.
// launch: grid=64 block=128
__global__ void pr_single_lane(float* out, const float* a) {
    if (threadIdx.x == 0) {
        out[blockIdx.x] = a[blockIdx.x] * 2.0f;
    }
}

// Shared: all lanes read one word (broadcast), then two words of one bank.
// launch: grid=64 block=128
__global__ void pr_shared_broadcasts(float* out, const float* a) {
    __shared__ float s[128];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    __syncthreads();
    float one = s[0];
    float two_same_bank = s[(t / 16 % 2) * 32];
    float two_banks = s[t / 16];
    out[i] = one + two_same_bank + two_banks;
}

// Shared: 8-byte words, consecutive (two wavefronts ideal) and stride 2 (conflict).
// launch: grid=64 block=128
__global__ void pr_shared_double_words(double* out, const double* a) {
    __shared__ double s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    s[t + 128] = a[i];
    __syncthreads();
    out[i] = s[t] + s[(2 * t) & 255];
}

__device__ __forceinline__ float pr_scaled_gather(const float* a, int i) {
    return a[4 * i] * 0.5f;
}

// A helper inlined into the kernel: its strided load belongs to the helper's line.
// launch: grid=64 block=128
__global__ void pr_inlined_helper(float* out, const float* a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = pr_scaled_gather(a, i);
}

// Per-thread arrays: in registers when every index is a constant after unrolling,
// in local memory otherwise. The "ptxas:" lines are nvcc's figures for each kernel
// (scripts/measure_ptxas.py); a stack frame at least the array's size means local memory.

// A per-thread histogram indexed by the data: local memory.
// ptxas: registers=32 stack=64 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void digit_histogram(const unsigned* keys, int* out, int n) {
    int count[16] = {};  // expect: CL502 warning @5 "lives in local memory"
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        count[keys[i] & 15]++;  // expect: CL502 warning @9 "64 bytes)"
#pragma unroll
    for (int b = 0; b < 16; ++b) out[b * n + threadIdx.x] = count[b];  // expect: CL502 warning
}

// The same histogram with a compare per bin: every index is constant, registers.
// ptxas: registers=40 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void digit_histogram_select(const unsigned* keys, int* out, int n) {
    int count[16] = {};
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned digit = keys[i] & 15;
#pragma unroll
        for (int b = 0; b < 16; ++b) count[b] += digit == b;
    }
#pragma unroll
    for (int b = 0; b < 16; ++b) out[b * n + threadIdx.x] = count[b];
}

// A small filter with loops the compiler unrolls on its own (constant trip count, small body).
// ptxas: registers=25 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void fir8(const float* x, const float* taps, float* y, int n) {
    float h[8];
    for (int k = 0; k < 8; ++k) h[k] = taps[k];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + 8 > n) return;
    float s = 0.f;
    for (int k = 0; k < 8; ++k) s += h[k] * x[i + k];
    y[i] = s;
}

// The filter length is a run-time value: the loops cannot be unrolled, the taps go to local memory.
// ptxas: registers=29 stack=128 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void fir_runtime(const float* x, const float* taps, float* y, int n, int len) {
    float h[32];
    for (int k = 0; k < len; ++k) h[k] = taps[k];  // expect: CL502 warning
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i + len > n) return;
    float s = 0.f;
    for (int k = 0; k < len; ++k) s += h[k] * x[i + k];  // expect: CL502 warning
    y[i] = s;
}

// `#pragma unroll 1` keeps the load loop rolled: its counter indexes the array at run time.
// ptxas: registers=24 stack=64 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void rolled_load(const float* in, float* out) {
    float v[16];
#pragma unroll 1
    for (int i = 0; i < 16; ++i) v[i] = in[i * 256 + threadIdx.x];  // expect: CL502 warning
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < 16; ++i) s += v[i] * v[15 - i];  // expect: CL502 warning
    out[threadIdx.x] = s;
}

// Selecting an element by lane, once: nvcc turns lone dynamic reads of a small array
// into selects (or recomputes the element), so it stays in registers.
// ptxas: registers=22 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void lane_select(const float* in, float* out) {
    float v[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = sqrtf(in[i * 256 + threadIdx.x]);
    out[threadIdx.x] = v[threadIdx.x % 8] + v[(threadIdx.x + 3) % 8];
}

// The same lone reads in a kernel whose sinf already uses local memory (its argument
// reduction table): ptxas then leaves the run-time-indexed array there too.
// ptxas: registers=20 stack=64 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void lone_reads(const float* in, const int* idx, float* out) {
    float v[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = sinf(in[i * 256 + threadIdx.x]);  // expect: CL502 warning
    out[threadIdx.x] = v[idx[threadIdx.x] & 7] + v[threadIdx.x % 8];  // expect: CL502 warning
}

// The same selection through a rotation the compiler can resolve: constant indices.
// ptxas: registers=22 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void lane_select_unrolled(const float* in, float* out) {
    float v[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = sqrtf(in[i * 256 + threadIdx.x]);
    float picked = 0.f;
#pragma unroll
    for (int i = 0; i < 8; ++i) picked += (threadIdx.x % 8 == i) ? v[i] : 0.f;
    out[threadIdx.x] = picked;
}

// Insertion sort of 8 values per thread: the inner loop's bound depends on data. Every
// access is a local load or store; nvcc places the load of `key` on the line that first
// compares it (the while), not on its own.
// ptxas: registers=20 stack=32 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void sort8(float* data) {
    float v[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = data[i * 256 + threadIdx.x];  // expect: CL502 warning
    for (int i = 1; i < 8; ++i) {
        float key = v[i];  // expect: CL502 warning
        int j = i - 1;
        while (j >= 0 && v[j] > key) {  // expect: CL301 note @9 "about 21% of the lane slots", CL502 warning
            v[j + 1] = v[j];  // expect: CL502 warning
            --j;
        }
        v[j + 1] = key;  // expect: CL502 warning
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) data[i * 256 + threadIdx.x] = v[i];  // expect: CL502 warning
}

// A sorting network over the same 8 values: fixed compare-exchange pairs, registers.
// ptxas: registers=22 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void sort8_network(float* data) {
    float v[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = data[i * 256 + threadIdx.x];
#pragma unroll
    for (int pass = 0; pass < 8; ++pass)
#pragma unroll
        for (int i = pass % 2; i + 1 < 8; i += 2) {
            float lo = fminf(v[i], v[i + 1]), hi = fmaxf(v[i], v[i + 1]);
            v[i] = lo;
            v[i + 1] = hi;
        }
#pragma unroll
    for (int i = 0; i < 8; ++i) data[i * 256 + threadIdx.x] = v[i];
}

// A lookup table built per thread and read once with loaded data: the compiler
// computes the one entry needed instead of the table.
// ptxas: registers=26 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void palette(const unsigned char* pixels, float* out, float gamma, int n) {
    float table[32];
#pragma unroll
    for (int i = 0; i < 32; ++i) table[i] = __powf(i / 31.0f, gamma);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = table[pixels[i] & 31];
}

// The same table read in a loop over the pixels: local memory.
// ptxas: registers=31 stack=128 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void palette_loop(const unsigned char* pixels, float* out, float gamma, int n) {
    float table[32];
#pragma unroll
    for (int i = 0; i < 32; ++i) table[i] = __powf(i / 31.0f, gamma);  // expect: CL502 warning
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = table[pixels[i] & 31];  // expect: CL502 warning
}

// A long body in a constant loop: too large to unroll fully, so the array is indexed at run time.
// ptxas: registers=30 stack=160 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void long_body(const float* in, float* out) {
    float a[32];
    for (int i = 0; i < 32; ++i) {
        float x = in[i * 256 + threadIdx.x];
        a[i] = sinf(x) * cosf(x) + expf(x) * logf(x + 1.f) + tanhf(x);  // expect: CL502 warning, CL504 warning, CL504 warning
    }
    float s = 0.f;
    for (int i = 0; i < 32; ++i) s += a[i];  // expect: CL502 warning
    out[threadIdx.x] = s;
}

// The same body over 4 elements: unrolled, registers.
// ptxas: registers=32 stack=32 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void long_body_short(const float* in, float* out) {
    float a[4];
    for (int i = 0; i < 4; ++i) {
        float x = in[i * 256 + threadIdx.x];
        a[i] = sinf(x) * cosf(x) + expf(x) * logf(x + 1.f) + tanhf(x);  // expect: CL504 warning, CL504 warning
    }
    float s = 0.f;
    for (int i = 0; i < 4; ++i) s += a[i];
    out[threadIdx.x] = s;
}

// A 64-entry prefix computed with constant indices: registers, no local memory.
// ptxas: registers=72 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void prefix64(const float* in, float* out) {
    float p[64];
    p[0] = in[threadIdx.x];
    for (int i = 1; i < 64; ++i) p[i] = p[i - 1] + in[i * 256 + threadIdx.x];
    for (int i = 0; i < 64; ++i) out[i * 256 + threadIdx.x] = p[i];
}

// An index passed in as a parameter and used once: the compiler loads just that element.
// ptxas: registers=15 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void pick_parameter(const float* in, float* out, int which) {
    float v[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = in[i * 256 + threadIdx.x] * 2.f;
    out[threadIdx.x] = v[which & 7];
}

// A uniform run-time index inside a loop: the same for all threads, still local memory.
// ptxas: registers=20 stack=32 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void rotate_parameter(const float* in, float* out, int shift, int rounds) {
    float v[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = in[i * 256 + threadIdx.x];  // expect: CL502 warning
    for (int r = 0; r < rounds; ++r) {
        float first = v[(r + shift) & 7];  // expect: CL502 warning
        v[(r + shift) & 7] = first * 0.5f + v[(r + shift + 1) & 7];  // expect: CL502 warning
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) out[i * 256 + threadIdx.x] = v[i];  // expect: CL502 warning
}

// A small array reached through a helper that is inlined: constant indices after unrolling.
__device__ float dot4(const float* a, const float* b) {
    float s = 0.f;
    for (int i = 0; i < 4; ++i) s += a[i] * b[i];
    return s;
}

// ptxas: registers=18 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void via_helper(const float* in, float* out) {
    float a[4], b[4];
    for (int i = 0; i < 4; ++i) {
        a[i] = in[i * 256 + threadIdx.x];
        b[i] = in[(i + 4) * 256 + threadIdx.x];
    }
    out[threadIdx.x] = dot4(a, b);
}

// Depth-first traversal of an implicit binary tree with a per-thread stack: the stack
// pointer moves with the data, so every push and pop is a local-memory access.
// ptxas: registers=15 stack=96 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void tree_count(const float* keys, const float* queries, int* hits, int nodes, int n) {
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= n) return;
    float query = queries[q];
    int stack[24];
    int top = 0, count = 0;
    stack[top++] = 0;  // expect: CL502 warning
    while (top > 0) {  // expect: CL301 note @5 "about 44% of the lane slots"
        int node = stack[--top];  // expect: CL502 warning
        if (node >= nodes) continue;  // expect: CL301 note
        if (keys[node] <= query) {  // expect: CL301 note, CL101 note
            ++count;
            stack[top++] = 2 * node + 1;  // expect: CL502 warning
        }
        stack[top++] = 2 * node + 2;  // expect: CL502 warning
    }
    hits[q] = count;
}

// Keeping the 8 largest values seen, sorted: the insertion point depends on the data.
// ptxas: registers=30 stack=32 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void top8(const float* values, float* out, int n) {
    float best[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) best[i] = -1e30f;  // expect: CL502 warning
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        float v = values[i];
        int slot = 8;
        while (slot > 0 && best[slot - 1] < v) {  // expect: CL301 note, CL502 warning
            if (slot < 8) best[slot] = best[slot - 1];  // expect: CL502 warning
            --slot;
        }
        if (slot < 8) best[slot] = v;  // expect: CL301 note, CL502 warning
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) out[i * blockDim.x + threadIdx.x] = best[i];  // expect: CL502 warning
}

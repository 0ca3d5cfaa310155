// How Hopper serves shared-memory requests of 1-, 2-, 4-, 8- and 16-byte words: which
// lane patterns the per-line counters call ideal and which excessive. Each kernel fills
// its tile with a contiguous store, waits at a barrier, then reads the tile with ONE
// pattern on its own line (the line of interest) and stores the value coalesced.
// Launch lines use scripts/measure_gpu.py's format; `measure_gpu.py --lines` writes
// shared_widths.cu.lines.json beside this file.

#define FILL(s, n)                                                   \
    for (int k = threadIdx.x + threadIdx.y * blockDim.x; k < (n);    \
         k += blockDim.x * blockDim.y) (s)[k] = in[k];               \
    __syncthreads()

// ---- 8-byte words (double)

// launch: grid=8 block=128
__global__ void sw_double_contiguous(double* out, const double* in) {
    __shared__ double s[2048];
    FILL(s, 2048);
    out[blockIdx.x * 128 + threadIdx.x] = s[threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_double_offset_one(double* out, const double* in) {
    __shared__ double s[2048];
    FILL(s, 2048);
    out[blockIdx.x * 128 + threadIdx.x] = s[threadIdx.x + 1];
}

// launch: grid=8 block=128
__global__ void sw_double_stride2(double* out, const double* in) {
    __shared__ double s[2048];
    FILL(s, 2048);
    out[blockIdx.x * 128 + threadIdx.x] = s[2 * threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_double_stride3(double* out, const double* in) {
    __shared__ double s[2048];
    FILL(s, 2048);
    out[blockIdx.x * 128 + threadIdx.x] = s[3 * threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_double_stride16(double* out, const double* in) {
    __shared__ double s[2048];
    FILL(s, 2048);
    out[blockIdx.x * 128 + threadIdx.x] = s[16 * threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_double_stride17(double* out, const double* in) {
    __shared__ double s[2304];
    FILL(s, 2304);
    out[blockIdx.x * 128 + threadIdx.x] = s[17 * threadIdx.x];
}

// Two lanes per address.
// launch: grid=8 block=128
__global__ void sw_double_pairs(double* out, const double* in) {
    __shared__ double s[2048];
    FILL(s, 2048);
    out[blockIdx.x * 128 + threadIdx.x] = s[threadIdx.x / 2];
}

// Each half-warp reads one address.
// launch: grid=8 block=128
__global__ void sw_double_half_broadcast(double* out, const double* in) {
    __shared__ double s[2048];
    FILL(s, 2048);
    out[blockIdx.x * 128 + threadIdx.x] = s[(threadIdx.x / 16) * 5];
}

// Lanes swap neighbours: a permutation of 32 contiguous words.
// launch: grid=8 block=128
__global__ void sw_double_swap(double* out, const double* in) {
    __shared__ double s[2048];
    FILL(s, 2048);
    out[blockIdx.x * 128 + threadIdx.x] = s[threadIdx.x ^ 1];
}

// Lanes 0-15 and 16-31 each read 16 contiguous doubles, 32 doubles apart.
// launch: grid=8 block=128
__global__ void sw_double_two_runs(double* out, const double* in) {
    __shared__ double s[2048];
    FILL(s, 2048);
    out[blockIdx.x * 128 + threadIdx.x] = s[(threadIdx.x % 16) + (threadIdx.x / 16) * 32];
}

// 16x16 block, double tile: rows, columns, padded columns, halo offset.
// launch: grid=8 block=16,16
__global__ void sw_double_tile_row(double* out, const double* in) {
    __shared__ double s[16][16];
    FILL(&s[0][0], 256);
    out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = s[threadIdx.y][threadIdx.x];
}

// launch: grid=8 block=16,16
__global__ void sw_double_tile_column(double* out, const double* in) {
    __shared__ double s[16][16];
    FILL(&s[0][0], 256);
    out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
}

// launch: grid=8 block=16,16
__global__ void sw_double_tile_column_pad1(double* out, const double* in) {
    __shared__ double s[16][17];
    FILL(&s[0][0], 272);
    out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
}

// launch: grid=8 block=16,16
__global__ void sw_double_tile_halo(double* out, const double* in) {
    __shared__ double s[18][18];
    FILL(&s[0][0], 324);
    out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = s[threadIdx.y + 1][threadIdx.x + 1];
}

// An 8x8 double tile read by a 16x16 block (two rows of 16 lanes per warp).
// launch: grid=8 block=16,16
__global__ void sw_double_small_tile(double* out, const double* in) {
    __shared__ double s[8][8];
    FILL(&s[0][0], 64);
    out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = s[threadIdx.y % 8][threadIdx.x % 8];
}

// A 3-D tile of doubles, 16x16 block reading plane 1.
// launch: grid=8 block=16,16
__global__ void sw_double_planes(double* out, const double* in) {
    __shared__ double s[4][16][16];
    FILL(&s[0][0][0], 1024);
    out[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x] = s[1][threadIdx.y][threadIdx.x];
}

// ---- 8-byte words (float2), 16-byte words (float4)

// launch: grid=8 block=128
__global__ void sw_float2_stride2(float2* out, const float2* in) {
    __shared__ float2 s[2048];
    FILL(s, 2048);
    out[blockIdx.x * 128 + threadIdx.x] = s[2 * threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_float4_contiguous(float4* out, const float4* in) {
    __shared__ float4 s[1024];
    FILL(s, 1024);
    out[blockIdx.x * 128 + threadIdx.x] = s[threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_float4_offset_one(float4* out, const float4* in) {
    __shared__ float4 s[1024];
    FILL(s, 1024);
    out[blockIdx.x * 128 + threadIdx.x] = s[threadIdx.x + 1];
}

// launch: grid=8 block=128
__global__ void sw_float4_stride2(float4* out, const float4* in) {
    __shared__ float4 s[1024];
    FILL(s, 1024);
    out[blockIdx.x * 128 + threadIdx.x] = s[2 * threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_float4_stride8(float4* out, const float4* in) {
    __shared__ float4 s[1024];
    FILL(s, 1024);
    out[blockIdx.x * 128 + threadIdx.x] = s[8 * threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_float4_quarter_broadcast(float4* out, const float4* in) {
    __shared__ float4 s[1024];
    FILL(s, 1024);
    out[blockIdx.x * 128 + threadIdx.x] = s[(threadIdx.x / 8) * 3];
}

// ---- 4-byte words, for reference

// launch: grid=8 block=128
__global__ void sw_float_stride2(float* out, const float* in) {
    __shared__ float s[4096];
    FILL(s, 4096);
    out[blockIdx.x * 128 + threadIdx.x] = s[2 * threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_float_stride32(float* out, const float* in) {
    __shared__ float s[4096];
    FILL(s, 4096);
    out[blockIdx.x * 128 + threadIdx.x] = s[32 * threadIdx.x];
}

// Two adjacent floats per lane written by two statements: the compiler may merge them.
// launch: grid=8 block=128
__global__ void sw_float_pair_stores(float* out, const float* in) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[2 * t] = in[2 * t];
    s[2 * t + 1] = in[2 * t + 1];
    __syncthreads();
    out[blockIdx.x * 128 + t] = s[t] + s[255 - t];
}

// ---- 1- and 2-byte words

// launch: grid=8 block=128
__global__ void sw_char_contiguous(char* out, const char* in) {
    __shared__ char s[16384];
    FILL(s, 16384);
    out[blockIdx.x * 128 + threadIdx.x] = s[threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_char_stride4(char* out, const char* in) {
    __shared__ char s[16384];
    FILL(s, 16384);
    out[blockIdx.x * 128 + threadIdx.x] = s[4 * threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_char_stride8(char* out, const char* in) {
    __shared__ char s[16384];
    FILL(s, 16384);
    out[blockIdx.x * 128 + threadIdx.x] = s[8 * threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_char_stride128(char* out, const char* in) {
    __shared__ char s[16384];
    FILL(s, 16384);
    out[blockIdx.x * 128 + threadIdx.x] = s[128 * threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_short_stride2(short* out, const short* in) {
    __shared__ short s[8192];
    FILL(s, 8192);
    out[blockIdx.x * 128 + threadIdx.x] = s[2 * threadIdx.x];
}

// launch: grid=8 block=128
__global__ void sw_short_stride64(short* out, const short* in) {
    __shared__ short s[8192];
    FILL(s, 8192);
    out[blockIdx.x * 128 + threadIdx.x] = s[64 * threadIdx.x];
}

// ---- what divergence costs in shapes the rule must judge

// One lane walks a loop while the warp waits.
// launch: grid=64 block=128
__global__ void sw_single_lane_loop(float* out, const float* in) {
    __shared__ float s[128];
    s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        float acc = 0.0f;
        for (int k = 0; k < 128; ++k) acc += s[k] * s[k];
        out[blockIdx.x] = acc;
    }
}

// A stencil tile's halo loads: the first 2 lanes of each block load 2 extra values.
// launch: grid=64 block=128 args: n=8192
__global__ void sw_halo_loads(float* out, const float* in, int n) {
    __shared__ float s[132];
    int i = blockIdx.x * 128 + threadIdx.x;
    s[threadIdx.x + 2] = in[i];
    if (threadIdx.x < 2) {
        s[threadIdx.x] = i >= 2 ? in[i - 2] : 0.0f;
        s[threadIdx.x + 130] = i + 128 < n ? in[i + 128] : 0.0f;
    }
    __syncthreads();
    out[i] = s[threadIdx.x] + s[threadIdx.x + 2] + s[threadIdx.x + 4];
}

// Lanes of a warp take a heavy arm by parity.
// launch: grid=64 block=128
__global__ void sw_parity_heavy(float* out, const float* in) {
    int i = blockIdx.x * 128 + threadIdx.x;
    float v = in[i];
    if (threadIdx.x & 1) {
        for (int k = 0; k < 32; ++k) v = v * 1.0001f + 0.5f;
    }
    out[i] = v;
}

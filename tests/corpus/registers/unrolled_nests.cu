// Nests of small constant loops without `#pragma unroll`. nvcc unrolls a nest fully when
// its whole unrolled size is small enough, whatever its depth: a 128-trip loop and a
// 4 x 8 x 4 nest around the same body stop unrolling at the same body size. An index made
// of loop counters and constants is a constant in every unrolled copy and costs nothing;
// one that goes through `%` costs its arithmetic. Arrays indexed only by the counters of
// unrolled nests stay in registers (0-byte stack frames); those in a nest too large to
// unroll live in local memory (stack frames of the array's size).

// A warp tile: per dot-product step, fragments of two shared tiles go into `frag_a` and
// `frag_b`, and a 4-deep nest of one multiply-add each updates the accumulators, inside a
// rolled loop over the tile's depth. Every index is a constant once the nests unroll.
// ptxas: registers=168 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) warp_tile_nest<16,2,2,8,4>
// ptxas: registers=168 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) warp_tile_nest<8,1,4,8,4>
template <int depth, int sub_rows, int sub_cols, int rows, int cols>
__global__ void warp_tile_nest(const float* a, const float* b, float* c, int k_total) {
    constexpr int tile = 128;
    __shared__ float a_tile[depth * tile];
    __shared__ float b_tile[depth * tile];
    const int lane = threadIdx.x % 32;
    const int row0 = (threadIdx.x / 32) * 64 + (lane / 8) * rows;
    const int col0 = (lane % 8) * cols;
    float acc[sub_rows * rows * sub_cols * cols] = {0.0f};
    float frag_a[sub_rows * rows];
    float frag_b[sub_cols * cols];
    for (int k0 = 0; k0 < k_total; k0 += depth) {
        for (int i = threadIdx.x; i < depth * tile; i += blockDim.x) {
            a_tile[i] = a[k0 * tile + i];
            b_tile[i] = b[k0 * tile + i];
        }
        __syncthreads();
        for (int d = 0; d < depth; ++d) {
            for (int sr = 0; sr < sub_rows; ++sr)
                for (int r = 0; r < rows; ++r) frag_a[sr * rows + r] = a_tile[d * tile + row0 + sr * 32 + r];
            for (int sc = 0; sc < sub_cols; ++sc)
                for (int q = 0; q < cols; ++q) frag_b[sc * cols + q] = b_tile[d * tile + col0 + sc * 32 + q];
            for (int sr = 0; sr < sub_rows; ++sr)
                for (int sc = 0; sc < sub_cols; ++sc)
                    for (int r = 0; r < rows; ++r)
                        for (int q = 0; q < cols; ++q)
                            acc[(sr * rows + r) * (sub_cols * cols) + sc * cols + q] +=
                                frag_a[sr * rows + r] * frag_b[sc * cols + q];
        }
        __syncthreads();
    }
    for (int sr = 0; sr < sub_rows; ++sr)
        for (int sc = 0; sc < sub_cols; ++sc)
            for (int r = 0; r < rows; ++r)
                for (int q = 0; q < cols; q += 4) {
                    const int i = (sr * rows + r) * (sub_cols * cols) + sc * cols + q;
                    const float4 v = make_float4(acc[i], acc[i + 1], acc[i + 2], acc[i + 3]);
                    reinterpret_cast<float4*>(c)[((row0 + sr * 32 + r) * 256 + col0 + sc * 32 + q) / 4] = v;
                }
}

// A 2 x 4 x 4 x 4 nest of one multiply-add per element inside a rolled loop: unrolled.
// ptxas: registers=168 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void deep_nest_small_body(const float* in, float* out, int reps, float v, float w) {
    float acc[128];
    for (int i = 0; i < 128; ++i) acc[i] = in[i * 256 + threadIdx.x];
    for (int rep = 0; rep < reps; ++rep)
        for (int i0 = 0; i0 < 2; ++i0)
            for (int i1 = 0; i1 < 4; ++i1)
                for (int i2 = 0; i2 < 4; ++i2)
                    for (int i3 = 0; i3 < 4; ++i3) acc[((i0 * 4 + i1) * 4 + i2) * 4 + i3] = acc[((i0 * 4 + i1) * 4 + i2) * 4 + i3] * v + w;
    for (int i = 0; i < 128; ++i) out[i * 256 + threadIdx.x] = acc[i];
}

// The same nest as 4 x 8 x 4 with eight chained multiply-adds per element: 128 copies of
// that body are too many, the nest stays rolled and the accumulators live in local memory.
// ptxas: registers=135 stack=512 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void deep_nest_long_body(const float* in, float* out, int reps, float v, float w) {
    float acc[128];
    for (int i = 0; i < 128; ++i) acc[i] = in[i * 256 + threadIdx.x];  // expect: CL502 warning @35 "lives in local memory"
    for (int rep = 0; rep < reps; ++rep)
        for (int i0 = 0; i0 < 4; ++i0)
            for (int i1 = 0; i1 < 8; ++i1)
                for (int i2 = 0; i2 < 4; ++i2) {
                    float t = acc[(i0 * 8 + i1) * 4 + i2];  // expect: CL502 warning @31 "512 bytes)"
                    t = t * v + w;
                    t = t * v + w;
                    t = t * v + w;
                    t = t * v + w;
                    t = t * v + w;
                    t = t * v + w;
                    t = t * v + w;
                    t = t * v + w;
                    acc[(i0 * 8 + i1) * 4 + i2] = t;  // expect: CL502 warning
                }
    for (int i = 0; i < 128; ++i) out[i * 256 + threadIdx.x] = acc[i];  // expect: CL502 warning
}

// Four multiply-adds per element, under an index permuted through `%`: the remainders are
// work in every copy, the nest stays rolled and the array lives in local memory (the same
// nest with the plain index `(i0 * 8 + i1) * 4 + i2` unrolls).
// ptxas: registers=138 stack=512 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void deep_nest_permuted_index(const float* in, float* out, int reps, float v, float w) {
    float acc[128];
    for (int i = 0; i < 128; ++i) acc[i] = in[i * 256 + threadIdx.x];  // expect: CL502 warning
    for (int rep = 0; rep < reps; ++rep)
        for (int i0 = 0; i0 < 4; ++i0)
            for (int i1 = 0; i1 < 8; ++i1)
                for (int i2 = 0; i2 < 4; ++i2) {
                    const int slot = ((((((i0 * 8 + i1) * 4 + i2) * 5 + 3) % 128) * 5 + 3) % 128 * 5 + 3) % 128;
                    float t = acc[slot];  // expect: CL502 warning
                    t = t * v + w;
                    t = t * v + w;
                    t = t * v + w;
                    t = t * v + w;
                    acc[slot] = t;  // expect: CL502 warning
                }
    for (int i = 0; i < 128; ++i) out[i * 256 + threadIdx.x] = acc[i];  // expect: CL502 warning
}

int main() {
    float *a = nullptr, *b = nullptr, *c = nullptr;
    warp_tile_nest<16, 2, 2, 8, 4><<<64, 128>>>(a, b, c, 1024);
    warp_tile_nest<8, 1, 4, 8, 4><<<64, 128>>>(a, b, c, 1024);
    deep_nest_small_body<<<64, 256>>>(a, c, 16, 0.5f, 1.0f);
    deep_nest_long_body<<<64, 256>>>(a, c, 16, 0.5f, 1.0f);
    deep_nest_permuted_index<<<64, 256>>>(a, c, 16, 0.5f, 1.0f);
    return 0;
}

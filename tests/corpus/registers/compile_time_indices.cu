// Per-thread arrays indexed by compile-time values in modern C++ CUDA: template
// parameters, static constexpr members, constexpr functions, `if constexpr`, enumerators,
// sizeof, std::integral_constant lambda arguments, recursive unroll helpers. Every index
// is a constant once nvcc unrolls the loops, so no array reaches local memory (the
// "ptxas:" lines show 0-byte stack frames), except where the index is data.
#include <type_traits>

template <int rows>
struct accumulator_tile {
    static constexpr int ne = rows * 2;
};

__host__ __device__ constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }

enum { BLOCK_VALUES = 32, VALUES_PER_BYTE = 2 };

// Double buffering through `l % 2` under `#pragma unroll`, sizes from a static member.
// ptxas: registers=32 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) double_buffered<8>
template <int rows>
__global__ void double_buffered(const float* __restrict__ x, float* __restrict__ out, int n) {
    using tile = accumulator_tile<rows>;
    float acc[tile::ne] = {0.0f};
    float staged[2];
#pragma unroll
    for (int l = 0; l < tile::ne; ++l) {
        staged[l % 2] = x[l * n + threadIdx.x];
        acc[l] += staged[l % 2] * staged[(l + 1) % 2];
    }
#pragma unroll
    for (int l = 0; l < tile::ne; ++l) out[l * n + threadIdx.x] = acc[l];
}

// A counter stepped by a template parameter and divided back into an index.
// ptxas: registers=22 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) strided_counter<4>
template <int nwarps>
__global__ void strided_counter(const float* __restrict__ x, float* __restrict__ out) {
    constexpr int per_warp = ceil_div(64, nwarps);
    float v[per_warp];
#pragma unroll
    for (int k0 = 0; k0 < per_warp * nwarps; k0 += nwarps) v[k0 / nwarps] = x[k0 * 32 + threadIdx.x];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < per_warp; ++k) s += v[k];
    out[threadIdx.x] = s;
}

// `if constexpr` on a bool parameter, and a generic lambda called with integral constants.
// ptxas: registers=14 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) constant_lambda<0>
// ptxas: registers=16 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) constant_lambda<1>
template <bool wide>
__global__ void constant_lambda(const float* __restrict__ x, float* __restrict__ out) {
    constexpr int loaded = wide ? 8 : 4;
    float v[8];
    if constexpr (wide) {
#pragma unroll
        for (int i = 0; i < loaded; ++i) v[i] = x[i * 32 + threadIdx.x];
    } else {
#pragma unroll
        for (int i = 0; i < 8; ++i) v[i] = x[(i % loaded) * 32 + threadIdx.x];
    }
    auto store = [&](auto column) {
        constexpr int j = decltype(column)::value;
        out[j * 32 + threadIdx.x] = v[j] + v[(j + 1) % 8];
    };
    store(std::integral_constant<int, 0>{});
    store(std::integral_constant<int, 3>{});
    store(std::integral_constant<int, 7>{});
}

// Enumerators and sizeof as trip counts and array sizes.
// ptxas: registers=23 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void enum_and_sizeof(const int* __restrict__ x, int* __restrict__ out) {
    int v[BLOCK_VALUES / VALUES_PER_BYTE];
#pragma unroll
    for (int i = 0; i < (int)(sizeof(int4) / sizeof(int)) * 4; ++i) v[i] = x[i * 32 + threadIdx.x];
    int s = 0;
#pragma unroll
    for (int i = 0; i < BLOCK_VALUES / VALUES_PER_BYTE; ++i) s += v[i] * v[(i + 3) % (BLOCK_VALUES / VALUES_PER_BYTE)];
    out[threadIdx.x] = s;
}

// A recursive helper that calls a lambda once per constant index.
template <int n>
struct unroll_calls {
    template <typename F>
    __device__ void operator()(const F& f) const {
        f(n - 1);
        unroll_calls<n - 1>{}(f);
    }
};
template <>
struct unroll_calls<1> {
    template <typename F>
    __device__ void operator()(const F& f) const {
        f(0);
    }
};

// ptxas: registers=12 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void unrolled_by_helper(const float* __restrict__ x, float* __restrict__ out) {
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    unroll_calls<4>{}([&](const int i) { acc[i] += x[i * 32 + threadIdx.x]; });
    out[threadIdx.x] = acc[0] + acc[1] + acc[2] + acc[3];
}

// Traits specialized per block format.
enum block_format { FORMAT_4BIT, FORMAT_8BIT };
template <block_format format>
struct format_traits;
template <>
struct format_traits<FORMAT_4BIT> {
    static constexpr int ints_per_block = 4;
};
template <>
struct format_traits<FORMAT_8BIT> {
    static constexpr int ints_per_block = 8;
};

// ptxas: registers=14 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) per_format<0>
// ptxas: registers=18 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) per_format<1>
template <block_format format>
__global__ void per_format(const int* __restrict__ x, int* __restrict__ out) {
    constexpr int count = format_traits<format>::ints_per_block;
    int v[count];
#pragma unroll
    for (int l = 0; l < count; ++l) v[l] = x[l * 32 + threadIdx.x];
    int s = 0;
#pragma unroll
    for (int l = 0; l < count; l += 2) s += v[l] * v[l + 1];
    out[threadIdx.x] = s;
}

// A kernel template reached only through a function pointer handed to a launch wrapper.
// ptxas: registers=14 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) launched_by_pointer<16,4>
// ptxas: registers=12 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) launched_by_pointer<8,4>
template <int cols, int nwarps>
__global__ void launched_by_pointer(const float* __restrict__ x, float* __restrict__ out) {
    float sum[cols / nwarps] = {0.0f};
#pragma unroll
    for (int j0 = 0; j0 < cols; j0 += nwarps) sum[j0 / nwarps] += x[(j0 + threadIdx.y) * 32 + threadIdx.x];
    float pair[2];
#pragma unroll
    for (int l = 0; l < cols; ++l) {
        pair[l % 2] = sum[l / nwarps];
        out[l * 32 + threadIdx.x] = pair[(l + 1) % 2];
    }
}

typedef void (*tile_kernel)(const float*, float*);

static void launch_tiles(tile_kernel kernel, const float* x, float* out, int nwarps) {
    kernel<<<1, dim3(32, nwarps)>>>(x, out);
}

// A per-thread histogram over a template-sized range indexed by data: local memory.
// ptxas: registers=32 stack=64 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) data_histogram<16>
template <int bins>
__global__ void data_histogram(const int* __restrict__ keys, int* __restrict__ out, int n) {
    int count[bins] = {};  // expect: CL502 warning @5 "lives in local memory"
    for (int i = threadIdx.x; i < n; i += blockDim.x) count[keys[i] % bins]++;  // expect: CL502 warning @55 "64 bytes)"
#pragma unroll
    for (int b = 0; b < bins; ++b) out[b * blockDim.x + threadIdx.x] = count[b];  // expect: CL502 warning
}

int main() {
    double_buffered<8><<<1, 32>>>(nullptr, nullptr, 32);
    strided_counter<4><<<1, 32>>>(nullptr, nullptr);
    constant_lambda<true><<<1, 32>>>(nullptr, nullptr);
    constant_lambda<false><<<1, 32>>>(nullptr, nullptr);
    enum_and_sizeof<<<1, 32>>>(nullptr, nullptr);
    unrolled_by_helper<<<1, 32>>>(nullptr, nullptr);
    per_format<FORMAT_4BIT><<<1, 32>>>(nullptr, nullptr);
    per_format<FORMAT_8BIT><<<1, 32>>>(nullptr, nullptr);
    launch_tiles(launched_by_pointer<8, 4>, nullptr, nullptr, 4);
    launch_tiles(launched_by_pointer<16, 4>, nullptr, nullptr, 4);
    data_histogram<16><<<1, 128>>>(nullptr, nullptr, 1024);
    return 0;
}

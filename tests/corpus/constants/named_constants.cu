// Per-thread arrays walked by loops whose bounds are constants the compiler knows: static
// members of (class template) structs, enumerators, namespace-scope constexpr, constexpr
// functions, sizeof, template arguments. Each loop has a constant trip count, so nvcc
// unrolls it and every index becomes a constant: the arrays live in registers (ptxas: no
// stack). Only the last kernel's bound is a run-time value.
// The "ptxas:" lines are nvcc's figures for each kernel (scripts/measure_ptxas.py --write).

template <typename T> struct VecTraits {
    static const int kItems = 16 / sizeof(T);
    static constexpr int kHalf = kItems / 2;
};
struct Tile {
    static constexpr int kRows = 4;
    enum { kCols = 6 };
};
enum Window { kWindow = 5 };
namespace cfg {
constexpr int kTaps = 7;
}
__host__ __device__ constexpr int words_in(int bytes) { return bytes / 4; }

// A static const member of a class template, and one computed from it.
// ptxas: registers=18 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void nc_template_member(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v[VecTraits<float>::kItems];
    for (int k = 0; k < VecTraits<float>::kItems; ++k) v[k] = in[k * n + i];
    float s = 0.0f;
    for (int k = 0; k < VecTraits<float>::kHalf; ++k) s += v[k] * v[VecTraits<float>::kItems - 1 - k];
    out[i] = s;
}

// A constexpr static member and an enumerator of a struct bound a 2-D accumulator.
// ptxas: registers=32 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void nc_struct_constants(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc[Tile::kRows][Tile::kCols];
    for (int r = 0; r < Tile::kRows; ++r)
        for (int c = 0; c < Tile::kCols; ++c) acc[r][c] = in[(r * Tile::kCols + c) * n + i];
    float s = 0.0f;
    for (int r = 0; r < Tile::kRows; ++r)
        for (int c = 0; c < Tile::kCols; ++c) s += acc[r][c] * (r + c);
    out[i] = s;
}

// An enumerator, a namespace-scope constexpr and a constexpr function.
// ptxas: registers=32 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void nc_enum_namespace_function(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float window[kWindow], taps[cfg::kTaps], words[words_in(32)];
    for (int k = 0; k < kWindow; ++k) window[k] = in[k * n + i];
    for (int k = 0; k < cfg::kTaps; ++k) taps[k] = in[(k + kWindow) * n + i];
    for (int k = 0; k < words_in(32); ++k) words[k] = in[(k + 12) * n + i];
    float s = 0.0f;
    for (int k = 0; k < kWindow; ++k) s += window[k] * taps[k + 1];
    for (int k = 0; k < words_in(32); ++k) s += words[k];
    out[i] = s;
}

// sizeof in its forms: of an array over its element, of a type, of an expression.
// ptxas: registers=32 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void nc_sizeof(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float buf[12];
    for (unsigned k = 0; k < sizeof(buf) / sizeof(buf[0]); ++k) buf[k] = in[k * n + i];
    float s = 0.0f;
    for (unsigned k = 0; k < sizeof(float4) / sizeof(float); ++k) s += buf[k] * buf[11 - k];
    for (unsigned k = 0; k < sizeof s * 2; ++k) s += buf[k];
    out[i] = s;
}

// The bound as a template parameter of the kernel's own type argument, per instantiation.
// ptxas: registers=14 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) nc_dependent_member<double>
// ptxas: registers=18 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90) nc_dependent_member<float>
template <typename T>
__global__ void nc_dependent_member(const T* in, T* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T v[VecTraits<T>::kItems];
    for (int k = 0; k < VecTraits<T>::kItems; ++k) v[k] = in[k * n + i];
    T s = 0;
    for (int k = 0; k < VecTraits<T>::kItems; ++k) s += v[k] * v[VecTraits<T>::kItems - 1 - k];
    out[i] = s;
}
template __global__ void nc_dependent_member<float>(const float*, float*, int);
template __global__ void nc_dependent_member<double>(const double*, double*, int);

// A local const and a bound the caller passes: only the second is a run-time value. The
// loops it bounds stay rolled, so both arrays they index go to local memory (96 bytes of
// stack: history's 64 and fixed's 32, which `fixed[k % kFixed]` indexes at run time).
// ptxas: registers=32 stack=96 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void nc_runtime_bound(const float* in, float* out, int n, int len) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int kFixed = 8;
    float fixed[kFixed], history[16];
    for (int k = 0; k < kFixed; ++k) fixed[k] = in[k * n + i];  // expect: CL502 warning @38 "lives in local memory"
    for (int k = 0; k < len; ++k) history[k] = in[(k + kFixed) * n + i];  // expect: CL502 warning @35 "64 bytes)"
    float s = 0.0f;
    for (int k = 0; k < kFixed; ++k) s += fixed[k];
    for (int k = 0; k < len; ++k) s += history[k] * fixed[k % kFixed];  // expect: CL502 warning, CL502 warning
    out[i] = s;
}

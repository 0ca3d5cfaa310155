"""A synthetic CUDA tree with what real trees hold, and how many of its kernels cudalint
still analyzes.

The tree has kernel files written to be included by another file, code for the
texture-reference API that CUDA 12 removed, MPI/OpenGL/OpenMP headers that are not
installed, macros from headers that are missing, nvcc-only extensions, `__CUDA_ARCH__`
branches, CUDA libraries (cub, thrust, cooperative_groups, cuda::std), half and bfloat16,
lambdas, C++17 and C++20, and bad input: binary, non-UTF-8, empty and unreadable files, a
directory named like a source file, a symbolic-link loop, a generated file over 1 MB,
deeply nested expressions and recursive device functions.

For the files whose kernels need recovery (fragments, legacy API, missing headers) it
counts the kernels written in them, those for which ``cudalint facts`` reports at least
one memory access, branch or barrier, and how many of those facts it reports:

    python scripts/stress_tree.py [DIRECTORY]

DIRECTORY (default: a temporary one) receives the tree.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# Files whose kernels are counted, by what they need to be analyzed.
RECOVERY_CATEGORIES = ("fragment", "legacy API", "missing header")

_BOUNDS = r"(?:__launch_bounds__\s*\([^)]*\)\s*)?"
_KERNEL = re.compile(rf"__global__\s+{_BOUNDS}void\s+{_BOUNDS}(\w+)\s*\(")

FRAGMENTS = {
    # Rodinia-style breadth-first search: the kernels live in files bfs.cu includes.
    "bfs/bfs.cu": """\
#include <cstdio>
#include <cstdlib>
#define MAX_THREADS_PER_BLOCK 512
struct Node { int starting; int no_of_edges; };
#include "kernel.cu"
#include "kernel2.cu"

void BFSGraph(int no_of_nodes, Node* d_graph_nodes, int* d_graph_edges, bool* d_mask,
              bool* d_updating, bool* d_visited, int* d_cost, bool* d_over) {
    int num_of_blocks = (no_of_nodes + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK;
    dim3 grid(num_of_blocks, 1, 1);
    dim3 threads(MAX_THREADS_PER_BLOCK, 1, 1);
    Kernel<<<grid, threads, 0>>>(d_graph_nodes, d_graph_edges, d_mask, d_updating, d_visited, d_cost, no_of_nodes);
    Kernel2<<<grid, threads, 0>>>(d_mask, d_updating, d_visited, d_over, no_of_nodes);
}
""",
    "bfs/kernel.cu": """\
#ifndef _KERNEL_H_
#define _KERNEL_H_
__global__ void Kernel(Node* g_graph_nodes, int* g_graph_edges, bool* g_graph_mask,
                       bool* g_updating_graph_mask, bool* g_graph_visited, int* g_cost, int no_of_nodes) {
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        for (int i = g_graph_nodes[tid].starting;
             i < (g_graph_nodes[tid].no_of_edges + g_graph_nodes[tid].starting); i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}
#endif
""",
    "bfs/kernel2.cu": """\
__global__ void Kernel2(bool* g_graph_mask, bool* g_updating_graph_mask, bool* g_graph_visited,
                        bool* g_over, int no_of_nodes) {
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
        g_graph_mask[tid] = true;
        g_graph_visited[tid] = true;
        *g_over = true;
        g_updating_graph_mask[tid] = false;
    }
}
""",
    # A stencil whose kernels sit in a header the driver includes after its configuration.
    "stencil/config.h": "#define BLOCK_X 32\n#define BLOCK_Y 8\ntypedef float real;\n",
    "stencil/main.cu": '#include "config.h"\n#include "stencil_kernels.cuh"\nint main() { return 0; }\n',
    "stencil/stencil_kernels.cuh": """\
#pragma once
__global__ void jacobi(const real* in, real* out, int nx, int ny) {
    __shared__ real tile[BLOCK_Y + 2][BLOCK_X + 2];
    int x = blockIdx.x * BLOCK_X + threadIdx.x;
    int y = blockIdx.y * BLOCK_Y + threadIdx.y;
    if (x >= nx || y >= ny) return;
    tile[threadIdx.y + 1][threadIdx.x + 1] = in[y * nx + x];
    __syncthreads();
    out[y * nx + x] = 0.25f * (tile[threadIdx.y][threadIdx.x + 1] + tile[threadIdx.y + 2][threadIdx.x + 1]
                             + tile[threadIdx.y + 1][threadIdx.x] + tile[threadIdx.y + 1][threadIdx.x + 2]);
}

__global__ void transpose_naive(const real* in, real* out, int n) {
    int x = blockIdx.x * BLOCK_X + threadIdx.x;
    int y = blockIdx.y * BLOCK_Y + threadIdx.y;
    out[x * n + y] = in[y * n + x];
}
""",
}

# The files of FRAGMENTS that do not compile alone.
FRAGMENT_FILES = ("bfs/kernel.cu", "bfs/kernel2.cu", "stencil/stencil_kernels.cuh")

LEGACY = {
    # The texture-reference API, removed in CUDA 12.
    "legacy/kmeans_kernel.cu": """\
#include <cuda_runtime.h>
#define ASSUMED_NR_CLUSTERS 32
texture<float, 1, cudaReadModeElementType> t_features;
texture<float, 1, cudaReadModeElementType> t_clusters;
__constant__ float c_clusters[ASSUMED_NR_CLUSTERS * 34];

__global__ void invert_mapping(float* input, float* output, int npoints, int nfeatures) {
    int point_id = threadIdx.x + blockDim.x * blockIdx.x;
    if (point_id < npoints) {
        for (int i = 0; i < nfeatures; i++)
            output[point_id + npoints * i] = input[point_id * nfeatures + i];
    }
}

__global__ void kmeansPoint(float* features, int nfeatures, int npoints, int nclusters, int* membership) {
    unsigned int point_id = blockIdx.x * blockDim.x + threadIdx.x;
    int index = -1;
    if (point_id < npoints) {
        float min_dist = 3.4e38f;
        for (int i = 0; i < nclusters; i++) {
            int cluster_base_index = i * nfeatures;
            float ans = 0.0f;
            for (int j = 0; j < nfeatures; j++) {
                int addr = point_id + j * npoints;
                float diff = tex1Dfetch(t_features, addr) - c_clusters[cluster_base_index + j];
                ans += diff * diff;
            }
            if (ans < min_dist) { min_dist = ans; index = i; }
        }
        membership[point_id] = index;
    }
}

void bind(float* feature_d, int npoints, int nfeatures) {
    cudaChannelFormatDesc chDesc0 = cudaCreateChannelDesc<float>();
    t_features.filterMode = cudaFilterModePoint;
    t_features.normalized = false;
    t_features.channelDesc = chDesc0;
    cudaBindTexture(NULL, &t_features, feature_d, &chDesc0, npoints * nfeatures * sizeof(float));
    cudaUnbindTexture(t_features);
}
""",
    "legacy/image_filter.cu": """\
#include <cuda_runtime.h>
texture<uchar4, cudaTextureType2D, cudaReadModeNormalizedFloat> rgbaTex;
texture<float, 2> heightTex;
surface<void, 2> outputSurface;

__global__ void boxFilter(uchar4* out, int w, int h, int r) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float4 sum = make_float4(0, 0, 0, 0);
    for (int dy = -r; dy <= r; dy++)
        for (int dx = -r; dx <= r; dx++) {
            float4 c = tex2D(rgbaTex, x + dx, y + dy);
            sum.x += c.x; sum.y += c.y; sum.z += c.z; sum.w += c.w;
        }
    float scale = 255.0f / ((2 * r + 1) * (2 * r + 1));
    out[y * w + x] = make_uchar4(sum.x * scale, sum.y * scale, sum.z * scale, sum.w * scale);
}

__global__ void normals(float* out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    float dx = tex2D(heightTex, x + 1, y) - tex2D(heightTex, x - 1, y);
    out[y * w + x] = dx;
    surf2Dwrite(dx, outputSurface, x * sizeof(float), y);
}

void setup(cudaArray* array, cudaArray* heights) {
    cudaBindTextureToArray(rgbaTex, array);
    cudaBindTextureToArray(heightTex, heights);
    cudaBindSurfaceToArray(outputSurface, array);
}
""",
}

MISSING_HEADERS = {
    # MPI + CUDA, as in the CUDA samples' simpleMPI.
    "mpi/simpleMPI.cu": """\
#include <mpi.h>
#include <cstdio>
__global__ void simpleMPIKernel(float* input, float* output) {
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    output[tid] = sqrt(input[tid]);
}
int main(int argc, char* argv[]) {
    MPI_Init(&argc, &argv);
    int commSize, commRank;
    MPI_Comm_size(MPI_COMM_WORLD, &commSize);
    MPI_Comm_rank(MPI_COMM_WORLD, &commRank);
    MPI_Finalize();
    return 0;
}
""",
    "mpi/halo_exchange.cu": """\
#include <mpi.h>
#include "halo_config.h"
__global__ void pack_halo(const float* field, float* buffer, int nx, int ny) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < ny) buffer[i] = field[i * nx + HALO_WIDTH];
}
__global__ void unpack_halo(float* field, const float* buffer, int nx, int ny) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < ny) field[i * nx] = buffer[i] * RELAXATION;
}
""",
    # OpenGL interop, as in simpleGL: GLEW is not installed.
    "gl/simpleGL.cu": """\
#include <GL/glew.h>
#include <cuda_gl_interop.h>
__global__ void simple_vbo_kernel(float4* pos, unsigned int width, unsigned int height, float time) {
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    float u = x / (float)width * 2.0f - 1.0f;
    float v = y / (float)height * 2.0f - 1.0f;
    float w = sinf(u * 4.0f + time) * cosf(v * 4.0f + time) * 0.5f;
    pos[y * width + x] = make_float4(u, w, v, 1.0f);
}
void createVBO(GLuint* vbo) {
    glGenBuffers(1, vbo);
    glBindBuffer(GL_ARRAY_BUFFER, *vbo);
}
""",
    # OpenMP threads driving several GPUs, as in cudaOpenMP.
    "openmp/cudaOpenMP.cu": """\
#include <omp.h>
#include <cstdio>
__global__ void kernelAddConstant(int* g_a, const int b) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    g_a[idx] += b;
}
int main() {
    int num_gpus = 2;
    omp_set_num_threads(num_gpus);
#pragma omp parallel
    {
        unsigned int cpu_thread_id = omp_get_thread_num();
        kernelAddConstant<<<16, 128>>>(0, cpu_thread_id);
    }
    return 0;
}
""",
}

SUPPORTED = {
    "extensions/nvcc_only.cu": """\
#include <cuda_runtime.h>
__device__ __noinline__ float slow(float x) { return x * 2.0f; }
__device__ __forceinline__ float fast(float x) { return x + 1.0f; }
__managed__ int counter;
struct __align__(16) Pair { float a, b, c, d; };
__global__ void __launch_bounds__(256, 2) extensions(const float* __restrict__ in, float* __restrict__ out, int n) {
    extern __shared__ float dynamic[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
#pragma unroll 4
    for (int k = 0; k < 4; k++) dynamic[threadIdx.x * 4 + k] = __ldg(&in[i * 4 + k]);
    __syncthreads();
    if (i < n) out[i] = fast(slow(dynamic[threadIdx.x]));
    if (lane == 0) atomicAdd(&counter, 1);
}
""",
    "extensions/arch_branches.cu": """\
__global__ void arch_specific(float* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (i < n) data[i] = __shfl_down_sync(0xffffffff, data[i], 1);
#elif defined(__CUDA_ARCH__)
    if (i < n) data[i] *= 2.0f;
#else
    data[i] = 0;
#endif
}
""",
    "libraries/cub_thrust.cu": """\
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
template <int BLOCK>
__global__ void block_sum(const int* in, int* out) {
    typedef cub::BlockReduce<int, BLOCK> Reduce;
    __shared__ typename Reduce::TempStorage temp;
    int total = Reduce(temp).Sum(in[blockIdx.x * BLOCK + threadIdx.x]);
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}
void sort(thrust::device_vector<int>& v) { thrust::sort(v.begin(), v.end()); block_sum<128><<<4, 128>>>(0, 0); }
""",
    "libraries/groups_and_std.cu": """\
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/std/limits>
namespace cg = cooperative_groups;
__global__ void tile_max(const float* in, float* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float v = in[block.group_index().x * block.size() + block.thread_rank()];
    float best = cg::reduce(warp, v, cg::greater<float>());
    if (warp.thread_rank() == 0)
        out[block.group_index().x] = best > cuda::std::numeric_limits<float>::max() ? 0.0f : best;
}
""",
    "types/half_bf16.cu": """\
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void mixed(const __half* h, const __nv_bfloat16* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        __half2 pair = __halves2half2(h[i], h[i]);
        out[i] = __half2float(__low2half(pair)) + __bfloat162float(b[i]) * 0.5;
    }
}
""",
    "modern/lambdas.cu": """\
template <class F>
__global__ void apply(float* a, int n, F f) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = f(a[i]);
}
__global__ void inline_lambda(float* a) {
    auto square = [] __device__ (float x) { return x * x; };
    a[threadIdx.x] = square(a[threadIdx.x]);
}
void launch(float* a, int n) {
    float scale = 3.0f;
    apply<<<(n + 255) / 256, 256>>>(a, n, [=] __device__ (float x) { return x * scale; });
}
""",
    "modern/cxx17.cu": """\
#include <utility>
template <class... T> __device__ constexpr auto sum(T... v) { return (v + ... + 0); }
struct Pair { int first; float second; };
template <int N>
__global__ void features(const Pair* pairs, float* out) {
    auto [index, weight] = pairs[blockIdx.x * N + threadIdx.x];
    if constexpr (N > 32) out[index] = weight * sum(1, 2, 3);
    else out[threadIdx.x] = weight;
}
template __global__ void features<64>(const Pair*, float*);
""",
    "modern/cxx20.cu": """\
#include <concepts>
template <class T> concept Numeric = std::integral<T> || std::floating_point<T>;
template <Numeric T>
__global__ void axpy(T a, const T* x, T* y, int n) requires (sizeof(T) <= 8) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
template __global__ void axpy<float>(float, const float*, float*, int);
""",
    "generated/deep_nesting.cu": "",
    "generated/recursion.cu": """\
__device__ int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }
__device__ int is_odd(int n);
__device__ int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
__device__ int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
__global__ void recursive(int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i * 2] = factorial(i % 8) + is_even(i);
}
""",
    "generated/lookup_table.cu": "",
}

# Files that are no CUDA source at all, each explained by one line.
BAD_INPUT = ("bad/binary.cu", "bad/latin1.cu", "bad/empty.cu", "bad/self_loop.cu", "bad/unreadable.cu", "bad/x.cu")


def _deep_nesting() -> str:
    nested = "a[i]"
    for depth in range(300):
        nested = f"({nested} + {depth})"
    terms = " * ".join(f"a[i + {k}]" for k in range(400))
    return (
        f"__global__ void deep(float* a) {{\n    int i = threadIdx.x;\n    a[i] = {nested};\n"
        f"    a[i + 1] = {terms};\n}}\n"
    )


def _lookup_table() -> str:
    """A generated file over 1 MB: a big coefficient table and the kernel that uses it."""
    rows = ",\n".join(", ".join(f"{(r * 131 + c * 17) % 1000 / 7.0:.6f}f" for c in range(16)) for r in range(9000))
    return (
        "// Generated: do not edit.\n"
        f"static const float coefficients[9000 * 16] = {{\n{rows}\n}};\n"
        "__constant__ float c_coefficients[16];\n"
        "__global__ void apply_table(const float* in, float* out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) out[i] = in[i] * c_coefficients[i % 16];\n"
        "}\n"
    )


def build(root: Path) -> dict[str, list[Path]]:
    """Write the tree under ``root``; the files of each kind, by kind."""
    files = {
        **FRAGMENTS,
        **LEGACY,
        **MISSING_HEADERS,
        **SUPPORTED,
        "generated/deep_nesting.cu": _deep_nesting(),
        "generated/lookup_table.cu": _lookup_table(),
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "mpi" / "halo_config.h").write_text("#define HALO_WIDTH 2\n")
    # halo_exchange.cu also uses RELAXATION, which a header that is not there would define.
    bad = root / "bad"
    bad.mkdir()
    (bad / "binary.cu").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)))
    (bad / "latin1.cu").write_bytes("// Kernel für Matrizen\n__global__ void k() {}\n".encode("latin-1"))
    (bad / "empty.cu").write_bytes(b"")
    os.symlink("self_loop.cu", bad / "self_loop.cu")
    (bad / "unreadable.cu").write_text("__global__ void hidden(float* a) { a[0] = 1.0f; }\n")
    (bad / "unreadable.cu").chmod(0)
    (bad / "x.cu").mkdir()
    (bad / "x.cu" / "inside.cu").write_text("__global__ void inside(float* a) { a[threadIdx.x] = 0.0f; }\n")
    os.symlink("..", bad / "x.cu" / "parent_loop")
    (root / "compile_commands.json").write_text(
        json.dumps(
            [
                {
                    "directory": str(root / "modern"),
                    "file": "cxx20.cu",
                    "arguments": ["nvcc", "-std=c++20", "-c", "cxx20.cu"],
                },
            ]
        )
    )
    return {
        "fragment": [root / n for n in FRAGMENT_FILES],
        "legacy API": [root / n for n in LEGACY],
        "missing header": [root / n for n in MISSING_HEADERS],
        "supported": [root / n for n in SUPPORTED],
        "bad input": [root / n for n in BAD_INPUT],
    }


def kernels_written(path: Path) -> list[str]:
    return _KERNEL.findall(path.read_text(encoding="utf-8"))


def facts_per_kernel(path: Path, *options: str) -> dict[str, int]:
    """For each kernel of ``path`` that ``cudalint facts`` reports, its number of memory
    accesses, branches and barriers."""
    command = [sys.executable, "-m", "cudalint", "facts", str(path), "--format", "json", *options]
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        return {}
    return {
        k["function"].split("<")[0]: len(k["accesses"]) + len(k["branches"]) + len(k["barriers"])
        for k in json.loads(completed.stdout)["kernels"]
        if k["kind"] == "kernel"
    }


def count(categories: dict[str, list[Path]], *options: str) -> dict[str, tuple[int, int, int, int]]:
    """(files, kernels, kernels with facts, facts) for each kind of file that needs recovery."""
    counts = {}
    for category in RECOVERY_CATEGORIES:
        written = analyzed = facts = 0
        for path in categories[category]:
            names = kernels_written(path)
            found = facts_per_kernel(path, *options)
            written += len(names)
            analyzed += sum(1 for name in names if found.get(name))
            facts += sum(found.get(name, 0) for name in names)
        counts[category] = (len(categories[category]), written, analyzed, facts)
    return counts


def main() -> int:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="cudalint-stress-"))
    root.mkdir(parents=True, exist_ok=True)
    counts = count(build(root))
    print(f"tree: {root}")
    print(f"{'files needing':<16}{'files':>7}{'kernels':>9}{'with facts':>12}{'facts':>7}")
    for category, (files, written, analyzed, facts) in counts.items():
        print(f"{category:<16}{files:>7}{written:>9}{analyzed:>12}{facts:>7}")
    files, written, analyzed, facts = (sum(column) for column in zip(*counts.values(), strict=True))
    print(f"{'total':<16}{files:>7}{written:>9}{analyzed:>12}{facts:>7}  ({100 * analyzed / written:.0f}% of kernels)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

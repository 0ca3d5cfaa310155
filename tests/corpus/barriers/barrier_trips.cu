// cudalint barrier corpus: __syncthreads() inside loops whose trip count is written per
// thread, and what the threads that run fewer trips do next.
// Format (read and written by scripts/measure_gpu.py --synccheck; its docstring has the details):
//   // launch: grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]
//   // synccheck: errors=<n> (compute-sanitizer <version>, <GPU>)     (or: hang (...))
// A barrier in a loop is safe when every thread of the block reaches it equally often,
// however the loop is written (a block-stride loop over a multiple of the block). Where
// the counts differ, the threads that run fewer trips skip barriers the others wait at:
// if they only leave the kernel, the exited threads no longer hold the barrier up; if
// they go on to touch shared memory, their accesses meet the others' loop body with no
// barrier between them (compute-sanitizer racecheck names the racing lines).
// Kernels named bar_bad_* break the CUDA rule; bar_ok_* keep it.

// OK: a block-stride loop over 1024 values with 256 threads: every thread runs 4 trips.
// launch: grid=64 block=256 bytes=1048576
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H200)
__global__ void bar_ok_block_stride_whole(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int i = t; i < 1024; i += blockDim.x) {
        s[t] = a[blockIdx.x * 1024 + i];
        __syncthreads();
        acc += s[(t + 1) % 256];
        __syncthreads();
    }
    out[blockIdx.x * 256 + t] = acc;
}

// OK: the same with the length a launch value that the block divides (a note alone, n unknown).
// launch: grid=64 block=256 bytes=1048576 args: n=1024
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H200)
__global__ void bar_ok_block_stride_launch(float* out, const float* a, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int i = t; i < n; i += blockDim.x) {
        s[t] = a[blockIdx.x * n + i];
        __syncthreads();  // expect: CL302 note @9 "is reached under a loop whose trip count differs between threads of the block (line 37)"
        acc += s[(t + 1) % 256];
        __syncthreads();  // expect: CL302 note @9 "is reached under a loop whose trip count differs between threads of the block (line 37)"
    }
    out[blockIdx.x * 256 + t] = acc;
}

// BAD (undefined by the CUDA rules, harmless here): 1000 values for 256 threads, so
// threads 232-255 run one trip fewer, skip the last round's barriers and only exit.
// launch: grid=64 block=256 bytes=1048576 args: n=1000
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H200)
__global__ void bar_bad_ragged_then_exit(float* out, const float* a, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int i = t; i < n; i += blockDim.x) {
        s[t] = a[blockIdx.x * n + i];
        __syncthreads();  // known false positive: CL302 note synccheck: 0 errors: the threads that skip the last round's barriers only exit; undefined by the CUDA rules, hence a note
        acc += s[(t + 1) % 256];
        __syncthreads();  // known false positive: CL302 note synccheck: 0 errors: the threads that skip the last round's barriers only exit; undefined by the CUDA rules, hence a note
    }
    out[blockIdx.x * 256 + t] = acc;
}

// BAD (undefined, harmless here): warp w runs 1 + w / 2 trips; the warps that finish
// early write their result to global memory and exit.
// launch: grid=64 block=256 bytes=1048576
// synccheck: errors=5856 (compute-sanitizer 2025.3.1.0, NVIDIA H200)
__global__ void bar_bad_warp_trips_then_exit(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < 1 + t / 64; ++k) {
        s[t] = a[blockIdx.x * 256 + t] + k;
        __syncthreads();  // expect: CL302 warning
        acc += s[(t + 64) % 256];
        __syncthreads();
    }
    out[blockIdx.x * 256 + t] = acc;
}

// BAD: the same loop, but the warps that finish early go on to write shared memory: the
// write after the loop meets the reads of the warps still in it, and their arrival at the
// barrier after the loop releases the others' barrier inside it.
// launch: grid=64 block=256 bytes=1048576
// synccheck: errors=4672 (compute-sanitizer 2025.3.1.0, NVIDIA H200)
__global__ void bar_bad_warp_trips_then_shared(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < 1 + t / 64; ++k) {
        s[t] = a[blockIdx.x * 256 + t] + k;
        __syncthreads();  // expect: CL302 warning
        acc += s[(t + 64) % 256];
        __syncthreads();
    }
    s[t] = acc;
    __syncthreads();
    out[blockIdx.x * 256 + t] = s[(t + 128) % 256];
}

// BAD: a ragged block-stride loop whose short threads read shared memory after it
// (threads 232-255 skip the last round and read what the others write in it).
// launch: grid=64 block=256 bytes=1048576 args: n=1000
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H200)
__global__ void bar_bad_ragged_then_shared(float* out, const float* a, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    float acc = 0.0f;
    for (int i = t; i < n; i += blockDim.x) {
        s[t] = a[blockIdx.x * n + i];
        __syncthreads();
        acc += s[(t + 1) % 256];
        __syncthreads();
    }
    out[blockIdx.x * 256 + t] = acc + s[(t + 17) % 256];  // expect: CL302 warning
}

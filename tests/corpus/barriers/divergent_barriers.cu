// cudalint barrier corpus: __syncthreads() reached by only some threads of a block, and
// the correct counterparts (hardware truth for barrier-divergence rules).
// Format (read and written by scripts/measure_gpu.py --synccheck; its docstring has the details):
//   // launch: grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]
//   // synccheck: errors=<n> (compute-sanitizer <version>, <GPU>)     (or: hang (...))
// The "launch:" line sits in the comment block right above the kernel it launches. The
// harness gives every pointer parameter its own zeroed device buffer (bytes=), scalars
// their args: value, runs each kernel alone, once plainly and once under
// `compute-sanitizer --tool synccheck` (each under a timeout), and writes the
// "synccheck:" line under the "launch:" line: the sanitizer's ERROR SUMMARY count, or
// "hang" where the sanitized run outran the timeout. The comment above each kernel says
// whether the code is correct (every thread of the block reaches every barrier the same
// number of times) and what the plain run did.
// Kernels named bar_bad_* break that rule; bar_ok_* keep it.
// Run of the recorded lines (H200, sm_90, nvcc -O3, 8 s timeouts): no kernel hung,
// plainly or under the sanitizer, and every plain run finished without a CUDA error.
// synccheck reported errors for two kernels only, both with a barrier inside an if on
// t % 2 ("Barrier error detected. Divergent thread(s) in warp"): about one error per
// offending thread (8112 and 8144 of the 64 x 128 = 8192 odd threads; take the count as
// approximate), and the sanitized launch then fails. Early returns before a barrier, a
// barrier skipped by whole warps and a barrier in a loop with a thread-dependent trip
// count gave 0 errors, though the CUDA rules make all of them undefined: exited threads
// do not hold a barrier up on this GPU.

// BAD: the barrier sits in a branch on threadIdx.x % 2: odd lanes of every warp reach
// it, even lanes do not. Measured: errors at the barrier, no hang in the plain run.
// launch: grid=64 block=256 bytes=1048576
// synccheck: errors=4080 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_bad_lane_branch(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    if (t % 2) {  // expect: CL301 warning @5 "16 of 32 lanes take it"
        __syncthreads();  // expect: CL302 error @9 "is reached under `t % 2`"
        s[t] += s[t ^ 1];
    }
    out[i] = s[t];
}

// BAD: a thread-varying early return (odd lanes leave) before the barrier. Measured:
// 0 errors, no hang (the exited lanes are not waited for).
// launch: grid=64 block=256 bytes=1048576
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_bad_lane_return(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t % 2) return;  // known false positive: CL301 warning measured clean only because the odd lanes exit rather than branch (no divergent branch on this line); their idle slots show as 2x sectors on lines 50 and 52
    s[t] = a[i];  // expect-miss: CL101 2x sectors: the odd lanes returned at line 49; CL101 leaves lanes a branch idles to CL301, reported at line 49
    __syncthreads();
    out[i] = s[(t + 2) % 256];  // expect-miss: CL101 2x sectors: the odd lanes returned at line 49; CL101 leaves lanes a branch idles to CL301, reported at line 49
}

// BAD: the classic bounds guard `if (i >= n) return;` before a barrier, with n not a
// multiple of the block (n = 16384 - 48): the last block's tail threads leave early.
// Measured: 0 errors, no hang.
// launch: grid=64 block=256 bytes=1048576 args: n=16336
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_bad_tail_return(float* out, const float* a, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i >= n) return;
    s[t] = a[i];
    __syncthreads();
    out[i] = s[(t + 1) % 256];
}

// BAD: the barrier inside a loop with a thread-dependent trip count (threadIdx.x % 4):
// lanes reach it 0 to 3 times. Measured: 0 errors, no hang (unexplained here: no SASS
// of this driver was kept).
// launch: grid=64 block=256 bytes=1048576
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_bad_thread_trip_loop(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    for (unsigned int j = 0; j < threadIdx.x % 4; ++j) {  // expect: CL301 warning @5 "about 28% of the lane slots"
        __syncthreads();  // known false positive: CL302 note synccheck: 0 errors: lanes reach it 0 to 3 times and none waits for another; undefined by the CUDA rules, hence a note
        s[t] += s[(t + 1) % 256];
    }
    out[i] = s[t];  // expect-miss: CL101 the lanes leave line 80's loop after 0 to 3 barriers and do not reconverge: the store issues 4 times a warp (ncu: 4x sectors); the tool costs it for the whole warp
}

// BAD: warp-uniform but not block-uniform: odd warps ((threadIdx.x >> 5) & 1) reach the
// barrier, even warps do not. Measured: 0 errors, no hang (synccheck checks warps only).
// launch: grid=64 block=256 bytes=1048576
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_bad_warp_branch(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    if ((threadIdx.x >> 5) & 1) {
        __syncthreads();  // known false positive: CL302 note synccheck: 0 errors: synccheck checks warps, and whole warps skip it; undefined by the CUDA rules, hence a note
        s[t] += s[(t + 32) % 256];
    }
    out[i] = s[t];
}

// BAD (by the CUDA rules): one barrier in each arm of a thread-varying branch. Every
// thread reaches a barrier once, but not the same __syncthreads() call. Measured:
// errors, all at the if arm's barrier (odd lanes), none at the else arm's; no hang.
// launch: grid=64 block=256 bytes=1048576
// synccheck: errors=3328 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_bad_both_arms(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (t % 2) {  // expect: CL301 warning
        s[t] = a[i];
        __syncthreads();  // expect: CL302 error @9 "is reached under `t % 2`"
        out[i] = s[t ^ 1];
    } else {
        s[t] = a[i] + 1.0f;
        __syncthreads();  // known false positive: CL302 error measured clean only because synccheck prints 1000 reports a launch and line 114's filled them: this barrier's errors go unprinted
        out[i] = s[t ^ 1] * 2.0f;
    }
}

// OK: the early return is block-uniform (blockIdx.x >= nblocks): whole blocks leave.
// launch: grid=64 block=256 bytes=1048576 args: nblocks=32
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_ok_block_return(float* out, const float* a, int nblocks) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (blockIdx.x >= nblocks) return;
    s[t] = a[i];
    __syncthreads();
    out[i] = s[(t + 1) % 256];
}

// OK: the divergent branch only writes shared memory; the barrier is after it.
// launch: grid=64 block=256 bytes=1048576
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_ok_outside_branch(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = 0.0f;
    if (t % 2) {  // expect: CL301 warning
        s[t] = a[i];  // expect-miss: CL101 2x sectors: only the odd lanes load; CL101 leaves lanes a branch idles to CL301, reported at line 144
    }
    __syncthreads();
    out[i] = s[t ^ 1];
}

// OK: the tail fix: a guard flag around the work, the barrier reached by all threads.
// launch: grid=64 block=256 bytes=1048576 args: n=16336
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_ok_guarded_work(float* out, const float* a, int n) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    bool in_range = i < n;
    s[t] = in_range ? a[i] : 0.0f;
    __syncthreads();
    if (in_range) {
        out[i] = s[(t + 1) % 256];
    }
}

// OK: a barrier in a loop whose trip count is a kernel argument (uniform).
// launch: grid=64 block=256 bytes=1048576 args: reps=4
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_ok_uniform_loop(float* out, const float* a, int reps) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    for (int j = 0; j < reps; ++j) {
        __syncthreads();
        float v = s[(t + 1) % 256];
        __syncthreads();
        s[t] += v;
    }
    out[i] = s[t];
}

// BAD: the barrier in a loop whose trip count depends on loaded data (a list walk), under
// a bounds guard; the threads that leave the loop exit and meet no other barrier.
// Expected: 0 errors, as for the thread-dependent trip count above (a CL302 note).
// launch: grid=64 block=256 bytes=1048576 args: n=16336
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_bad_data_loop_then_exit(int* list, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int node = list[i];
        while (node > 0) {  // known false positive: CL301 note the harness zeroes list: every walk ends at once, no lane loops; the data decides, hence a note
            int next = list[node % 16384];  // expect: CL101 note
            __syncthreads();  // known false positive: CL302 note synccheck: 0 errors: the threads that leave the walk exit and meet no other barrier; undefined by the CUDA rules, hence a note
            list[i] = next;
            node = next;
        }
    }
}

// BAD: odd warps skip a barrier that the even warps reach, and every thread meets the
// barrier after it: the two groups pass different barriers together.
// launch: grid=64 block=256 bytes=1048576
// synccheck: errors=6912 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_bad_warp_branch_then_barrier(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    if ((threadIdx.x >> 5) & 1) {
        __syncthreads();  // known false positive: CL302 warning synccheck counts the pair of barriers the two groups pass together at either of its lines, run by run: all at line 214 in the recorded run, 448 here and 552 there in an earlier one; the finding stands at the barrier the odd warps reach alone
        s[t] += s[(t + 32) % 256];
    }
    __syncthreads();  // expect-miss: CL302 synccheck reports errors here too: the warps that skipped line 211's barrier meet the others at this one; the tool reports the pair at line 211
    out[i] = s[(t + 1) % 256];
}

// OK: a flag made block-uniform. Each warp ORs its lanes' flags with a butterfly of xor
// shuffles, lane 0 stores the warp's flag to shared memory, and after the barrier every
// warp reduces the same per-warp flags again: every thread holds the block's flag, and
// the barrier under it is reached by all threads or none. Measured: 0 errors.
// launch: grid=64 block=256 bytes=1048576
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_ok_warp_reduced_flag(float* out, const float* a) {
    __shared__ int s_flag[32];
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int lane = t % 32;
    int flag = a[i] >= 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) flag |= __shfl_xor_sync(0xffffffff, flag, offset);
    if (lane == 0) s_flag[t / 32] = flag;
    __syncthreads();
    flag = lane < blockDim.x / 32 ? s_flag[lane] : 0;
    for (int offset = 16; offset > 0; offset >>= 1) flag |= __shfl_xor_sync(0xffffffff, flag, offset);
    if (flag) {
        s[t] = a[i];
        __syncthreads();
        out[i] = s[t ^ 32];
    }
}

// OK: a tree walked one warp at a time (an implicit 4-ary tree of 341 nodes). Each warp
// keeps its own stack in shared memory at a base the same across the warp, its lane 0
// pushes, and every lane reads the top after a __syncwarp(); a node is opened unless it
// is a leaf or all lanes agree (__all_sync) it is far enough. So the node, the stack depth
// and every trip count are the same across each warp: the __syncwarp() calls inside the
// walk are met by all lanes together, and the node's loads are broadcasts.
// launch: grid=64 block=256 bytes=1048576 args: nnodes=341
// synccheck: errors=0 (compute-sanitizer 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void bar_ok_warp_stack_walk(const int* pruned, const float* pos, float* out, int nnodes) {
    __shared__ int stack_node[8 * 16], stack_pos[8 * 16];
    const int leader = threadIdx.x / 32 * 32;
    const int base = threadIdx.x / 32 * 16;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float xi = pos[i];
    float acc = 0.0f;
    int depth = base;
    if (threadIdx.x == leader) {
        stack_node[base] = 0;
        stack_pos[base] = 0;
    }
    __syncwarp();
    do {
        int pd = stack_pos[depth];
        int nd = stack_node[depth];
        __syncwarp();
        while (pd < 4) {
            const int n = nd * 4 + pd + 1;
            pd++;
            if (n < nnodes && pruned[n] == 0) {
                const float d = pos[n] - xi;
                if (n >= nnodes / 4 || __all_sync(0xffffffff, d * d > 1.0f)) {
                    acc += d;
                } else {
                    if (threadIdx.x == leader) {
                        stack_pos[depth] = pd;
                        stack_node[depth] = nd;
                    }
                    depth++;
                    pd = 0;
                    nd = n;
                }
            }
        }
        depth--;
        __syncwarp();
    } while (depth >= base);
    out[i] = acc;
}

// cudalint barrier shapes found in real programs, to be measured like the barrier corpus
// (scripts/measure_gpu.py --synccheck --write; then moved into tests/corpus/barriers):
//   // launch: grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
// CL302 is a note where the threads that skip a barrier exit without meeting another
// (synccheck measured 0 errors for such code), a warning where they can meet one later.

// BAD: the barrier in a loop whose trip count depends on loaded data (a list walk), under
// a bounds guard; the threads that leave the loop exit and meet no other barrier.
// Expected: 0 errors, as for the thread-dependent trip count above (a CL302 note).
// launch: grid=64 block=256 bytes=1048576 args: n=16336
__global__ void bar_bad_data_loop_then_exit(int* list, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int node = list[i];
        while (node > 0) {  // expect: CL301 note
            int next = list[node % 16384];  // expect: CL101 note
            __syncthreads();  // expect: CL302 note
            list[i] = next;
            node = next;
        }
    }
}

// BAD: odd warps skip a barrier that the even warps reach, and every thread meets the
// barrier after it: the two groups pass different barriers together.
// launch: grid=64 block=256 bytes=1048576
__global__ void bar_bad_warp_branch_then_barrier(float* out, const float* a) {
    __shared__ float s[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t] = a[i];
    if ((threadIdx.x >> 5) & 1) {
        __syncthreads();  // expect: CL302 warning
        s[t] += s[(t + 32) % 256];
    }
    __syncthreads();
    out[i] = s[(t + 1) % 256];
}

// cudalint dataflow corpus: loops whose counter doubles or halves (tree reductions and
// scans in shared memory), written as for and while loops with the update in the header
// or in the body. cudalint must take every value the counter goes through: the bank
// conflicts and the divergence of a tree come from particular strides.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)
// The "launch:" lines sit in the comment block right above the kernel they launch. The
// harness gives every pointer parameter its own zeroed device buffer (256 MiB, or
// bytes=), scalars their args: value, and launches the kernels of the file in order, once
// to warm up and once under Nsight Compute. Per source line, the shared loads and stores
// of the tree step show the wavefronts the comments predict (averaged over the trips
// Nsight Compute counts them per instruction executed).
// Run of the recorded lines (H100, sm_90): bank conflicts where the comments predict them
// (none in df_tree_while_halving), and 0 divergent branch targets: the compiler predicates
// the short tree steps, so the idle lanes show as fewer than 32 threads predicated on per
// instruction (pred_on_ratio 18-21) rather than as branches. Wavefronts per request fall
// below 1 where predicated-off instructions issue without moving data.

// Interleaved tree reduction as a while loop, the stride doubled at the end of the body:
// at stride s lane t adds s[2st + s] into s[2st]; 2s words apart: 2-, 4- and 8-way
// conflicts (at s = 4 the first warp's 32 lanes are all active), fewer lanes after that.
// launch: grid=64 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=0.74 shst_wavefronts_per_request=0.76 bank_conflicts_ld=4480 bank_conflicts_st=2240 branch_divergent_targets=0 pred_on_ratio=19.49 gld_requests_per_warp=1.00 gst_requests_per_warp=0.12 shld_requests_per_warp=16.12 shst_requests_per_warp=9.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__launch_bounds__(256) __global__ void df_tree_while_doubling(float* out, const float* in) {
    __shared__ float s[256];
    unsigned int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    unsigned int stride = 1;
    while (stride < blockDim.x) {
        unsigned int index = 2 * stride * t;
        if (index < blockDim.x) {  // expect: CL301 warning @9 "16 of 32 lanes take it"
            s[index] += s[index + stride];  // expect: CL201 warning, CL201 warning
        }
        __syncthreads();
        stride = stride * 2;
    }
    if (t == 0) {  // expect-miss: CL301 one lane's short body: the model counts a single lane's store as predicated and cheap; measured, it idles 0.64% of this short kernel's lane slots (the yardstick counts from 0.5%)
        out[blockIdx.x] = s[0];
    }
}

// Sequential tree reduction as a while loop that halves its counter with `s = s / 2`:
// lanes read consecutive words (conflict-free); `t < s` splits a warp once s < 32. The
// barrier in the loop is reached the same number of times by every thread.
// launch: grid=64 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=0.19 shst_wavefronts_per_request=0.28 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=20.08 gld_requests_per_warp=1.00 gst_requests_per_warp=0.12 shld_requests_per_warp=16.12 shst_requests_per_warp=9.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__launch_bounds__(256) __global__ void df_tree_while_halving(float* out, const float* in) {
    __shared__ float s[256];
    unsigned int t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    unsigned int half = blockDim.x / 2;
    while (half > 0) {
        if (t < half) {  // expect: CL301 warning @9 "16 of 32 lanes take it"
            s[t] += s[t + half];
        }
        __syncthreads();
        half = half / 2;
    }
    if (t == 0) {  // expect-miss: CL301 one lane's short body: the model counts a single lane's store as predicated and cheap; measured, it idles 0.83% of this short kernel's lane slots (the yardstick counts from 0.5%)
        out[blockIdx.x] = s[0];
    }
}

// Work-efficient scan, up-sweep (512 threads, 1024 elements): `d` halves in the header,
// `offset` doubles in the body. At offset o the lanes' indices are 2o words apart: 2-, 4-,
// 8- and 16-way conflicts, and 32-way at o = 16 (d = 32: a whole warp). The down-sweep
// runs the strides back: the same conflicts.
// launch: grid=64 block=512
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.14 shst_wavefronts_per_request=1.12 bank_conflicts_ld=35584 bank_conflicts_st=27712 branch_divergent_targets=0 pred_on_ratio=17.92 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=40.00 shst_requests_per_warp=32.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__launch_bounds__(512) __global__ void df_scan_sweeps(float* out, const float* in) {
    __shared__ float temp[1024];
    int t = threadIdx.x;
    temp[t] = in[blockIdx.x * 1024 + t];
    temp[t + 512] = in[blockIdx.x * 1024 + t + 512];
    int offset = 1;
    for (int d = 1024 >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {  // expect: CL301 warning
            int ai = offset * (2 * t + 1) - 1;
            int bi = offset * (2 * t + 2) - 1;
            temp[bi] += temp[ai];  // expect: CL201 warning, CL201 warning
        }
        offset *= 2;
    }
    if (t == 0) {  // expect-miss: CL301 one lane's short body: the model counts a single lane's store as predicated and cheap; measured, it idles 0.60% of this short kernel's lane slots (the yardstick counts from 0.5%)
        temp[1023] = 0.0f;
    }
    for (int d = 1; d < 1024; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {  // expect: CL301 warning
            int ai = offset * (2 * t + 1) - 1;
            int bi = offset * (2 * t + 2) - 1;
            float left = temp[ai];  // expect: CL201 warning @26 "32-way bank conflict"
            temp[ai] = temp[bi];  // expect: CL201 warning, CL201 warning
            temp[bi] += left;  // expect: CL201 warning @13 "32-way bank conflict"
        }
    }
    __syncthreads();
    out[blockIdx.x * 1024 + t] = temp[t];
    out[blockIdx.x * 1024 + t + 512] = temp[t + 512];
}

// A tree over 8192 shared elements (32 KB; 1024 threads load 8 each): at step k the
// threads t < 4096 >> k combine s[2^(k+1) t] and s[2^(k+1) t + 2^k]. The first warp keeps
// all 32 lanes busy until k = 7 and splits from k = 8 on; lanes are 2^(k+1) words apart,
// a 32-way conflict from k = 4 on (all lanes in one bank).
// launch: grid=16 block=1024
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=2.96 shst_wavefronts_per_request=2.19 bank_conflicts_ld=33632 bank_conflicts_st=17328 branch_divergent_targets=0 pred_on_ratio=21.31 gld_requests_per_warp=8.00 gst_requests_per_warp=0.03 shld_requests_per_warp=25.03 shst_requests_per_warp=21.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__launch_bounds__(1024) __global__ void df_tree_8192(float* out, const float* in) {
    __shared__ float s[8192];
    unsigned int t = threadIdx.x;
    for (unsigned int k = 0; k < 8; ++k) {
        s[t + 1024 * k] = in[blockIdx.x * 8192 + t + 1024 * k];
    }
    __syncthreads();
    for (unsigned int step = 1; step < 8192; step <<= 1) {
        if (t < 4096 / step) {  // expect: CL301 warning
            s[2 * step * t] += s[2 * step * t + step];  // expect: CL201 warning, CL201 warning
        }
        __syncthreads();
    }
    if (t == 0) {
        out[blockIdx.x] = s[0];
    }
}

// cudalint global corpus: bit-reversal permutations, as FFT and NTT codes write them. The
// lane index is reversed into the high bits of the address, so neighbouring lanes land
// 2^(bits - 6) elements apart; a helper picks the 32- or 64-bit reversal by the index
// type's size, a choice the compiler folds away.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)

template <class Index>
__device__ __forceinline__ Index br_reverse(Index i, unsigned int bits) {
    if (sizeof(i) == 4 || bits <= 32)  // expect-miss: CL301 the condition is the same in every thread, so no lane split; for the 64-bit index nvcc predicates both paths on it, and the path not taken (line 14) issues with every lane off (16384 of 114688 thread instructions on), which the per-line figures count as idle lanes
        return __brev(i) >> (8 * sizeof(unsigned int) - bits);
    else
        return __brevll(i) >> (8 * sizeof(unsigned long long) - bits);
}

// Each thread moves its 8-byte element to the reversed position: the load is one run per
// warp, the store puts every lane in a sector of its own (32 sectors where 8 would do).
// launch: grid=64 block=256 args: bits=14
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=32.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void br_scatter(long* out, const long* in, unsigned int bits) {
    unsigned int idx = threadIdx.x + blockDim.x * blockIdx.x;
    unsigned int rev = br_reverse(idx, bits);
    long value = in[idx];
    out[rev] = value;  // expect: CL101 warning
}

// The same reversal with a 64-bit index: the helper takes the `__brevll` path.
// launch: grid=64 block=256 args: bits=14
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=32.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=25.14 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void br_scatter_wide(long* out, const long* in, unsigned int bits) {
    unsigned long long idx = threadIdx.x + blockDim.x * (unsigned long long)blockIdx.x;
    unsigned long long rev = br_reverse(idx, bits);
    out[rev] = in[idx];  // expect: CL101 warning
}

// Blocks permuted, lanes kept in order: every warp still writes one run of 256 bytes, so
// there is nothing to report.
// launch: grid=64 block=256 args: block_bits=6
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=8.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void br_blocks(long* out, const long* in, unsigned int block_bits) {
    unsigned int block = br_reverse(blockIdx.x, block_bits);
    out[block * blockDim.x + threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
}

void br_launch(long* out, const long* in) {
    br_scatter<<<64, 256>>>(out, in, 14);
    br_scatter_wide<<<64, 256>>>(out, in, 14);
    br_blocks<<<64, 256>>>(out, in, 6);
}

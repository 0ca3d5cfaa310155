// cudalint shared corpus: work-efficient tree scans (up-sweep) of 128 elements by 64
// threads. Trip by trip the active threads (t < d) read temp[offset * (2t + 1) - 1]:
// d * 2 * offset is the tile, so the active lanes of every trip span 128 elements.
// For 1-byte elements that is 128 bytes, one wavefront in every trip, whatever the
// stride. For 8-byte elements it is 1 KiB, served in half-warp phases: 16 bytes apart
// (offset 1) two lanes of a phase share each bank pair (2x), 32 bytes apart 4x, and so
// on. A template is judged at each of its launches; the worst one is reported.
// A block of 8 threads reading s[2t - stride] puts 8 lanes on 16 words: no two share a
// bank, where a full warp would (lanes t and t + 16).

template <typename T>
__device__ void ts_up_sweep(T* temp) {
    int t = threadIdx.x;
    int offset = 1;
    for (int d = 64; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {  // expect: CL301 warning
            int ai = offset * (2 * t + 1) - 1;
            int bi = offset * (2 * t + 2) - 1;
            temp[bi] += temp[ai];  // expect: CL201 warning, CL201 warning
        }
        offset *= 2;
    }
}

// launch: kernel=ts_scan_wide<char> grid=64 block=64
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=0.62 shst_wavefronts_per_request=0.67 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=21.84 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=16.00 shst_requests_per_warp=9.00 (ncu 2025.3.1.0, NVIDIA H200)
// launch: kernel=ts_scan_wide<long> grid=64 block=64
// measured: gld_sectors_per_request=8.00 gst_sectors_per_request=8.00 shld_wavefronts_per_request=2.60 shst_wavefronts_per_request=2.61 bank_conflicts_ld=3072 bank_conflicts_st=1792 branch_divergent_targets=0 pred_on_ratio=20.54 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=15.00 shst_requests_per_warp=9.00 (ncu 2025.3.1.0, NVIDIA H200)
template <typename T>
__global__ void ts_scan_wide(T* out, const T* in) {
    __shared__ T temp[128];
    int t = threadIdx.x;
    temp[t] = in[blockIdx.x * 128 + t];
    temp[t + 64] = in[blockIdx.x * 128 + t + 64];
    ts_up_sweep(temp);
    __syncthreads();
    out[blockIdx.x * 128 + t] = temp[t];
    out[blockIdx.x * 128 + t + 64] = temp[t + 64];
}

// launch: kernel=ts_scan_narrow<char> grid=64 block=64
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=0.62 shst_wavefronts_per_request=0.67 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=21.84 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=16.00 shst_requests_per_warp=9.00 (ncu 2025.3.1.0, NVIDIA H200)
template <typename T>
__global__ void ts_scan_narrow(T* out, const T* in) {
    __shared__ T temp[128];
    int t = threadIdx.x;
    temp[t] = in[blockIdx.x * 128 + t];
    temp[t + 64] = in[blockIdx.x * 128 + t + 64];
    int offset = 1;
    for (int d = 64; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {  // expect: CL301 warning
            int ai = offset * (2 * t + 1) - 1;
            int bi = offset * (2 * t + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    __syncthreads();
    out[blockIdx.x * 128 + t] = temp[t];
    out[blockIdx.x * 128 + t + 64] = temp[t + 64];
}

template __global__ void ts_scan_wide<char>(char*, const char*);
template __global__ void ts_scan_wide<long>(long*, const long*);
template __global__ void ts_scan_narrow<char>(char*, const char*);

// launch: grid=1 block=8 args: block_size=16
// measured: gld_sectors_per_request=1.00 gst_sectors_per_request=1.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=7.18 gld_requests_per_warp=2.00 gst_requests_per_warp=2.00 shld_requests_per_warp=15.00 shst_requests_per_warp=6.00 (ncu 2025.3.1.0, NVIDIA H200)
__global__ void ts_small_block_scan(float* out, const float* in, unsigned block_size) {
    __shared__ float block[16];
    int t = threadIdx.x;
    block[t] = in[t];
    block[t + 8] = in[t + 8];
    __syncthreads();
    float first = block[0], second = first + block[1];
    for (unsigned stride = 1; stride < block_size; stride *= 2) {
        if (2 * t >= stride) {  // expect: CL301 warning
            first = block[2 * t - stride] + block[2 * t];
            second = block[2 * t + 1 - stride] + block[2 * t + 1];
        }
        __syncthreads();
        block[2 * t] = first;
        block[2 * t + 1] = second;
        __syncthreads();
    }
    out[t] = block[t];
    out[t + 8] = block[t + 8];
}

void ts_launch_all(char* c, const char* ci, long* l, const long* li, float* f, const float* fi) {
    ts_scan_wide<char><<<64, 64>>>(c, ci);
    ts_scan_wide<long><<<64, 64>>>(l, li);
    ts_scan_narrow<char><<<64, 64>>>(c, ci);
    ts_small_block_scan<<<1, 8>>>(f, fi, 16);
}

// cudalint dataflow corpus: cooperative groups. Block and tile barriers in each form the
// API offers (cg::sync(g), g.sync(), this_thread_block().sync(), barrier_arrive/wait),
// ranks (thread_rank() of a block is the linear thread index, of a tile of N threads that
// index modulo N; meta_group_rank() is the index divided by N: one value per warp only
// when N is a multiple of 32), and cg::reduce, whose result every lane of the tile shares.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [shmem=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)
// The "launch:" lines sit in the comment block right above the kernel they launch. The
// harness gives every pointer parameter its own zeroed device buffer (256 MiB, or
// bytes=), scalars their args: value, and launches the kernels of the file in order, once
// to warm up and once under Nsight Compute. The barrier verdicts come from
// `scripts/measure_gpu.py --synccheck` (compute-sanitizer's synccheck).
// Run of the recorded lines (H100, sm_90): every plain run finished without a CUDA error.
// df_cg_sync_in_lane_branch has 512 divergent branch targets (its `t % 2` branch); its
// cg::sync in that branch drew 0 synccheck errors on this GPU, though it is the same
// lane-split barrier as the barrier corpus's bar_bad_lane_branch (errors with
// __syncthreads on an H200): undefined behaviour either way. df_cg_tiles_of_16: 16 sectors
// per load request and 512 divergent targets (the branch on the tile's parity).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// Block sum: each warp reduces with cg::reduce (the same sum in all 32 lanes), lane 0 of
// each warp writes it, one block barrier, then the first warp reduces the partial sums.
// Every condition is uniform per warp or per block; every barrier is reached by the whole
// block: no divergent branch target, no synccheck error.
// launch: grid=64 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=- shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=26.10 gld_requests_per_warp=1.00 gst_requests_per_warp=- shld_requests_per_warp=0.12 shst_requests_per_warp=1.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_cg_block_sum(float* out, const float* in) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float partial[8];
    float v = in[block.group_index().x * block.size() + block.thread_rank()];
    v = cg::reduce(warp, v, cg::plus<float>());
    if (warp.thread_rank() == 0) {
        partial[warp.meta_group_rank()] = v;
    }
    cg::sync(block);
    if (warp.meta_group_rank() == 0) {  // expect-miss: CL301 warp-uniform (warp 0 takes it); the idle lanes ncu shows in its body are line 42's select, where lanes 8-31 skip the partial[] load
        v = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0f;
        v = cg::reduce(warp, v, cg::plus<float>());
        if (v != 0.0f) {
            out[block.group_index().x] = v;
        }
    }
}

// Every barrier form under uniform control, around a shared-memory rotation; the tile
// barriers wait for the 32 lanes of a warp. No finding: each form is a barrier the whole
// block (or the whole warp) reaches.
// launch: grid=64 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.00 bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=0 pred_on_ratio=32.00 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=2.00 shst_requests_per_warp=2.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_cg_barrier_forms(float* out, const float* in) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float s[256];
    unsigned int t = block.thread_rank();
    unsigned int i = block.group_index().x * block.num_threads() + t;
    s[t] = in[i];
    cg::sync(block);
    float v = s[(t + 1) % 256];
    block.sync();
    s[t] = v;
    cg::this_thread_block().sync();
    v += s[(t + 2) % 256];
    warp.sync();
    cg::sync(warp);
    block.barrier_wait(block.barrier_arrive());
    out[i] = v;
}

// A block barrier in a branch on the thread's parity, written with cg::sync: odd lanes of
// every warp reach it, even lanes do not (synccheck reports it like __syncthreads()).
// launch: grid=64 block=256
// measured: gld_sectors_per_request=4.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=1.00 shst_wavefronts_per_request=1.03 bank_conflicts_ld=0 bank_conflicts_st=30 branch_divergent_targets=512 pred_on_ratio=24.93 gld_requests_per_warp=1.00 gst_requests_per_warp=2.00 shld_requests_per_warp=2.00 shst_requests_per_warp=2.00 (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_cg_sync_in_lane_branch(float* out, const float* in) {
    cg::thread_block block = cg::this_thread_block();
    __shared__ float s[256];
    unsigned int t = block.thread_rank();
    unsigned int i = block.group_index().x * block.size() + t;
    s[t] = in[i];
    if (t % 2) {  // expect: CL301 warning @5 "16 of 32 lanes take it"
        cg::sync(block);  // expect: CL302 error @9 "is reached under `t % 2`"
        s[t] += s[t ^ 1];
    }
    out[i] = s[t];  // expect-miss: CL101 the warp does not reconverge after cg::sync in line 84's lane branch: the store issues twice a warp (ncu: 2x sectors); the tool costs it for the whole warp
}

// Tiles of 16 threads: tiled_partition(block, 16) ranks are threadIdx.x % 16, and
// meta_group_rank of a tiled_partition<16> differs between the two halves of a warp.
// in[tile_rank * 32 + tile] puts the 16 ranks of a tile 128 bytes apart, the two tiles of
// a warp side by side: 16 sectors per request for 4 of data. The branch on the tile's
// parity splits every warp in two halves.
// launch: grid=64 block=256
// measured: gld_sectors_per_request=16.00 gst_sectors_per_request=4.00 shld_wavefronts_per_request=- shst_wavefronts_per_request=- bank_conflicts_ld=0 bank_conflicts_st=0 branch_divergent_targets=512 pred_on_ratio=27.01 gld_requests_per_warp=1.00 gst_requests_per_warp=1.00 shld_requests_per_warp=- shst_requests_per_warp=- (ncu 2025.3.1.0, NVIDIA H100 80GB HBM3)
__global__ void df_cg_tiles_of_16(float* out, const float* in) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_group tile = cg::tiled_partition(block, 16);
    cg::thread_block_tile<16> static_tile = cg::tiled_partition<16>(block);
    unsigned int tile_index = block.thread_rank() / tile.size();
    unsigned int i = block.group_index().x * block.size() + block.thread_rank();
    float v = in[block.group_index().x * 512 + tile.thread_rank() * 32 + tile_index];  // expect: CL101 warning @15 "16 sectors per request where 4 would do"
    if (static_tile.meta_group_rank() % 2 == 0) {  // expect: CL301 warning @5 "16 of 32 lanes take it"
        v = v * v;
        v = sqrtf(v + 1.0f);
        v = v * 0.5f;
    }
    out[i] = v;
}

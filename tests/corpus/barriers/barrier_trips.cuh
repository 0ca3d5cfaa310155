// The kernels of barrier_trips.cu as the host code of barrier_trips_launch.cu sees them.
#pragma once

__global__ void bar_ok_block_stride_whole(float* out, const float* a);
__global__ void bar_ok_block_stride_launch(float* out, const float* a, int n);
__global__ void bar_bad_ragged_then_exit(float* out, const float* a, int n);
__global__ void bar_bad_warp_trips_then_exit(float* out, const float* a);
__global__ void bar_bad_warp_trips_then_shared(float* out, const float* a);
__global__ void bar_bad_ragged_then_shared(float* out, const float* a, int n);

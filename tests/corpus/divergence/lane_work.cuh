// The kernels of lane_work.cu as the host code of lane_work_launch.cu sees them.
#pragma once

__global__ void lw_one_lane_store(float* out, const float* a);
__global__ void lw_one_lane_serial_scan(float* out, const float* a);
__global__ void lw_one_lane_normalize(float* out, const float* a, int n);
__global__ void lw_one_lane_short_loop(float* out, const float* a);
__global__ void lw_one_lane_long_body(float* out, const float* a);
__global__ void lw_lane_start_trips(float* out, const float* a, int T);
__global__ void lw_lane_start_while(float* out, const float* a);
__global__ void lw_lane_shift_uniform_trips(float* out, const float* a, int T);
__global__ void lw_warp_ragged_rounds(float* out, const float* a);
__global__ void lw_warp_whole_rounds(float* out, const float* a);
__global__ void lw_grid_stride_many_rounds(float* out, const float* a, int n);

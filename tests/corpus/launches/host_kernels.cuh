// The kernels of host_kernels.cu as the host code of host_launch.cu sees them: declared
// here, defined in one file, launched from another.
#pragma once

__global__ void lk_head_stride(float* out, const float* in, int hs);
__global__ void lk_unit_stride(float* out, const float* in, int stride);
__global__ void lk_shared_rows(float* out, const float* in, int d);
__global__ void lk_shared_rows_odd(float* out, const float* in, int d);
__global__ void lk_scaled(float* out, const float* in, int scale);
__global__ void lk_half_warp(float* out, const float* in, int half);
__global__ void lk_row_sums(float* out, const float* in, int pitch);
__global__ void lk_argv_stride(float* out, const float* in, int stride);
__global__ void lk_block_columns(float* out, const float* in);
__global__ void lk_decimate(float* out, const float* in, int passes);

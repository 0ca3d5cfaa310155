// The kernels of open_axes.cu as the host code of open_axes_launch.cu sees them: declared
// here, defined in one file, launched from another with blocks whose shape is only partly
// written in the source.
#pragma once

__global__ void oa_column_pass(unsigned char* dst, const unsigned char* src, int width, int height);
__global__ void oa_row_pass(unsigned char* dst, const unsigned char* src, int width, int height);

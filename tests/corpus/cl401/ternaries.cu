// CL401 corpus: conditional expressions whose branches mix float and double.
// The condition is a kernel parameter (uniform, no divergence). The "measured:"
// lines are nvcc's fp64 PTX instruction counts (scripts/measure_fp64.py).
// Cases where NVVM rewrites double code in less obvious ways are in compiler_rewrites.cu.

// A promoted float or a double constant, selected and converted back: NVVM selects
// between floats. No arithmetic, nothing reported.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void tn_select_literal(float* out, const float* in, bool flag) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = flag ? in[i] : 0.0;
}

// measured: fp64=4 (nvcc 13.0 sm_90 ptx)
__global__ void tn_branch_inexact(float* out, const float* in, bool flag) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = flag ? in[i] * 0.1 : in[i];  // expect: CL401 warning @29 "1 fp64 operation"
}

// An exact multiply in one branch, the promoted float in the other: NVVM keeps
// the multiply and the select in fp64.
// measured: fp64=4 (nvcc 13.0 sm_90 ptx)
__global__ void tn_branch_exact_variable(float* out, const float* in, bool flag) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = flag ? in[i] * 2.0 : in[i];  // expect: CL401 warning @29 "1 fp64 operation"
}

// Already correct.
// measured: fp64=0 (nvcc 13.0 sm_90 ptx)
__global__ void tn_float_branches(float* out, const float* in, bool flag) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = flag ? in[i] * 0.1f : 0.5f;
}

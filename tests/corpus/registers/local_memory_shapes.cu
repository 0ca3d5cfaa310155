// Which per-thread arrays nvcc leaves in local memory, and which lines then load or store
// there. Registers cannot be indexed at run time: ptxas can still pick an element of a
// small array of 32-bit values with predicated moves, but not of 64-bit, 16-bit or 8-bit
// values, not of large arrays, and seldom inside rolled loops. Once an array is in local
// memory, every access at a run-time index goes there, and so do the stores a later load
// from memory reads and the loads that follow a store at a run-time index; the rest stays
// in registers. The "ptxas:" lines are nvcc's figures for each kernel
// (scripts/measure_ptxas.py); the lines marked CL502 are those whose SASS holds LDL/STL.

// Accumulators in doubles, updated by loops nvcc unrolls and then indexed by the counter
// of a loop too large to unroll (three 16-trip loops in its body): all three arrays live in
// local memory. The zeroing and the unrolled updates store there; the unrolled reads after
// the run-time stores load from there; the unrolled reads of `snap` before any run-time
// store come from registers.
// ptxas: registers=56 stack=384 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void rolled_counter_doubles(const double* in, const double* weights, double* out) {
    __shared__ double tile[16][256];
    double acc[16], snap[16], scale[16];
    for (int k = 0; k < 16; ++k) {
        acc[k] = 0.0;  // expect: CL502 warning @9 "lives in local memory"
        scale[k] = weights[k];  // expect: CL502 warning @9 "lives in local memory"
    }
    for (int c = 0; c < 8; ++c) {
        for (int k = 0; k < 16; ++k) tile[k][threadIdx.x] = in[(c * 16 + k) * 256 + threadIdx.x];
        __syncthreads();
        for (int k = 0; k < 16; ++k) acc[k] += tile[k][threadIdx.x] * weights[c * 16 + k];  // expect: CL502 warning
        for (int k = 0; k < 16; ++k) snap[k] = acc[k];  // expect: CL502 warning
        __syncthreads();
    }
    double s = 0.0;
    for (int k = 0; k < 16; ++k) {
        double d0 = 0.0, d1 = 0.0, d2 = 0.0;
        for (int m = 0; m < 16; ++m) d0 += tile[m][threadIdx.x] * snap[m];
        for (int m = 0; m < 16; ++m) d1 += tile[m][(threadIdx.x + k) % 256] * snap[m];
        for (int m = 0; m < 16; ++m) d2 += tile[k][m * 16 + threadIdx.x % 16] * snap[m];
        s += d0 * snap[k];  // expect: CL502 warning
        acc[k] = (d1 + d2) * scale[k];  // expect: CL502 warning, CL502 warning
        __syncthreads();
    }
    for (int k = 0; k < 16; ++k) out[k * 256 + threadIdx.x] = acc[k] + s;  // expect: CL502 warning
}

// The same accumulators in floats with the last loop small enough to unroll: every index
// is a constant, all in registers.
// ptxas: registers=32 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void unrolled_counter_floats(const float* in, const float* weights, float* out) {
    float acc[16] = {};
    for (int c = 0; c < 8; ++c)
        for (int k = 0; k < 16; ++k) acc[k] += in[c * 256 + threadIdx.x] * weights[c * 16 + k];
    for (int k = 0; k < 16; ++k) out[k * 256 + threadIdx.x] = acc[k];
}

// A table of doubles indexed by the block, stored and then read at the lane: one run-time
// access is enough, there are no selects between 64-bit registers.
// ptxas: registers=30 stack=256 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void block_indexed_doubles(const double* table, double* out) {
    double t[4][2][4];
    for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 4; ++l)
            t[blockIdx.x % 4][k][l] = table[(blockIdx.x * 2 + k) * 4 + l];  // expect: CL502 warning
    double s = 0.0;
    for (int k = 0; k < 2; ++k) s += t[blockIdx.x % 4][k][threadIdx.x % 4];  // expect: CL502 warning
    out[blockIdx.x * 256 + threadIdx.x] = s;
}

// The same table read back at the indices it was stored at: nvcc takes the stored values,
// the array never reaches memory.
// ptxas: registers=18 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void block_indexed_read_back(const double* table, double* out) {
    double t[4][2][4];
    for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 4; ++l) t[blockIdx.x % 4][k][l] = table[(blockIdx.x * 2 + k) * 4 + l];
    double s = 0.0;
    for (int k = 0; k < 2; ++k) s += t[blockIdx.x % 4][k][3] * t[blockIdx.x % 4][k][0];
    out[blockIdx.x * 256 + threadIdx.x] = s;
}

// A state table of bytes walked by the data: 8-bit values stay in local memory. The
// zeroing stores there, and both the load and the store of each step go there.
// ptxas: registers=23 stack=256 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void byte_state_machine(const unsigned short* data, int* misses, int length) {
    unsigned char state[256];
    for (int k = 0; k < 256; ++k) state[k] = 0;  // expect: CL502 warning
    int missed = 0;
    for (int i = 0; i < length; ++i) {
        int d = data[i];
        int row = (d >> 1) & 255;
        int s = state[row];  // expect: CL502 warning
        missed += (d & 1) ^ (s & 1);
        state[row] = (unsigned char)(s * 5 + (d & 1) + 1);  // expect: CL502 warning
    }
    misses[blockIdx.x * blockDim.x + threadIdx.x] = missed;
}

// One run-time read of 16 floats: ptxas picks the element with predicated moves.
// ptxas: registers=25 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void lane_pick16(const float* in, float* out) {
    float v[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) v[i] = in[i * 256 + threadIdx.x];
    out[threadIdx.x] = v[(threadIdx.x / 3) % 16];
}

// One run-time read of 96 floats: too many to pick from, local memory.
// ptxas: registers=32 stack=384 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void lane_pick96(const float* in, float* out) {
    float v[96];
#pragma unroll
    for (int i = 0; i < 96; ++i) v[i] = in[i * 256 + threadIdx.x];  // expect: CL502 warning
    out[threadIdx.x] = v[(threadIdx.x / 3) % 96];  // expect: CL502 warning
}

// Four run-time reads of 48 floats: 192 element reads, local memory.
// ptxas: registers=32 stack=192 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void four_picks48(const float* in, float* out) {
    float v[48];
#pragma unroll
    for (int i = 0; i < 48; ++i) v[i] = in[i * 256 + threadIdx.x];  // expect: CL502 warning
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < 4; ++k) s += v[(threadIdx.x / 3 + 7 * k) % 48];  // expect: CL502 warning
    out[threadIdx.x] = s;
}

// Two run-time reads of 32 float4 values, 128 32-bit words: picked with selects.
// ptxas: registers=32 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void two_picks_float4(const float4* in, float4* out) {
    float4 v[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = in[i * 256 + threadIdx.x];
    float4 a = v[(threadIdx.x / 3) % 8], b = v[(threadIdx.x / 5) % 8];
    out[threadIdx.x] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

// A lone read of a small float array would be selects, but the kernel already keeps a
// double array in local memory: nvcc leaves both there.
// ptxas: registers=28 stack=64 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void picks_beside_doubles(const float* in, const double* din, float* out) {
    float v[8];
    double d[4];
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = in[i * 256 + threadIdx.x];  // expect: CL502 warning
#pragma unroll
    for (int i = 0; i < 4; ++i) d[i] = din[i * 256 + threadIdx.x];  // expect: CL502 warning
    out[threadIdx.x] = v[(threadIdx.x / 3) % 8] + (float)d[(threadIdx.x / 5) % 4];  // expect: CL502 warning, CL502 warning
}

// Eight floats read at a rolled loop's counter: ptxas selects, registers.
// ptxas: registers=24 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void small_table_in_loop(const float* in, float* out, int n) {
    float v[8];
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] = in[i * 256 + threadIdx.x];
    float s = 0.f;
    for (int r = 0; r < n; ++r) s += v[(threadIdx.x + r) % 8];
    out[threadIdx.x] = s;
}

// Sixteen floats read at the counter of a loop with a run-time trip count: nvcc unrolls
// it by four and ptxas selects, registers.
// ptxas: registers=27 stack=0 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void prefix_of_run_time_length(const float* in, float* out, int n) {
    float v[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) v[i] = in[i * 256 + threadIdx.x];
    float s = 0.f;
    for (int r = 0; r < n; ++r) s += v[r];
    out[threadIdx.x] = s;
}

// Eight floats filled by one run-time loop and read back by another: local memory.
// ptxas: registers=28 stack=32 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void fill_then_read(const float* in, float* out, int n) {
    float v[8];
    for (int r = 0; r < n; ++r) v[r] = in[r];  // expect: CL502 warning
    float s = 0.f;
    for (int r = 0; r < n; ++r) s += v[r] * in[r + threadIdx.x];  // expect: CL502 warning
    out[threadIdx.x] = s;
}

// Sixteen halves picked by lane: 16-bit values stay in local memory.
// ptxas: registers=26 stack=32 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void half_pick(const short* in, short* out) {
    short v[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) v[i] = in[i * 256 + threadIdx.x];  // expect: CL502 warning
    out[threadIdx.x] = v[(threadIdx.x / 3) % 16];  // expect: CL502 warning
}

// The same pick with its subscript written over two lines: the local load is counted on
// the line that closes the subscript, where the finding stands.
// ptxas: registers=26 stack=32 spill-stores=0 spill-loads=0 (nvcc 13.0 sm_90)
__global__ void half_pick_split(const short* in, short* out) {
    short v[16];
#pragma unroll
    for (int i = 0; i < 16; ++i) v[i] = in[i * 256 + threadIdx.x];  // expect: CL502 warning
    out[threadIdx.x] = v[(threadIdx.x / 3)
                         % 16];  // expect: CL502 warning
}

// cudalint shared corpus: a warp tile's registers filled from shared memory, as warp-tiled
// GEMMs do: each lane loads TM = 8 neighbouring floats of its row of the tile in a loop
// nvcc unrolls, inside a loop over k that moves the whole request by a row of the tile.
// nvcc merges the eight trips into two 16-byte loads (LDS.128), and the k loop moves
// them by whole 16-byte words: the lanes of a quarter warp read eight 16-byte words 32
// bytes apart, one wavefront per phase, no conflict. Read one float at a time, the same
// words would be 2-way (eight addresses 32 bytes apart in four lanes each: banks 0, 8,
// 16, 24 twice). Started one float off a 16-byte boundary, nvcc cannot merge them, and
// each one-float load is 2-way.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)

// launch: grid=64 block=256
__global__ void rt_warp_tile_rows(const float* A, float* C) {
    __shared__ float As[16 * 256];
    for (int t = threadIdx.x; t < 16 * 256; t += blockDim.x)
        As[t] = A[blockIdx.x * 16 * 256 + t];
    __syncthreads();
    int rowInWarp = (threadIdx.x % 32) / 4;
    int warpRow = (threadIdx.x / 32) / 2;
    float reg[8];
    float acc = 0.0f;
    for (int k = 0; k < 16; ++k) {
        for (int i = 0; i < 8; ++i)
            reg[i] = As[k * 256 + warpRow * 64 + rowInWarp * 8 + i];
        for (int i = 0; i < 8; ++i)
            acc += reg[i] * reg[(i + 1) % 8];
    }
    C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// launch: grid=64 block=256
__global__ void rt_warp_tile_rows_unaligned(const float* A, float* C) {
    __shared__ float As[16 * 256 + 1];
    for (int t = threadIdx.x; t < 16 * 256; t += blockDim.x)
        As[t] = A[blockIdx.x * 16 * 256 + t];
    __syncthreads();
    int rowInWarp = (threadIdx.x % 32) / 4;
    int warpRow = (threadIdx.x / 32) / 2;
    float reg[8];
    float acc = 0.0f;
    for (int k = 0; k < 16; ++k) {
        for (int i = 0; i < 8; ++i)
            reg[i] = As[k * 256 + warpRow * 64 + rowInWarp * 8 + 1 + i];  // expect: CL201 warning
        for (int i = 0; i < 8; ++i)
            acc += reg[i] * reg[(i + 1) % 8];
    }
    C[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

void rt_launch_all(const float* A, float* C) {
    rt_warp_tile_rows<<<64, 256>>>(A, C);
    rt_warp_tile_rows_unaligned<<<64, 256>>>(A, C);
}

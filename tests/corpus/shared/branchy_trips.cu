// cudalint shared corpus: the trips of an unrolled loop merge into wide loads only when
// they share a basic block. nvcc's vectorizer joins neighbouring words within one block;
// a branch in the loop body gives each trip blocks of its own, and a load used only
// under that branch is sunk into it. A 16x16 block whose warp reads two rows of a double
// tile 128 bytes apart then issues one 8-byte load per trip, the two rows' words in the
// same banks (2-way); without the branch the trips pair into 16-byte loads.
// Format (read and written by scripts/measure_gpu.py; its docstring has the details):
//   // launch: [kernel=<name<targs>>] grid=<gx>[,<gy>[,<gz>]] block=<bx>[,<by>[,<bz>]] [bytes=<n>] [args: <param>=<value> ...]
//   // measured: <key>=<value> ... (ncu <version>, <GPU>)

// Each trip's weight is used only where the lane's column is in range: one LDS.64 per
// trip under its own branch, 2 wavefronts where 1 would do.
// launch: grid=64 block=16,16
__global__ void bt_branchy_rows(double* out, const double* in) {
    __shared__ double w[8][16];
    __shared__ double v[16][16];
    int x = threadIdx.x, y = threadIdx.y;
    if (y < 8) w[y][x] = in[blockIdx.x * 256 + y * 16 + x];
    v[y][x] = in[blockIdx.x * 256 + y * 16 + x] * 0.5;
    __syncthreads();
    double acc = 0.0;
    if (y < 8) {
        for (int k = 0; k < 16; ++k) {
            double wk = w[y][k];  // expect: CL201 warning
            if (k < 8 && x < 8) acc += wk * v[k][x];  // expect: CL301 warning, CL201 warning
        }
    }
    out[blockIdx.x * 256 + y * 16 + x] = acc;
}

// The same rows with every trip's weight used unconditionally: nvcc pairs the trips into
// 16-byte loads, and the two rows of a warp fall in different halves of the request.
// launch: grid=64 block=16,16
__global__ void bt_straight_rows(double* out, const double* in) {
    __shared__ double w[8][16];
    __shared__ double v[16][16];
    int x = threadIdx.x, y = threadIdx.y;
    if (y < 8) w[y][x] = in[blockIdx.x * 256 + y * 16 + x];
    v[y][x] = in[blockIdx.x * 256 + y * 16 + x] * 0.5;
    __syncthreads();
    double acc = 0.0;
    if (y < 8) {
        for (int k = 0; k < 16; ++k) acc += w[y][k] * v[k][x];
    }
    out[blockIdx.x * 256 + y * 16 + x] = acc;
}

void bt_launch_all(double* out, const double* in) {
    bt_branchy_rows<<<64, dim3(16, 16)>>>(out, in);
    bt_straight_rows<<<64, dim3(16, 16)>>>(out, in);
}

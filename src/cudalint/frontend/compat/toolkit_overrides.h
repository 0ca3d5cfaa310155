/* cudalint: force-included after the toolkit's headers.
 *
 * clang honours `managed` only for HIP; in CUDA it ignores the attribute, which leaves a
 * `__managed__` variable on the host and every use in a kernel an error. A managed
 * variable is a device variable the host can reach too: declare it as one (the lowering
 * tells it apart by its spelling).
 */
#pragma clang system_header
#undef __managed__
#define __managed__ __attribute__((device))

/* nvcc's host pass declares CUDA's min/max overloads (crt/math_functions.hpp) as
 * __host__ __device__; clang's CUDA wrapper includes that header with __host__ defined
 * away, so host code that calls min(a, b) would not compile. Declare the host side. */
#define __CUDALINT_MIN_MAX_SPACE __attribute__((host))
#include "min_max_overloads.h"
#undef __CUDALINT_MIN_MAX_SPACE

/* What nvcc declares and clang's CUDA headers do not: the surface-object functions, the
 * device runtime's cudaDeviceSynchronize for kernels written for CDP1, and the atomic
 * builtins with memory order and scope. */
#include "surface_functions.h"
#include "device_runtime.h"
#include "nv_atomics.h"

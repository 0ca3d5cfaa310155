/* cudalint shim: the per-thread primitives of <cuda_pipeline_primitives.h>,
   the asynchronous copy of 4, 8 or 16 bytes from global to shared memory (cp.async) and
   the calls that commit and wait for it. The C++ pipeline class is not declared. */
#ifndef __CUDALINT_SHIM_CUDA_PIPELINE_PRIMITIVES_H__
#define __CUDALINT_SHIM_CUDA_PIPELINE_PRIMITIVES_H__
#pragma clang system_header
#include "cuda_runtime.h"

#if defined(__CUDA__) && defined(__cplusplus)
__attribute__((device)) void __pipeline_memcpy_async(void* __restrict__ dst_shared,
                                                     const void* __restrict__ src_global,
                                                     size_t size_and_align, size_t zfill = 0);
__attribute__((device)) void __pipeline_commit();
__attribute__((device)) void __pipeline_wait_prior(size_t prior);
#endif

#endif

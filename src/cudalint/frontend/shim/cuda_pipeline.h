/* cudalint shim: <cuda_pipeline.h>'s per-thread primitives (cp.async of 4, 8 or 16 bytes
   from global to shared memory, commit, wait), from cuda_pipeline_primitives.h. The C++
   pipeline class is not declared. */
#include "cuda_pipeline_primitives.h"

/* cudalint shim: the cuRAND device API (see compat/curand_device_api.h). */
#pragma clang system_header
#include "cuda_runtime.h"
#include "../compat/curand_device_api.h"

/* cudalint: the cuRAND device API where the toolkit has none (see
 * compat/curand_device_api.h). */
#pragma clang system_header
#include "../compat/curand_device_api.h"

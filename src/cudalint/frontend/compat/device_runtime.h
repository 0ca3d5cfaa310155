/* cudalint: the device runtime's cudaDeviceSynchronize, for both header sets.
 *
 * Kernels written for the first dynamic-parallelism interface wait for the kernels they
 * launched with a device-side cudaDeviceSynchronize(). The toolkit declares it only for
 * targets below sm_90 with CUDA_FORCE_CDP1_IF_SUPPORTED; such code is parsed as the
 * architecture it was written for would parse it: the call waits, and touches no memory
 * the analysis follows.
 */
#pragma clang system_header
#ifndef __CUDALINT_DEVICE_RUNTIME_H
#define __CUDALINT_DEVICE_RUNTIME_H
extern __attribute__((device)) cudaError_t cudaDeviceSynchronize(void);
#endif

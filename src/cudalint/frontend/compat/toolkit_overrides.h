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

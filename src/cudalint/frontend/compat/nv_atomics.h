/* cudalint: nvcc's atomic builtins with memory order and scope (CUDA 12.8), for both
 * header sets.
 *
 * nvcc knows `__nv_atomic_load_n(p, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE)` and
 * its kin as builtins; clang 18 knows none of them, and the toolkit declares their
 * order and scope constants only for nvcc. Declared here as functions without bodies:
 * a call is a value the analysis does not follow, like any other atomic.
 */
#pragma clang system_header
#ifndef __CUDALINT_NV_ATOMICS_H
#define __CUDALINT_NV_ATOMICS_H

enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};

#define __CUDALINT_NV_D __attribute__((device))
#define __CUDALINT_NV_SCOPE int scope = __NV_THREAD_SCOPE_SYSTEM

template <class T> __CUDALINT_NV_D T __nv_atomic_load_n(const T *, int order, __CUDALINT_NV_SCOPE);
template <class T> __CUDALINT_NV_D void __nv_atomic_load(const T *, T *, int order, __CUDALINT_NV_SCOPE);
template <class T, class V> __CUDALINT_NV_D void __nv_atomic_store_n(T *, V, int order, __CUDALINT_NV_SCOPE);
template <class T> __CUDALINT_NV_D void __nv_atomic_store(T *, T *, int order, __CUDALINT_NV_SCOPE);
template <class T, class V> __CUDALINT_NV_D T __nv_atomic_exchange_n(T *, V, int order, __CUDALINT_NV_SCOPE);
template <class T> __CUDALINT_NV_D void __nv_atomic_exchange(T *, T *, T *, int order, __CUDALINT_NV_SCOPE);
template <class T, class V>
__CUDALINT_NV_D bool __nv_atomic_compare_exchange_n(T *, T *, V, bool weak, int success, int failure,
                                                    __CUDALINT_NV_SCOPE);
template <class T>
__CUDALINT_NV_D bool __nv_atomic_compare_exchange(T *, T *, T *, bool weak, int success, int failure,
                                                  __CUDALINT_NV_SCOPE);
#define __CUDALINT_NV_RMW(op)                                                                                         \
  template <class T, class V> __CUDALINT_NV_D T __nv_atomic_fetch_##op(T *, V, int order, __CUDALINT_NV_SCOPE);       \
  template <class T, class V> __CUDALINT_NV_D void __nv_atomic_##op(T *, V, int order, __CUDALINT_NV_SCOPE);
__CUDALINT_NV_RMW(add)
__CUDALINT_NV_RMW(sub)
__CUDALINT_NV_RMW(and)
__CUDALINT_NV_RMW(or)
__CUDALINT_NV_RMW(xor)
__CUDALINT_NV_RMW(min)
__CUDALINT_NV_RMW(max)
__CUDALINT_NV_D void __nv_atomic_thread_fence(int order, __CUDALINT_NV_SCOPE);
#undef __CUDALINT_NV_RMW
#undef __CUDALINT_NV_SCOPE
#undef __CUDALINT_NV_D
#endif

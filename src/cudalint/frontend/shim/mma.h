/* cudalint shim: warp matrix functions (mma.h, namespace nvcuda::wmma).
   What the analysis reads from a fragment is its layout: `num_elements`, the
   `x[]` array each thread holds, and so its size (registers per thread).  The
   element counts follow from the tile: a thread of the warp holds m*k/32
   values of matrix_a, k*n/32 of matrix_b and m*n/32 of the accumulator, except
   __half operands, which hold 16 whatever the shape; sub-byte types pack 8
   (4-bit) or 32 (1-bit) values into each 32-bit storage element. */
#ifndef __CUDALINT_SHIM_MMA_H__
#define __CUDALINT_SHIM_MMA_H__
#define __CUDA_MMA_H__
#define __CUDA_MMA_HPP__
#pragma clang system_header
#include "cuda_fp16.h"
#include "cuda_bf16.h"

namespace nvcuda {
namespace wmma {

struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;

enum layout_t { mem_row_major, mem_col_major };

namespace precision {
struct tf32;
}
namespace experimental {
namespace precision {
struct u4;
struct s4;
struct b1;
}
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
}

/* How a fragment element is stored, and how many share a storage element. */
template <typename T> struct __cudalint_storage {
  typedef T type;
  enum { per_element = 1 };
};
template <> struct __cudalint_storage<precision::tf32> {
  typedef float type;
  enum { per_element = 1 };
};
template <> struct __cudalint_storage<experimental::precision::u4> {
  typedef unsigned type;
  enum { per_element = 8 };
};
template <> struct __cudalint_storage<experimental::precision::s4> {
  typedef int type;
  enum { per_element = 8 };
};
template <> struct __cudalint_storage<experimental::precision::b1> {
  typedef unsigned type;
  enum { per_element = 32 };
};

template <typename Use, int m, int n, int k, typename T> struct __cudalint_elements;
template <int m, int n, int k, typename T> struct __cudalint_elements<matrix_a, m, n, k, T> {
  enum { value = m * k / 32 };
};
template <int m, int n, int k, typename T> struct __cudalint_elements<matrix_b, m, n, k, T> {
  enum { value = k * n / 32 };
};
template <int m, int n, int k, typename T> struct __cudalint_elements<accumulator, m, n, k, T> {
  enum { value = m * n / 32 };
};
template <int m, int n, int k> struct __cudalint_elements<matrix_a, m, n, k, __half> { enum { value = 16 }; };
template <int m, int n, int k> struct __cudalint_elements<matrix_b, m, n, k, __half> { enum { value = 16 }; };

/* The toolkit derives each fragment from a base holding `x[]`; here the members are the
   fragment's own, since libclang lists no base classes of an implicit instantiation. */
template <typename Use, int m, int n, int k, typename T, typename Layout = void> class __align__(8) fragment {
public:
  enum { num_elements = __cudalint_elements<Use, m, n, k, T>::value };
  enum { num_storage_elements = num_elements / __cudalint_storage<T>::per_element };
  typedef T element_type;
  typedef typename __cudalint_storage<T>::type storage_element_type;
  storage_element_type x[num_storage_elements];
};

template <typename Use, int m, int n, int k, typename T, typename Layout>
__CUDALINT_D void fill_fragment(fragment<Use, m, n, k, T, Layout> &, const typename __cudalint_storage<T>::type &);

template <typename Use, int m, int n, int k, typename T, typename Layout>
__CUDALINT_D void load_matrix_sync(fragment<Use, m, n, k, T, Layout> &, const void *, unsigned);
template <typename Use, int m, int n, int k, typename T>
__CUDALINT_D void load_matrix_sync(fragment<Use, m, n, k, T> &, const void *, unsigned, layout_t);
template <int m, int n, int k, typename T>
__CUDALINT_D void store_matrix_sync(void *, const fragment<accumulator, m, n, k, T> &, unsigned, layout_t);

template <int m, int n, int k, typename TA, typename TC, typename LA, typename LB>
__CUDALINT_D void mma_sync(fragment<accumulator, m, n, k, TC> &, const fragment<matrix_a, m, n, k, TA, LA> &,
                           const fragment<matrix_b, m, n, k, TA, LB> &, const fragment<accumulator, m, n, k, TC> &,
                           bool satf = false);
template <int m, int n, int k, typename TA, typename LA, typename LB>
__CUDALINT_D void bmma_sync(fragment<accumulator, m, n, k, int> &, const fragment<matrix_a, m, n, k, TA, LA> &,
                            const fragment<matrix_b, m, n, k, TA, LB> &, const fragment<accumulator, m, n, k, int> &,
                            experimental::bmmaBitOp = experimental::bmmaBitOpXOR,
                            experimental::bmmaAccumulateOp = experimental::bmmaAccumulateOpPOPC);

__CUDALINT_D float __float_to_tf32(float);

} // namespace wmma
} // namespace nvcuda

#endif

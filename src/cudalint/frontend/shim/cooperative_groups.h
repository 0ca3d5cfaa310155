/* cudalint shim: the commonly used core of cooperative_groups.h.
   Namespaces and class names (cooperative_groups::__v1, the tile base
   classes) follow CUDA 13, because implicit base-class conversions spell
   them in the AST.  Grid/cluster synchronisation internals, multi-warp tile
   scratch memory and the cooperative_groups/ sub-headers are not modelled. */
#ifndef __CUDALINT_SHIM_COOPERATIVE_GROUPS_H__
#define __CUDALINT_SHIM_COOPERATIVE_GROUPS_H__
#define _COOPERATIVE_GROUPS_H_
#pragma clang system_header
#include "cuda_runtime.h"

/* A plain namespace plus using-directive, as in CUDA: an inline namespace
   would drop "__v1" from the type names clang prints. */
namespace cooperative_groups {
namespace __v1 {

namespace details {
const unsigned int coalesced_group_id = 1;
const unsigned int multi_grid_group_id = 2;
const unsigned int grid_group_id = 3;
const unsigned int thread_block_id = 4;
const unsigned int multi_tile_group_id = 5;
const unsigned int cluster_group_id = 6;
template <class T> struct remove_qual { typedef T type; };
template <class T> struct remove_qual<T &> { typedef typename remove_qual<T>::type type; };
template <class T> struct remove_qual<T &&> { typedef typename remove_qual<T>::type type; };
template <class T> struct remove_qual<const T> { typedef typename remove_qual<T>::type type; };
template <class T> struct remove_qual<volatile T> { typedef typename remove_qual<T>::type type; };
template <class T> struct remove_qual<const volatile T> { typedef typename remove_qual<T>::type type; };
template <unsigned int Size> struct _is_multi_warp {
  static const bool value = Size > 32;
};
} // namespace details

class thread_group {
protected:
  union __attribute__((aligned(8))) {
    unsigned int __w[4];
  } _data;
  __CUDALINT_D thread_group(unsigned int);

public:
  __CUDALINT_D unsigned long long size() const;
  __CUDALINT_D unsigned long long num_threads() const;
  __CUDALINT_D unsigned long long thread_rank() const;
  __CUDALINT_D void sync() const;
  __CUDALINT_D unsigned int get_type() const;
};

template <unsigned int TyId> struct thread_group_base : public thread_group {
  __CUDALINT_D thread_group_base();
  static const unsigned int id = TyId;
};

class grid_group : public thread_group_base<details::grid_group_id> {
public:
  struct arrival_token {};
  __CUDALINT_D bool is_valid() const;
  __CUDALINT_D void sync() const;
  __CUDALINT_D arrival_token barrier_arrive() const;
  __CUDALINT_D void barrier_wait(arrival_token &&) const;
  __CUDALINT_D static unsigned long long size();
  __CUDALINT_D static dim3 group_dim();
  __CUDALINT_D static dim3 dim_threads();
  __CUDALINT_D static unsigned long long num_threads();
  __CUDALINT_D static dim3 thread_index();
  __CUDALINT_D static unsigned long long thread_rank();
  __CUDALINT_D static dim3 dim_blocks();
  __CUDALINT_D static unsigned long long num_blocks();
  __CUDALINT_D static dim3 block_index();
  __CUDALINT_D static unsigned long long block_rank();
};
__CUDALINT_D grid_group this_grid();

class thread_block : public thread_group_base<details::thread_block_id> {
public:
  struct arrival_token {};
  __CUDALINT_D static void sync();
  __CUDALINT_D arrival_token barrier_arrive() const;
  __CUDALINT_D void barrier_wait(arrival_token &&) const;
  __CUDALINT_D static unsigned int size();
  __CUDALINT_D static unsigned int thread_rank();
  __CUDALINT_D static dim3 group_index();
  __CUDALINT_D static dim3 thread_index();
  __CUDALINT_D static dim3 group_dim();
  __CUDALINT_D static dim3 dim_threads();
  __CUDALINT_D static unsigned int num_threads();
};
__CUDALINT_D thread_block this_thread_block();

class coalesced_group : public thread_group_base<details::coalesced_group_id> {
public:
  __CUDALINT_D unsigned int num_threads() const;
  __CUDALINT_D unsigned int size() const;
  __CUDALINT_D unsigned int thread_rank() const;
  __CUDALINT_D unsigned int meta_group_rank() const;
  __CUDALINT_D unsigned int meta_group_size() const;
  __CUDALINT_D void sync() const;
  template <typename TyElem, typename TyRet = typename details::remove_qual<TyElem>::type>
  __CUDALINT_D TyRet shfl(TyElem &&, int) const;
  template <typename TyElem, typename TyRet = typename details::remove_qual<TyElem>::type>
  __CUDALINT_D TyRet shfl_down(TyElem &&, unsigned int) const;
  template <typename TyElem, typename TyRet = typename details::remove_qual<TyElem>::type>
  __CUDALINT_D TyRet shfl_up(TyElem &&, int) const;
  __CUDALINT_D int any(int) const;
  __CUDALINT_D int all(int) const;
  __CUDALINT_D unsigned int ballot(int) const;
  template <typename TyIntegral>
  __CUDALINT_D unsigned int match_any(TyIntegral) const;
  template <typename TyIntegral>
  __CUDALINT_D unsigned int match_all(TyIntegral, int &) const;
};
__CUDALINT_D coalesced_group coalesced_threads();

template <unsigned int Size> class __static_size_tile_base {
public:
  __CUDALINT_D static unsigned int thread_rank();
  __CUDALINT_D static unsigned int num_threads();
  __CUDALINT_D static unsigned int size();
};

template <unsigned int Size>
class __static_size_thread_block_tile_base : public __static_size_tile_base<Size> {
public:
  __CUDALINT_D static void sync();
  template <typename TyElem, typename TyRet = typename details::remove_qual<TyElem>::type>
  __CUDALINT_D TyRet shfl(TyElem &&, int) const;
  template <typename TyElem, typename TyRet = typename details::remove_qual<TyElem>::type>
  __CUDALINT_D TyRet shfl_down(TyElem &&, unsigned int) const;
  template <typename TyElem, typename TyRet = typename details::remove_qual<TyElem>::type>
  __CUDALINT_D TyRet shfl_up(TyElem &&, unsigned int) const;
  template <typename TyElem, typename TyRet = typename details::remove_qual<TyElem>::type>
  __CUDALINT_D TyRet shfl_xor(TyElem &&, unsigned int) const;
  __CUDALINT_D int any(int) const;
  __CUDALINT_D int all(int) const;
  __CUDALINT_D unsigned int ballot(int) const;
  template <typename TyIntegral>
  __CUDALINT_D unsigned int match_any(TyIntegral) const;
  template <typename TyIntegral>
  __CUDALINT_D unsigned int match_all(TyIntegral, int &) const;
};

template <unsigned int Size, typename ParentT>
class __static_parent_thread_block_tile_base {
public:
  __CUDALINT_D static unsigned int meta_group_rank();
  __CUDALINT_D static unsigned int meta_group_size();
};

template <unsigned int Size, typename ParentT = void>
class __single_warp_thread_block_tile
    : public __static_size_thread_block_tile_base<Size>,
      public __static_parent_thread_block_tile_base<Size, ParentT> {};

template <unsigned int Size>
class __single_warp_thread_block_tile<Size, void>
    : public __static_size_thread_block_tile_base<Size>,
      public thread_group_base<details::coalesced_group_id> {
  typedef __static_size_thread_block_tile_base<Size> staticSizeBaseT;

public:
  using staticSizeBaseT::sync;
  using staticSizeBaseT::size;
  using staticSizeBaseT::num_threads;
  using staticSizeBaseT::thread_rank;
  __CUDALINT_D unsigned int meta_group_rank() const;
  __CUDALINT_D unsigned int meta_group_size() const;
};

namespace details {
/* Tiles wider than a warp share the single-warp interface here. */
template <unsigned int Size, typename ParentT, bool IsMultiWarp>
class thread_block_tile_impl
    : public __single_warp_thread_block_tile<Size, ParentT> {};
} // namespace details

template <unsigned int Size, typename ParentT = void>
class thread_block_tile
    : public details::thread_block_tile_impl<
          Size, ParentT, details::_is_multi_warp<Size>::value> {
public:
  __CUDALINT_D operator thread_block_tile<Size, void>() const;
};

template <unsigned int Size>
class thread_block_tile<Size, void>
    : public details::thread_block_tile_impl<
          Size, void, details::_is_multi_warp<Size>::value> {
public:
  template <typename ParentT>
  __CUDALINT_D thread_block_tile(const thread_block_tile<Size, ParentT> &);
};

template <class GroupT> __CUDALINT_D void sync(const GroupT &);
template <class GroupT>
__CUDALINT_D auto thread_rank(const GroupT &g) -> decltype(g.thread_rank());
template <class GroupT>
__CUDALINT_D auto group_size(const GroupT &g) -> decltype(g.num_threads());
__CUDALINT_D thread_group tiled_partition(const thread_group &, unsigned int);
__CUDALINT_D thread_group tiled_partition(const thread_block &, unsigned int);
__CUDALINT_D coalesced_group tiled_partition(const coalesced_group &, unsigned int);
template <unsigned int Size, typename ParentT>
__CUDALINT_D thread_block_tile<Size, ParentT> tiled_partition(const ParentT &);
__CUDALINT_D thread_block_tile<1, void> this_thread();
__CUDALINT_D coalesced_group binary_partition(const coalesced_group &, bool);
template <unsigned int Size, typename ParentT>
__CUDALINT_D coalesced_group binary_partition(const thread_block_tile<Size, ParentT> &, bool);
template <typename TyPredicate>
__CUDALINT_D coalesced_group labeled_partition(const coalesced_group &, TyPredicate);
template <typename TyPredicate, unsigned int Size, typename ParentT>
__CUDALINT_D coalesced_group labeled_partition(const thread_block_tile<Size, ParentT> &, TyPredicate);

} // namespace __v1
using namespace __v1;
} // namespace cooperative_groups
#endif

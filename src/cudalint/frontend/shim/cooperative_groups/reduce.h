/* cudalint shim: cooperative_groups/reduce.h, the collective reduction and its
   operators. Only the interface: the analysis models cg::reduce by name. */
#ifndef __CUDALINT_SHIM_COOPERATIVE_GROUPS_REDUCE_H__
#define __CUDALINT_SHIM_COOPERATIVE_GROUPS_REDUCE_H__
#define _CG_REDUCE_H_
#pragma clang system_header
#include "../cooperative_groups.h"

namespace cooperative_groups {
namespace __v1 {

template <class Ty> struct plus { __CUDALINT_D Ty operator()(Ty, Ty) const; };
template <class Ty> struct less { __CUDALINT_D Ty operator()(Ty, Ty) const; };
template <class Ty> struct greater { __CUDALINT_D Ty operator()(Ty, Ty) const; };
template <class Ty> struct bit_and { __CUDALINT_D Ty operator()(Ty, Ty) const; };
template <class Ty> struct bit_xor { __CUDALINT_D Ty operator()(Ty, Ty) const; };
template <class Ty> struct bit_or { __CUDALINT_D Ty operator()(Ty, Ty) const; };

template <class TyGroup, class TyVal, class TyOp>
__CUDALINT_D auto reduce(const TyGroup &, TyVal &&val, TyOp &&op) -> decltype(op(val, val));

} // namespace __v1
} // namespace cooperative_groups
#endif

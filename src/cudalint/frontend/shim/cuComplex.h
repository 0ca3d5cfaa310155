/* cudalint shim: cuComplex.h (complex numbers as float2/double2). */
#ifndef __CUDALINT_SHIM_CUCOMPLEX_H__
#define __CUDALINT_SHIM_CUCOMPLEX_H__
#define CU_COMPLEX_H_
#pragma clang system_header
#include "cuda_runtime.h"

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;
#define __CUDALINT_CPLX(T, R, s)                                               \
  __CUDALINT_HD R cuCreal##s(T);                                               \
  __CUDALINT_HD R cuCimag##s(T);                                               \
  __CUDALINT_HD T cuConj##s(T);                                                \
  __CUDALINT_HD T cuCadd##s(T, T);                                             \
  __CUDALINT_HD T cuCsub##s(T, T);                                             \
  __CUDALINT_HD T cuCmul##s(T, T);                                             \
  __CUDALINT_HD T cuCdiv##s(T, T);                                             \
  __CUDALINT_HD R cuCabs##s(T);                                                \
  __CUDALINT_HD T cuCfma##s(T, T, T);
__CUDALINT_CPLX(cuFloatComplex, float, f)
__CUDALINT_CPLX(cuDoubleComplex, double, )
__CUDALINT_HD cuFloatComplex make_cuFloatComplex(float, float);
__CUDALINT_HD cuDoubleComplex make_cuDoubleComplex(double, double);
__CUDALINT_HD cuComplex make_cuComplex(float, float);
__CUDALINT_HD cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex);
__CUDALINT_HD cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex);
#endif

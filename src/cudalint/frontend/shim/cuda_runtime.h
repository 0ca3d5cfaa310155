/*
 * cudalint embedded CUDA runtime shim.
 *
 * Stands in for the CUDA toolkit headers when no toolkit is installed.  It is
 * force-included into every translation unit and is also what a user's
 * <cuda_runtime.h> resolves to.  Only declarations are given: the analyzer
 * needs the AST, not code, and declarations keep the parse cheap.
 *
 * Every declaration mirrors what clang sees when it parses CUDA 13 through its
 * own __clang_cuda_runtime_wrapper.h, so that overload resolution, implicit
 * conversions and therefore expression types come out identical.  Where the
 * two would differ, the comment says why.
 */
#ifndef __CUDALINT_SHIM_CUDA_RUNTIME_H__
#define __CUDALINT_SHIM_CUDA_RUNTIME_H__

/* Silences warnings inside the shim, as for the toolkit's system headers,
   whatever path the shim was reached by (-include is not a system path). */
#pragma clang system_header

/* Like clang's own wrapper, inert outside CUDA C++ so that a shared argument
   list cannot break the parse of plain C or C++ files. */
#if defined(__CUDA__) && defined(__cplusplus)

/* ---------------------------------------------------------------------------
 * Version and feature macros user code tests for.
 * ------------------------------------------------------------------------- */
#define CUDA_VERSION 13000
#define CUDART_VERSION 13000
#define __CUDART_API_VERSION 13000
#define __CUDACC__
/* Guards of the real headers: code probing them must see the runtime as
   included, and they stop a stray toolkit header from redefining things. */
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __cuda_cuda_h__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __HOST_DEFINES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __DEVICE_FUNCTIONS_H__
#define __MATH_FUNCTIONS_H__
#define __DEVICE_ATOMIC_FUNCTIONS_H__

/* ---------------------------------------------------------------------------
 * Execution-space and storage qualifiers, spelled as crt/host_defines.h
 * spells them for GNU-compatible compilers.
 * ------------------------------------------------------------------------- */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* clang honours `managed` only for HIP: a managed variable is declared as the device
   variable it is (the lowering tells it apart by its spelling). */
#define __managed__ __attribute__((device))
/* clang 18 does not know grid_constant: same warning as with the toolkit. */
#define __grid_constant__ __attribute__((grid_constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
/* clang 18 has no maxnreg attribute; the toolkit's spelling would only add an
   "unknown attribute" warning, so the tokens are accepted and dropped. */
#define __maxnreg__(n)
#define __local_maxnreg__(n)
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __align__(n)
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __inline_hint__
#define __no_return__ __attribute__((noreturn))
#define __thread__ __thread
#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
#define __nv_pure__
#define CUDARTAPI
#define CUDARTAPI_CDECL
#define CUDART_CB
#define CUDAAPI
/* __noinline__ and __restrict__ are keywords in clang's CUDA mode. */

/* Internal spellings, so that a user #undef of __device__ cannot break us. */
#define __CUDALINT_D __attribute__((device))
#define __CUDALINT_H __attribute__((host))
#define __CUDALINT_HD __attribute__((host)) __attribute__((device))

/* ---------------------------------------------------------------------------
 * Device math, declared before any C/C++ library header.
 *
 * libstdc++ defines many std:: math overloads constexpr, and clang makes a
 * constexpr function implicitly __host__ __device__ unless a __device__
 * function of the same signature is already visible.  An HD function could
 * not be overloaded by these __device__ ones, so they (and their std::
 * using-declarations) must come first -- the same ordering clang's wrapper
 * uses.
 * ------------------------------------------------------------------------- */

/* double f(double), float ff(float) and the C++ float overload f(float). */
#define __CUDALINT_M1(n)                                                       \
  __CUDALINT_D double n(double);                                               \
  __CUDALINT_D float n##f(float);                                              \
  __CUDALINT_D float n(float);
#define __CUDALINT_M2(n)                                                       \
  __CUDALINT_D double n(double, double);                                       \
  __CUDALINT_D float n##f(float, float);                                       \
  __CUDALINT_D float n(float, float);

__CUDALINT_M1(acos) __CUDALINT_M1(acosh) __CUDALINT_M1(asin)
__CUDALINT_M1(asinh) __CUDALINT_M1(atan) __CUDALINT_M1(atanh)
__CUDALINT_M1(cbrt) __CUDALINT_M1(ceil) __CUDALINT_M1(cos)
__CUDALINT_M1(cosh) __CUDALINT_M1(erf) __CUDALINT_M1(erfc)
__CUDALINT_M1(exp) __CUDALINT_M1(exp2) __CUDALINT_M1(expm1)
__CUDALINT_M1(fabs) __CUDALINT_M1(floor) __CUDALINT_M1(lgamma)
__CUDALINT_M1(log) __CUDALINT_M1(log10) __CUDALINT_M1(log1p)
__CUDALINT_M1(log2) __CUDALINT_M1(logb) __CUDALINT_M1(nearbyint)
__CUDALINT_M1(rint) __CUDALINT_M1(round) __CUDALINT_M1(sin)
__CUDALINT_M1(sinh) __CUDALINT_M1(sqrt) __CUDALINT_M1(tan)
__CUDALINT_M1(tanh) __CUDALINT_M1(tgamma) __CUDALINT_M1(trunc)
/* CUDA extensions; like the toolkit, no integer overloads for these. */
__CUDALINT_M1(rsqrt) __CUDALINT_M1(rcbrt) __CUDALINT_M1(sinpi)
__CUDALINT_M1(cospi) __CUDALINT_M1(erfinv) __CUDALINT_M1(erfcinv)
__CUDALINT_M1(normcdf) __CUDALINT_M1(normcdfinv) __CUDALINT_M1(erfcx)
__CUDALINT_M1(exp10) __CUDALINT_M1(j0) __CUDALINT_M1(j1)
__CUDALINT_M1(y0) __CUDALINT_M1(y1) __CUDALINT_M1(cyl_bessel_i0)
__CUDALINT_M1(cyl_bessel_i1)

__CUDALINT_M2(atan2) __CUDALINT_M2(copysign) __CUDALINT_M2(fdim)
__CUDALINT_M2(fmax) __CUDALINT_M2(fmin) __CUDALINT_M2(fmod)
__CUDALINT_M2(hypot) __CUDALINT_M2(nextafter) __CUDALINT_M2(pow)
__CUDALINT_M2(remainder)

__CUDALINT_D double copysign(double, float);
__CUDALINT_D double copysign(float, double);
__CUDALINT_D float pow(float, int);
__CUDALINT_D double pow(double, int);
__CUDALINT_D double fma(double, double, double);
__CUDALINT_D float fmaf(float, float, float);
__CUDALINT_D float fma(float, float, float);
__CUDALINT_D double frexp(double, int *);
__CUDALINT_D float frexpf(float, int *);
__CUDALINT_D float frexp(float, int *);
__CUDALINT_D double ldexp(double, int);
__CUDALINT_D float ldexpf(float, int);
__CUDALINT_D float ldexp(float, int);
__CUDALINT_D double modf(double, double *);
__CUDALINT_D float modff(float, float *);
__CUDALINT_D float modf(float, float *);
__CUDALINT_D double remquo(double, double, int *);
__CUDALINT_D float remquof(float, float, int *);
__CUDALINT_D float remquo(float, float, int *);
__CUDALINT_D double scalbn(double, int);
__CUDALINT_D float scalbnf(float, int);
__CUDALINT_D float scalbn(float, int);
__CUDALINT_D double scalbln(double, long);
__CUDALINT_D float scalblnf(float, long);
__CUDALINT_D float scalbln(float, long);
__CUDALINT_D int ilogb(double);
__CUDALINT_D int ilogbf(float);
__CUDALINT_D int ilogb(float);
__CUDALINT_D long lrint(double);
__CUDALINT_D long lrintf(float);
__CUDALINT_D long lrint(float);
__CUDALINT_D long lround(double);
__CUDALINT_D long lroundf(float);
__CUDALINT_D long lround(float);
__CUDALINT_D long long llrint(double);
__CUDALINT_D long long llrintf(float);
__CUDALINT_D long long llrint(float);
__CUDALINT_D long long llround(double);
__CUDALINT_D long long llroundf(float);
__CUDALINT_D long long llround(float);
__CUDALINT_D double nan(const char *);
__CUDALINT_D float nanf(const char *);
__CUDALINT_D double jn(int, double);
__CUDALINT_D float jnf(int, float);
__CUDALINT_D float jn(int, float);
__CUDALINT_D double yn(int, double);
__CUDALINT_D float ynf(int, float);
__CUDALINT_D float yn(int, float);
__CUDALINT_D void sincos(double, double *, double *);
__CUDALINT_D void sincosf(float, float *, float *);
__CUDALINT_D void sincos(float, float *, float *);
__CUDALINT_D void sincospi(double, double *, double *);
__CUDALINT_D void sincospif(float, float *, float *);
__CUDALINT_D void sincospi(float, float *, float *);
__CUDALINT_D double fdivide(double, double);
__CUDALINT_D float fdividef(float, float);
__CUDALINT_D double powi(double, int);
__CUDALINT_D float powif(float, int);
__CUDALINT_D double rhypot(double, double);
__CUDALINT_D float rhypotf(float, float);
__CUDALINT_D double norm3d(double, double, double);
__CUDALINT_D float norm3df(float, float, float);
__CUDALINT_D double rnorm3d(double, double, double);
__CUDALINT_D float rnorm3df(float, float, float);
__CUDALINT_D double norm4d(double, double, double, double);
__CUDALINT_D float norm4df(float, float, float, float);
__CUDALINT_D double rnorm4d(double, double, double, double);
__CUDALINT_D float rnorm4df(float, float, float, float);
__CUDALINT_D double norm(int, const double *);
__CUDALINT_D float normf(int, const float *);
__CUDALINT_D double rnorm(int, const double *);
__CUDALINT_D float rnormf(int, const float *);

__CUDALINT_D int fpclassify(double);
__CUDALINT_D int fpclassify(float);
#define __CUDALINT_P1(f)                                                       \
  __CUDALINT_D bool f(double);                                                 \
  __CUDALINT_D bool f(float);
#define __CUDALINT_P2(f)                                                       \
  __CUDALINT_D bool f(double, double);                                         \
  __CUDALINT_D bool f(float, float);
__CUDALINT_P1(isfinite) __CUDALINT_P1(isinf) __CUDALINT_P1(isnan)
__CUDALINT_P1(isnormal) __CUDALINT_P1(signbit)
__CUDALINT_P2(isgreater) __CUDALINT_P2(isgreaterequal) __CUDALINT_P2(isless)
__CUDALINT_P2(islessequal) __CUDALINT_P2(islessgreater)
__CUDALINT_P2(isunordered)

__CUDALINT_D int abs(int);
__CUDALINT_D long abs(long);
__CUDALINT_D long long abs(long long);
__CUDALINT_D float abs(float);
__CUDALINT_D double abs(double);
__CUDALINT_D long labs(long);
__CUDALINT_D long long llabs(long long);

/* Integer arguments: for a call such as sqrt(int) neither the float nor the
   double overload is better, so CUDA adds templates taking any integer (or,
   for two-argument functions, any arithmetic mix) and computing in double.
   pow(float, double) picks the template too and yields double. */
template <class _Tp> struct __cudalint_arith {};
template <class _Tp> struct __cudalint_int {};
#define __CUDALINT_ARITH(T)                                                    \
  template <> struct __cudalint_arith<T> {                                     \
    template <class _Rp> using __r = _Rp;                                      \
  };
#define __CUDALINT_INTEGER(T)                                                  \
  __CUDALINT_ARITH(T)                                                          \
  template <> struct __cudalint_int<T> {                                       \
    template <class _Rp> using __r = _Rp;                                      \
  };
__CUDALINT_INTEGER(bool) __CUDALINT_INTEGER(char)
__CUDALINT_INTEGER(signed char) __CUDALINT_INTEGER(unsigned char)
__CUDALINT_INTEGER(wchar_t) __CUDALINT_INTEGER(char16_t)
__CUDALINT_INTEGER(char32_t) __CUDALINT_INTEGER(short)
__CUDALINT_INTEGER(unsigned short) __CUDALINT_INTEGER(int)
__CUDALINT_INTEGER(unsigned int) __CUDALINT_INTEGER(long)
__CUDALINT_INTEGER(unsigned long) __CUDALINT_INTEGER(long long)
__CUDALINT_INTEGER(unsigned long long)
#if defined(__cpp_char8_t)
__CUDALINT_INTEGER(char8_t)
#endif
__CUDALINT_ARITH(float) __CUDALINT_ARITH(double) __CUDALINT_ARITH(long double)

#define __CUDALINT_I1(R, f)                                                    \
  template <class _Tp>                                                         \
  __CUDALINT_D typename __cudalint_int<_Tp>::template __r<R> f(_Tp);
#define __CUDALINT_I2(R, f)                                                    \
  template <class _Tp, class _Up>                                              \
  __CUDALINT_D typename __cudalint_arith<_Tp>::template __r<                   \
      typename __cudalint_arith<_Up>::template __r<R>>                         \
  f(_Tp, _Up);
__CUDALINT_I1(double, acos) __CUDALINT_I1(double, acosh)
__CUDALINT_I1(double, asin) __CUDALINT_I1(double, asinh)
__CUDALINT_I1(double, atan) __CUDALINT_I2(double, atan2)
__CUDALINT_I1(double, atanh) __CUDALINT_I1(double, cbrt)
__CUDALINT_I1(double, ceil) __CUDALINT_I2(double, copysign)
__CUDALINT_I1(double, cos) __CUDALINT_I1(double, cosh)
__CUDALINT_I1(double, erf) __CUDALINT_I1(double, erfc)
__CUDALINT_I1(double, exp) __CUDALINT_I1(double, exp2)
__CUDALINT_I1(double, expm1) __CUDALINT_I1(double, fabs)
__CUDALINT_I2(double, fdim) __CUDALINT_I1(double, floor)
__CUDALINT_I2(double, fmax) __CUDALINT_I2(double, fmin)
__CUDALINT_I2(double, fmod) __CUDALINT_I1(int, fpclassify)
__CUDALINT_I2(double, hypot) __CUDALINT_I1(int, ilogb)
__CUDALINT_I1(bool, isfinite) __CUDALINT_I2(bool, isgreater)
__CUDALINT_I2(bool, isgreaterequal) __CUDALINT_I1(bool, isinf)
__CUDALINT_I2(bool, isless) __CUDALINT_I2(bool, islessequal)
__CUDALINT_I2(bool, islessgreater) __CUDALINT_I1(bool, isnan)
__CUDALINT_I1(bool, isnormal) __CUDALINT_I2(bool, isunordered)
__CUDALINT_I1(double, lgamma) __CUDALINT_I1(double, log)
__CUDALINT_I1(double, log10) __CUDALINT_I1(double, log1p)
__CUDALINT_I1(double, log2) __CUDALINT_I1(double, logb)
__CUDALINT_I1(long long, llrint) __CUDALINT_I1(long long, llround)
__CUDALINT_I1(long, lrint) __CUDALINT_I1(long, lround)
__CUDALINT_I1(double, nearbyint) __CUDALINT_I2(double, nextafter)
__CUDALINT_I2(double, pow) __CUDALINT_I2(double, remainder)
__CUDALINT_I1(double, rint) __CUDALINT_I1(double, round)
__CUDALINT_I1(bool, signbit) __CUDALINT_I1(double, sin)
__CUDALINT_I1(double, sinh) __CUDALINT_I1(double, sqrt)
__CUDALINT_I1(double, tan) __CUDALINT_I1(double, tanh)
__CUDALINT_I1(double, tgamma) __CUDALINT_I1(double, trunc)
template <class _Tp, class _Up, class _Vp>
__CUDALINT_D typename __cudalint_arith<_Tp>::template __r<
    typename __cudalint_arith<_Up>::template __r<
        typename __cudalint_arith<_Vp>::template __r<double>>>
fma(_Tp, _Up, _Vp);
template <class _Tp>
__CUDALINT_D typename __cudalint_int<_Tp>::template __r<double> frexp(_Tp,
                                                                      int *);
template <class _Tp>
__CUDALINT_D typename __cudalint_int<_Tp>::template __r<double> ldexp(_Tp, int);
template <class _Tp, class _Up>
__CUDALINT_D typename __cudalint_arith<_Tp>::template __r<
    typename __cudalint_arith<_Up>::template __r<double>>
remquo(_Tp, _Up, int *);
template <class _Tp>
__CUDALINT_D typename __cudalint_int<_Tp>::template __r<double> scalbln(_Tp,
                                                                        long);
template <class _Tp>
__CUDALINT_D typename __cudalint_int<_Tp>::template __r<double> scalbn(_Tp,
                                                                       int);

/* min/max: CUDA's global overloads, host and device (as nvcc's host pass sees them). */
#define __CUDALINT_MIN_MAX_SPACE __CUDALINT_HD
#include "../compat/min_max_overloads.h"
#undef __CUDALINT_MIN_MAX_SPACE

/* ---------------------------------------------------------------------------
 * Host math.  Host code sees only the C library's functions in the global
 * namespace (so host sqrt(float) yields double), and the device overloads
 * above are not viable there.  Declarations match glibc's exactly so the
 * C library headers may follow without conflict.
 * ------------------------------------------------------------------------- */
extern "C" {
#define __CUDALINT_C1(n)                                                       \
  double n(double) noexcept(true);                                             \
  float n##f(float) noexcept(true);
#define __CUDALINT_C2(n)                                                       \
  double n(double, double) noexcept(true);                                     \
  float n##f(float, float) noexcept(true);
__CUDALINT_C1(acos) __CUDALINT_C1(acosh) __CUDALINT_C1(asin)
__CUDALINT_C1(asinh) __CUDALINT_C1(atan) __CUDALINT_C1(atanh)
__CUDALINT_C1(cbrt) __CUDALINT_C1(ceil) __CUDALINT_C1(cos)
__CUDALINT_C1(cosh) __CUDALINT_C1(erf) __CUDALINT_C1(erfc)
__CUDALINT_C1(exp) __CUDALINT_C1(exp2) __CUDALINT_C1(expm1)
__CUDALINT_C1(fabs) __CUDALINT_C1(floor) __CUDALINT_C1(lgamma)
__CUDALINT_C1(log) __CUDALINT_C1(log10) __CUDALINT_C1(log1p)
__CUDALINT_C1(log2) __CUDALINT_C1(logb) __CUDALINT_C1(nearbyint)
__CUDALINT_C1(rint) __CUDALINT_C1(round) __CUDALINT_C1(sin)
__CUDALINT_C1(sinh) __CUDALINT_C1(sqrt) __CUDALINT_C1(tan)
__CUDALINT_C1(tanh) __CUDALINT_C1(tgamma) __CUDALINT_C1(trunc)
__CUDALINT_C1(exp10) __CUDALINT_C1(j0) __CUDALINT_C1(j1)
__CUDALINT_C1(y0) __CUDALINT_C1(y1)
__CUDALINT_C2(atan2) __CUDALINT_C2(copysign) __CUDALINT_C2(fdim)
__CUDALINT_C2(fmax) __CUDALINT_C2(fmin) __CUDALINT_C2(fmod)
__CUDALINT_C2(hypot) __CUDALINT_C2(nextafter) __CUDALINT_C2(pow)
__CUDALINT_C2(remainder)
double fma(double, double, double) noexcept(true);
float fmaf(float, float, float) noexcept(true);
double frexp(double, int *) noexcept(true);
float frexpf(float, int *) noexcept(true);
double ldexp(double, int) noexcept(true);
float ldexpf(float, int) noexcept(true);
double modf(double, double *) noexcept(true);
float modff(float, float *) noexcept(true);
double remquo(double, double, int *) noexcept(true);
float remquof(float, float, int *) noexcept(true);
double scalbn(double, int) noexcept(true);
float scalbnf(float, int) noexcept(true);
double scalbln(double, long) noexcept(true);
float scalblnf(float, long) noexcept(true);
int ilogb(double) noexcept(true);
int ilogbf(float) noexcept(true);
long lrint(double) noexcept(true);
long lrintf(float) noexcept(true);
long lround(double) noexcept(true);
long lroundf(float) noexcept(true);
long long llrint(double) noexcept(true);
long long llrintf(float) noexcept(true);
long long llround(double) noexcept(true);
long long llroundf(float) noexcept(true);
double nan(const char *) noexcept(true);
float nanf(const char *) noexcept(true);
double jn(int, double) noexcept(true);
float jnf(int, float) noexcept(true);
double yn(int, double) noexcept(true);
float ynf(int, float) noexcept(true);
void sincos(double, double *, double *) noexcept(true);
void sincosf(float, float *, float *) noexcept(true);
}
/* The CUDA-only functions also exist on the host, without noexcept. */
#define __CUDALINT_X1(n)                                                       \
  __CUDALINT_H double n(double);                                               \
  __CUDALINT_H float n##f(float);
__CUDALINT_X1(rsqrt) __CUDALINT_X1(rcbrt) __CUDALINT_X1(sinpi)
__CUDALINT_X1(cospi) __CUDALINT_X1(erfinv) __CUDALINT_X1(erfcinv)
__CUDALINT_X1(normcdf) __CUDALINT_X1(normcdfinv) __CUDALINT_X1(erfcx)
__CUDALINT_H void sincospi(double, double *, double *);
__CUDALINT_H void sincospif(float, float *, float *);
__CUDALINT_H float rsqrt(float);
__CUDALINT_H float rcbrt(float);
__CUDALINT_H float sinpi(float);
__CUDALINT_H float cospi(float);
__CUDALINT_H void sincospi(float, float *, float *);
__CUDALINT_H float erfcinv(float);
__CUDALINT_H float normcdfinv(float);
__CUDALINT_H float normcdf(float);
__CUDALINT_H float erfcx(float);

/* std:: sees the same overload sets.  The float overloads std:: has on the
   host (std::sqrt(float) is float) come from <cmath>; until the user includes
   it, same-typed floating templates stand in and lose to the real ones once
   they exist. */
#define __CUDALINT_U(n) using ::n;
#define __CUDALINT_UF(n) using ::n; using ::n##f;
namespace std {
__CUDALINT_U(abs) __CUDALINT_U(labs) __CUDALINT_U(llabs)
__CUDALINT_UF(acos) __CUDALINT_UF(acosh) __CUDALINT_UF(asin)
__CUDALINT_UF(asinh) __CUDALINT_UF(atan) __CUDALINT_UF(atan2)
__CUDALINT_UF(atanh) __CUDALINT_UF(cbrt) __CUDALINT_UF(ceil)
__CUDALINT_UF(copysign) __CUDALINT_UF(cos) __CUDALINT_UF(cosh)
__CUDALINT_UF(erf) __CUDALINT_UF(erfc) __CUDALINT_UF(exp)
__CUDALINT_UF(exp2) __CUDALINT_UF(expm1) __CUDALINT_UF(fabs)
__CUDALINT_UF(fdim) __CUDALINT_UF(floor) __CUDALINT_UF(fma)
__CUDALINT_UF(fmax) __CUDALINT_UF(fmin) __CUDALINT_UF(fmod)
__CUDALINT_UF(frexp) __CUDALINT_UF(hypot) __CUDALINT_UF(ilogb)
__CUDALINT_UF(ldexp) __CUDALINT_UF(lgamma) __CUDALINT_UF(llrint)
__CUDALINT_UF(llround) __CUDALINT_UF(log) __CUDALINT_UF(log10)
__CUDALINT_UF(log1p) __CUDALINT_UF(log2) __CUDALINT_UF(logb)
__CUDALINT_UF(lrint) __CUDALINT_UF(lround) __CUDALINT_UF(modf)
__CUDALINT_UF(nan) __CUDALINT_UF(nearbyint) __CUDALINT_UF(nextafter)
__CUDALINT_UF(pow) __CUDALINT_UF(remainder) __CUDALINT_UF(remquo)
__CUDALINT_UF(rint) __CUDALINT_UF(round) __CUDALINT_UF(scalbln)
__CUDALINT_UF(scalbn) __CUDALINT_UF(sin) __CUDALINT_UF(sinh)
__CUDALINT_UF(sqrt) __CUDALINT_UF(tan) __CUDALINT_UF(tanh)
__CUDALINT_UF(tgamma) __CUDALINT_UF(trunc)
__CUDALINT_U(fpclassify) __CUDALINT_U(isfinite) __CUDALINT_U(isgreater)
__CUDALINT_U(isgreaterequal) __CUDALINT_U(isinf) __CUDALINT_U(isless)
__CUDALINT_U(islessequal) __CUDALINT_U(islessgreater) __CUDALINT_U(isnan)
__CUDALINT_U(isnormal) __CUDALINT_U(isunordered) __CUDALINT_U(signbit)

template <class _Tp> struct __cudalint_flt {};
template <> struct __cudalint_flt<float> { typedef float __t; typedef bool __b; };
template <> struct __cudalint_flt<double> { typedef double __t; typedef bool __b; };
template <> struct __cudalint_flt<long double> {
  typedef long double __t;
  typedef bool __b;
};
#define __CUDALINT_SF1(f)                                                      \
  template <class _Tp> typename __cudalint_flt<_Tp>::__t f(_Tp);
#define __CUDALINT_SF2(f)                                                      \
  template <class _Tp> typename __cudalint_flt<_Tp>::__t f(_Tp, _Tp);
#define __CUDALINT_SFB(f)                                                      \
  template <class _Tp> typename __cudalint_flt<_Tp>::__b f(_Tp);
__CUDALINT_SF1(abs) __CUDALINT_SF1(acos) __CUDALINT_SF1(acosh)
__CUDALINT_SF1(asin) __CUDALINT_SF1(asinh) __CUDALINT_SF1(atan)
__CUDALINT_SF1(atanh) __CUDALINT_SF1(cbrt) __CUDALINT_SF1(ceil)
__CUDALINT_SF1(cos) __CUDALINT_SF1(cosh) __CUDALINT_SF1(erf)
__CUDALINT_SF1(erfc) __CUDALINT_SF1(exp) __CUDALINT_SF1(exp2)
__CUDALINT_SF1(expm1) __CUDALINT_SF1(fabs) __CUDALINT_SF1(floor)
__CUDALINT_SF1(lgamma) __CUDALINT_SF1(log) __CUDALINT_SF1(log10)
__CUDALINT_SF1(log1p) __CUDALINT_SF1(log2) __CUDALINT_SF1(logb)
__CUDALINT_SF1(nearbyint) __CUDALINT_SF1(rint) __CUDALINT_SF1(round)
__CUDALINT_SF1(sin) __CUDALINT_SF1(sinh) __CUDALINT_SF1(sqrt)
__CUDALINT_SF1(tan) __CUDALINT_SF1(tanh) __CUDALINT_SF1(tgamma)
__CUDALINT_SF1(trunc)
__CUDALINT_SF2(atan2) __CUDALINT_SF2(copysign) __CUDALINT_SF2(fdim)
__CUDALINT_SF2(fmax) __CUDALINT_SF2(fmin) __CUDALINT_SF2(fmod)
__CUDALINT_SF2(hypot) __CUDALINT_SF2(nextafter) __CUDALINT_SF2(pow)
__CUDALINT_SF2(remainder)
__CUDALINT_SFB(isfinite) __CUDALINT_SFB(isinf) __CUDALINT_SFB(isnan)
__CUDALINT_SFB(isnormal) __CUDALINT_SFB(signbit)
} // namespace std

/* ---------------------------------------------------------------------------
 * The C library the toolkit drags in (cuda_runtime.h makes malloc, exit,
 * memcpy, ... visible to host code without further includes).
 * ------------------------------------------------------------------------- */
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stddef.h>
#include <limits.h>
#include <float.h>

/* std::min/std::max are reachable through <cmath> in the toolkit.  These are
   declarations of libstdc++'s own templates, so <algorithm> may follow. */
#if defined(__GLIBCXX__)
namespace std {
#if __cplusplus >= 201402L
#define __CUDALINT_CX14 constexpr
#else
#define __CUDALINT_CX14 inline
#endif
template <typename _Tp>
__CUDALINT_CX14 const _Tp &min(const _Tp &, const _Tp &);
template <typename _Tp>
__CUDALINT_CX14 const _Tp &max(const _Tp &, const _Tp &);
template <typename _Tp, typename _Compare>
__CUDALINT_CX14 const _Tp &min(const _Tp &, const _Tp &, _Compare);
template <typename _Tp, typename _Compare>
__CUDALINT_CX14 const _Tp &max(const _Tp &, const _Tp &, _Compare);
} // namespace std
#endif

/* <math.h> macros, token for token as glibc defines them so that a later
   <cmath> redefines them silently.  (FP_NAN and friends are omitted: glibc
   also declares them as enumerators, which a macro would break.) */
#define HUGE_VAL (__builtin_huge_val ())
#define HUGE_VALF (__builtin_huge_valf ())
#define HUGE_VALL (__builtin_huge_vall ())
#define INFINITY (__builtin_inff ())
#define NAN (__builtin_nanf (""))
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440

/* ---------------------------------------------------------------------------
 * Built-in variables: clang's own header gives threadIdx.x etc. the exact
 * shape they have in toolkit mode (a property access on a builtin struct).
 * ------------------------------------------------------------------------- */
#include <__clang_cuda_builtin_vars.h>

/* ---------------------------------------------------------------------------
 * Vector types.  Sizes and alignments follow vector_types.h.
 * ------------------------------------------------------------------------- */
#define __CUDALINT_V1(N, T, A) struct __attribute__((aligned(A))) N { T x; };
#define __CUDALINT_V2(N, T, A) struct __attribute__((aligned(A))) N { T x, y; };
#define __CUDALINT_V3(N, T) struct N { T x, y, z; };
#define __CUDALINT_V4(N, T, A)                                                 \
  struct __attribute__((aligned(A))) N { T x, y, z, w; };
#define __CUDALINT_DEP(n) __attribute__((deprecated("use " #n "_16a or " #n "_32a")))
__CUDALINT_V1(char1, signed char, 1) __CUDALINT_V1(uchar1, unsigned char, 1)
__CUDALINT_V2(char2, signed char, 2) __CUDALINT_V2(uchar2, unsigned char, 2)
__CUDALINT_V3(char3, signed char) __CUDALINT_V3(uchar3, unsigned char)
__CUDALINT_V4(char4, signed char, 4) __CUDALINT_V4(uchar4, unsigned char, 4)
__CUDALINT_V1(short1, short, 2) __CUDALINT_V1(ushort1, unsigned short, 2)
__CUDALINT_V2(short2, short, 4) __CUDALINT_V2(ushort2, unsigned short, 4)
__CUDALINT_V3(short3, short) __CUDALINT_V3(ushort3, unsigned short)
__CUDALINT_V4(short4, short, 8) __CUDALINT_V4(ushort4, unsigned short, 8)
__CUDALINT_V1(int1, int, 4) __CUDALINT_V1(uint1, unsigned int, 4)
__CUDALINT_V2(int2, int, 8) __CUDALINT_V2(uint2, unsigned int, 8)
__CUDALINT_V3(int3, int) __CUDALINT_V3(uint3, unsigned int)
__CUDALINT_V4(int4, int, 16) __CUDALINT_V4(uint4, unsigned int, 16)
__CUDALINT_V1(long1, long, 8) __CUDALINT_V1(ulong1, unsigned long, 8)
__CUDALINT_V2(long2, long, 16) __CUDALINT_V2(ulong2, unsigned long, 16)
__CUDALINT_V3(long3, long) __CUDALINT_V3(ulong3, unsigned long)
struct __CUDALINT_DEP(long4) __attribute__((aligned(16))) long4 { long x, y, z, w; };
struct __CUDALINT_DEP(ulong4) __attribute__((aligned(16))) ulong4 { unsigned long x, y, z, w; };
__CUDALINT_V4(long4_16a, long, 16) __CUDALINT_V4(ulong4_16a, unsigned long, 16)
__CUDALINT_V4(long4_32a, long, 32) __CUDALINT_V4(ulong4_32a, unsigned long, 32)
__CUDALINT_V1(float1, float, 4) __CUDALINT_V2(float2, float, 8)
__CUDALINT_V3(float3, float) __CUDALINT_V4(float4, float, 16)
__CUDALINT_V1(longlong1, long long, 8)
__CUDALINT_V1(ulonglong1, unsigned long long, 8)
__CUDALINT_V2(longlong2, long long, 16)
__CUDALINT_V2(ulonglong2, unsigned long long, 16)
__CUDALINT_V3(longlong3, long long) __CUDALINT_V3(ulonglong3, unsigned long long)
struct __CUDALINT_DEP(longlong4) __attribute__((aligned(16))) longlong4 { long long x, y, z, w; };
struct __CUDALINT_DEP(ulonglong4) __attribute__((aligned(16))) ulonglong4 { unsigned long long x, y, z, w; };
__CUDALINT_V4(longlong4_16a, long long, 16)
__CUDALINT_V4(ulonglong4_16a, unsigned long long, 16)
__CUDALINT_V4(longlong4_32a, long long, 32)
__CUDALINT_V4(ulonglong4_32a, unsigned long long, 32)
__CUDALINT_V1(double1, double, 8) __CUDALINT_V2(double2, double, 16)
__CUDALINT_V3(double3, double)
struct __CUDALINT_DEP(double4) __attribute__((aligned(16))) double4 { double x, y, z, w; };
__CUDALINT_V4(double4_16a, double, 16) __CUDALINT_V4(double4_32a, double, 32)

struct dim3 {
  unsigned int x, y, z;
  __CUDALINT_HD constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                               unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __CUDALINT_HD constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __CUDALINT_HD constexpr operator uint3(void) const { return uint3{x, y, z}; }
};

#define __CUDALINT_MK1(N, T) __CUDALINT_HD N make_##N(T);
#define __CUDALINT_MK2(N, T) __CUDALINT_HD N make_##N(T, T);
#define __CUDALINT_MK3(N, T) __CUDALINT_HD N make_##N(T, T, T);
#define __CUDALINT_MK4(N, T) __CUDALINT_HD N make_##N(T, T, T, T);
#define __CUDALINT_MK(N, T)                                                    \
  __CUDALINT_MK1(N##1, T) __CUDALINT_MK2(N##2, T) __CUDALINT_MK3(N##3, T)      \
  __CUDALINT_MK4(N##4, T)
__CUDALINT_MK(char, signed char) __CUDALINT_MK(uchar, unsigned char)
__CUDALINT_MK(short, short) __CUDALINT_MK(ushort, unsigned short)
__CUDALINT_MK(int, int) __CUDALINT_MK(uint, unsigned int)
__CUDALINT_MK(long, long) __CUDALINT_MK(ulong, unsigned long)
__CUDALINT_MK(longlong, long long)
__CUDALINT_MK(ulonglong, unsigned long long)
__CUDALINT_MK(float, float) __CUDALINT_MK(double, double)
__CUDALINT_MK4(long4_16a, long) __CUDALINT_MK4(long4_32a, long)
__CUDALINT_MK4(ulong4_16a, unsigned long) __CUDALINT_MK4(ulong4_32a, unsigned long)
__CUDALINT_MK4(longlong4_16a, long long) __CUDALINT_MK4(longlong4_32a, long long)
__CUDALINT_MK4(ulonglong4_16a, unsigned long long)
__CUDALINT_MK4(ulonglong4_32a, unsigned long long)
__CUDALINT_MK4(double4_16a, double) __CUDALINT_MK4(double4_32a, double)

/* ---------------------------------------------------------------------------
 * Runtime API types (driver_types.h, library_types.h).
 * ------------------------------------------------------------------------- */
enum cudaError {
  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3, cudaErrorCudartUnloading = 4,
  cudaErrorProfilerDisabled = 5, cudaErrorProfilerNotInitialized = 6,
  cudaErrorProfilerAlreadyStarted = 7, cudaErrorProfilerAlreadyStopped = 8,
  cudaErrorInvalidConfiguration = 9, cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13, cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17, cudaErrorInvalidTexture = 18,
  cudaErrorInvalidTextureBinding = 19, cudaErrorInvalidChannelDescriptor = 20,
  cudaErrorInvalidMemcpyDirection = 21, cudaErrorAddressOfConstant = 22,
  cudaErrorTextureFetchFailed = 23, cudaErrorTextureNotBound = 24,
  cudaErrorSynchronizationError = 25, cudaErrorInvalidFilterSetting = 26,
  cudaErrorInvalidNormSetting = 27, cudaErrorMixedDeviceExecution = 28,
  cudaErrorNotYetImplemented = 31, cudaErrorMemoryValueTooLarge = 32,
  cudaErrorStubLibrary = 34, cudaErrorInsufficientDriver = 35,
  cudaErrorCallRequiresNewerDriver = 36, cudaErrorInvalidSurface = 37,
  cudaErrorDuplicateVariableName = 43, cudaErrorDuplicateTextureName = 44,
  cudaErrorDuplicateSurfaceName = 45, cudaErrorDevicesUnavailable = 46,
  cudaErrorIncompatibleDriverContext = 49, cudaErrorMissingConfiguration = 52,
  cudaErrorPriorLaunchFailure = 53, cudaErrorLaunchMaxDepthExceeded = 65,
  cudaErrorLaunchFileScopedTex = 66, cudaErrorLaunchFileScopedSurf = 67,
  cudaErrorSyncDepthExceeded = 68, cudaErrorLaunchPendingCountExceeded = 69,
  cudaErrorInvalidDeviceFunction = 98, cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101, cudaErrorDeviceNotLicensed = 102,
  cudaErrorSoftwareValidityNotEstablished = 103, cudaErrorStartupFailure = 127,
  cudaErrorInvalidKernelImage = 200, cudaErrorDeviceUninitialized = 201,
  cudaErrorMapBufferObjectFailed = 205, cudaErrorUnmapBufferObjectFailed = 206,
  cudaErrorArrayIsMapped = 207, cudaErrorAlreadyMapped = 208,
  cudaErrorNoKernelImageForDevice = 209, cudaErrorAlreadyAcquired = 210,
  cudaErrorNotMapped = 211, cudaErrorNotMappedAsArray = 212,
  cudaErrorNotMappedAsPointer = 213, cudaErrorECCUncorrectable = 214,
  cudaErrorUnsupportedLimit = 215, cudaErrorDeviceAlreadyInUse = 216,
  cudaErrorPeerAccessUnsupported = 217, cudaErrorInvalidPtx = 218,
  cudaErrorInvalidGraphicsContext = 219, cudaErrorNvlinkUncorrectable = 220,
  cudaErrorJitCompilerNotFound = 221, cudaErrorUnsupportedPtxVersion = 222,
  cudaErrorJitCompilationDisabled = 223, cudaErrorUnsupportedExecAffinity = 224,
  cudaErrorUnsupportedDevSideSync = 225, cudaErrorContained = 226,
  cudaErrorInvalidSource = 300, cudaErrorFileNotFound = 301,
  cudaErrorSharedObjectSymbolNotFound = 302,
  cudaErrorSharedObjectInitFailed = 303, cudaErrorOperatingSystem = 304,
  cudaErrorInvalidResourceHandle = 400, cudaErrorIllegalState = 401,
  cudaErrorLossyQuery = 402, cudaErrorSymbolNotFound = 500,
  cudaErrorNotReady = 600, cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701, cudaErrorLaunchTimeout = 702,
  cudaErrorLaunchIncompatibleTexturing = 703,
  cudaErrorPeerAccessAlreadyEnabled = 704, cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorSetOnActiveProcess = 708, cudaErrorContextIsDestroyed = 709,
  cudaErrorAssert = 710, cudaErrorTooManyPeers = 711,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713, cudaErrorHardwareStackError = 714,
  cudaErrorIllegalInstruction = 715, cudaErrorMisalignedAddress = 716,
  cudaErrorInvalidAddressSpace = 717, cudaErrorInvalidPc = 718,
  cudaErrorLaunchFailure = 719, cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorTensorMemoryLeak = 721, cudaErrorNotPermitted = 800,
  cudaErrorNotSupported = 801, cudaErrorSystemNotReady = 802,
  cudaErrorSystemDriverMismatch = 803, cudaErrorCompatNotSupportedOnDevice = 804,
  cudaErrorMpsConnectionFailed = 805, cudaErrorMpsRpcFailure = 806,
  cudaErrorMpsServerNotReady = 807, cudaErrorMpsMaxClientsReached = 808,
  cudaErrorMpsMaxConnectionsReached = 809, cudaErrorMpsClientTerminated = 810,
  cudaErrorCdpNotSupported = 811, cudaErrorCdpVersionMismatch = 812,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorStreamCaptureInvalidated = 901, cudaErrorStreamCaptureMerge = 902,
  cudaErrorStreamCaptureUnmatched = 903, cudaErrorStreamCaptureUnjoined = 904,
  cudaErrorStreamCaptureIsolation = 905, cudaErrorStreamCaptureImplicit = 906,
  cudaErrorCapturedEvent = 907, cudaErrorStreamCaptureWrongThread = 908,
  cudaErrorTimeout = 909, cudaErrorGraphExecUpdateFailure = 910,
  cudaErrorExternalDevice = 911, cudaErrorInvalidClusterSize = 912,
  cudaErrorFunctionNotLoaded = 913, cudaErrorInvalidResourceType = 914,
  cudaErrorInvalidResourceConfiguration = 915, cudaErrorUnknown = 999,
  cudaErrorApiFailureBase = 10000
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};
enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};
enum cudaSharedCarveout {
  cudaSharedmemCarveoutDefault = -1, cudaSharedmemCarveoutMaxShared = 100,
  cudaSharedmemCarveoutMaxL1 = 0
};
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
  cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
  cudaFuncAttributeMax = 16
};
enum cudaLimit {
  cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1,
  cudaLimitMallocHeapSize = 2, cudaLimitDevRuntimeSyncDepth = 3,
  cudaLimitDevRuntimePendingLaunchCount = 4,
  cudaLimitMaxL2FetchGranularity = 5, cudaLimitPersistingL2CacheSize = 6
};
enum cudaComputeMode {
  cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2, cudaComputeModeExclusiveProcess = 3
};
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1, cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4, cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6
};
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0, cudaMemLocationTypeNone = 0,
  cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3, cudaMemLocationTypeHostNumaCurrent = 4
};
enum cudaRoundMode {
  cudaRoundNearest = 0, cudaRoundZero = 1, cudaRoundPosInf = 2,
  cudaRoundMinInf = 3
};
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3, cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11, cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13, cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15, cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17, cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19, cudaDevAttrComputeMode = 20,
  cudaDevAttrConcurrentKernels = 31, cudaDevAttrEccEnabled = 32,
  cudaDevAttrPciBusId = 33, cudaDevAttrPciDeviceId = 34,
  cudaDevAttrTccDriver = 35, cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41, cudaDevAttrPciDomainId = 50,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrStreamPrioritiesSupported = 78,
  cudaDevAttrGlobalL1CacheSupported = 79, cudaDevAttrLocalL1CacheSupported = 80,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrManagedMemory = 83,
  cudaDevAttrIsMultiGpuBoard = 84, cudaDevAttrMultiGpuBoardGroupID = 85,
  cudaDevAttrHostNativeAtomicSupported = 86,
  cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
  cudaDevAttrPageableMemoryAccess = 88, cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrComputePreemptionSupported = 90,
  cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrCanFlushRemoteWrites = 98, cudaDevAttrHostRegisterSupported = 99,
  cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
  cudaDevAttrDirectManagedMemAccessFromHost = 101,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrMaxPersistingL2CacheSize = 108,
  cudaDevAttrMaxAccessPolicyWindowSize = 109,
  cudaDevAttrReservedSharedMemoryPerBlock = 111,
  cudaDevAttrMemoryPoolsSupported = 115, cudaDevAttrClusterLaunch = 120
};
enum cudaDataType_t {
  CUDA_R_16F = 2, CUDA_C_16F = 6, CUDA_R_16BF = 14, CUDA_C_16BF = 15,
  CUDA_R_32F = 0, CUDA_C_32F = 4, CUDA_R_64F = 1, CUDA_C_64F = 5,
  CUDA_R_4I = 16, CUDA_C_4I = 17, CUDA_R_4U = 18, CUDA_C_4U = 19,
  CUDA_R_8I = 3, CUDA_C_8I = 7, CUDA_R_8U = 8, CUDA_C_8U = 9,
  CUDA_R_16I = 20, CUDA_C_16I = 21, CUDA_R_16U = 22, CUDA_C_16U = 23,
  CUDA_R_32I = 10, CUDA_C_32I = 11, CUDA_R_32U = 12, CUDA_C_32U = 13,
  CUDA_R_64I = 24, CUDA_C_64I = 25, CUDA_R_64U = 26, CUDA_C_64U = 27,
  CUDA_R_8F_E4M3 = 28, CUDA_R_8F_E5M2 = 29
};
typedef enum cudaDataType_t cudaDataType;

/* Opaque handles: same struct tags as the toolkit, since the tag is what a
   canonical type spells. */
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef struct CUuserObject_st *cudaUserObject_t;
typedef struct CUfunc_st *cudaFunction_t;
typedef struct CUkern_st *cudaKernel_t;
typedef struct CUlib_st *cudaLibrary_t;
typedef struct cudaArray *cudaArray_t;
typedef const struct cudaArray *cudaArray_const_t;
typedef struct cudaMipmappedArray *cudaMipmappedArray_t;
typedef struct cudaGraphicsResource *cudaGraphicsResource_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
typedef void (*cudaHostFn_t)(void *);
typedef void (*cudaStreamCallback_t)(cudaStream_t, cudaError_t, void *);

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
#define cudaPeerAccessDefault 0x00
#define CUDA_IPC_HANDLE_SIZE 64

typedef struct CUuuid_st { char bytes[16]; } cudaUUID_t;
typedef struct cudaIpcMemHandle_st { char reserved[64]; } cudaIpcMemHandle_t;
typedef struct cudaIpcEventHandle_st { char reserved[64]; } cudaIpcEventHandle_t;

struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int deviceNumaConfig;
  int deviceNumaId;
  int mpsEnabled;
  int hostNumaId;
  unsigned int gpuPciDeviceID;
  unsigned int gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  /* Fields CUDA 13 dropped; code written for CUDA 12 still reads them and
     a linter should not reject it over that. */
  int clockRate;
  int memoryClockRate;
  int kernelExecTimeoutEnabled;
  int computeMode;
  int deviceOverlap;
  int maxTexture1DLinear;
  int cooperativeMultiDeviceLaunch;
  int singleToDoublePrecisionPerfRatio;
  int reserved[48];
};
struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};
struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
  long reserved[8];
};
struct cudaMemLocation {
  enum cudaMemLocationType type;
  int id;
};
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  struct cudaPos srcPos;
  struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  struct cudaPos dstPos;
  struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent;
  enum cudaMemcpyKind kind;
};
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3,
  cudaChannelFormatKindNV12 = 4
};
struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };
enum cudaResourceType {
  cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2, cudaResourceTypePitch2D = 3
};
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaTextureReadMode {
  cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1
};
/* The toolkit's union and its members are anonymous too; clang names such
   types after their source position, so those spellings cannot match. */
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { cudaMipmappedArray_t mipmap; } mipmap;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct cudaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
  } res;
  unsigned int flags;
};
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
struct cudaResourceViewDesc {
  int format;
  size_t width, height, depth;
  unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
  unsigned int reserved[16];
};
typedef struct cudaLaunchAttribute_st {
  int id;
  char pad[4];
  char val[64];
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;

/* ---------------------------------------------------------------------------
 * Runtime API.  Entry points that also exist in device code (dynamic
 * parallelism) are __host__ __device__; defaults follow cuda_runtime_api.h.
 * ------------------------------------------------------------------------- */
extern "C" {
__CUDALINT_H cudaError_t cudaDeviceReset(void);
__CUDALINT_H cudaError_t cudaDeviceSynchronize(void);
__CUDALINT_H cudaError_t cudaDeviceSetLimit(enum cudaLimit, size_t);
__CUDALINT_HD cudaError_t cudaDeviceGetLimit(size_t *, enum cudaLimit);
__CUDALINT_H cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache);
__CUDALINT_H cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *);
__CUDALINT_H cudaError_t cudaDeviceGetStreamPriorityRange(int *, int *);
__CUDALINT_H cudaError_t cudaDeviceGetPCIBusId(char *, int, int);
__CUDALINT_H cudaError_t cudaDeviceGetByPCIBusId(int *, const char *);
__CUDALINT_H cudaError_t cudaDeviceCanAccessPeer(int *, int, int);
__CUDALINT_H cudaError_t cudaDeviceEnablePeerAccess(int, unsigned int);
__CUDALINT_H cudaError_t cudaDeviceDisablePeerAccess(int);
__CUDALINT_HD cudaError_t cudaGetLastError(void);
__CUDALINT_HD cudaError_t cudaPeekAtLastError(void);
__CUDALINT_HD const char *cudaGetErrorName(cudaError_t);
__CUDALINT_HD const char *cudaGetErrorString(cudaError_t);
__CUDALINT_HD cudaError_t cudaGetDeviceCount(int *);
__CUDALINT_H cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *, int);
__CUDALINT_HD cudaError_t cudaDeviceGetAttribute(int *, enum cudaDeviceAttr, int);
__CUDALINT_H cudaError_t cudaChooseDevice(int *, const struct cudaDeviceProp *);
__CUDALINT_H cudaError_t cudaInitDevice(int, unsigned int, unsigned int);
__CUDALINT_H cudaError_t cudaSetDevice(int);
__CUDALINT_HD cudaError_t cudaGetDevice(int *);
__CUDALINT_H cudaError_t cudaSetDeviceFlags(unsigned int);
__CUDALINT_H cudaError_t cudaGetDeviceFlags(unsigned int *);
__CUDALINT_H cudaError_t cudaStreamCreate(cudaStream_t *);
__CUDALINT_HD cudaError_t cudaStreamCreateWithFlags(cudaStream_t *, unsigned int);
__CUDALINT_H cudaError_t cudaStreamCreateWithPriority(cudaStream_t *, unsigned int, int);
__CUDALINT_H cudaError_t cudaStreamGetPriority(cudaStream_t, int *);
__CUDALINT_H cudaError_t cudaStreamGetFlags(cudaStream_t, unsigned int *);
__CUDALINT_HD cudaError_t cudaStreamDestroy(cudaStream_t);
__CUDALINT_HD cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int flags = 0);
__CUDALINT_H cudaError_t cudaStreamAddCallback(cudaStream_t, cudaStreamCallback_t, void *, unsigned int);
__CUDALINT_H cudaError_t cudaStreamSynchronize(cudaStream_t);
__CUDALINT_H cudaError_t cudaStreamQuery(cudaStream_t);
__CUDALINT_H cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void *, size_t length = 0, unsigned int flags = cudaMemAttachSingle);
__CUDALINT_H cudaError_t cudaStreamBeginCapture(cudaStream_t, enum cudaStreamCaptureMode);
__CUDALINT_H cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *);
__CUDALINT_H cudaError_t cudaStreamIsCapturing(cudaStream_t, enum cudaStreamCaptureStatus *);
__CUDALINT_H cudaError_t cudaEventCreate(cudaEvent_t *);
__CUDALINT_HD cudaError_t cudaEventCreateWithFlags(cudaEvent_t *, unsigned int);
__CUDALINT_HD cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t stream = 0);
__CUDALINT_H cudaError_t cudaEventRecordWithFlags(cudaEvent_t, cudaStream_t stream = 0, unsigned int flags = 0);
__CUDALINT_H cudaError_t cudaEventQuery(cudaEvent_t);
__CUDALINT_H cudaError_t cudaEventSynchronize(cudaEvent_t);
__CUDALINT_HD cudaError_t cudaEventDestroy(cudaEvent_t);
__CUDALINT_H cudaError_t cudaEventElapsedTime(float *, cudaEvent_t, cudaEvent_t);
__CUDALINT_H cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t);
__CUDALINT_H cudaError_t cudaLaunchCooperativeKernel(const void *, dim3, dim3, void **, size_t, cudaStream_t);
__CUDALINT_H cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t, void *);
__CUDALINT_H cudaError_t cudaFuncSetCacheConfig(const void *, enum cudaFuncCache);
__CUDALINT_HD cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *, const void *);
__CUDALINT_H cudaError_t cudaFuncSetAttribute(const void *, enum cudaFuncAttribute, int);
__CUDALINT_H cudaError_t cudaFuncGetName(const char **, const void *);
__CUDALINT_HD cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *, const void *, int, size_t);
__CUDALINT_H cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *, const void *, int, size_t, unsigned int);
__CUDALINT_H cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *, const void *, int, int);
__CUDALINT_H cudaError_t cudaMallocManaged(void **, size_t, unsigned int flags = cudaMemAttachGlobal);
__CUDALINT_HD cudaError_t cudaMalloc(void **, size_t);
__CUDALINT_H cudaError_t cudaMallocHost(void **, size_t);
__CUDALINT_H cudaError_t cudaMallocPitch(void **, size_t *, size_t, size_t);
__CUDALINT_H cudaError_t cudaMalloc3D(struct cudaPitchedPtr *, struct cudaExtent);
__CUDALINT_HD cudaError_t cudaFree(void *);
__CUDALINT_H cudaError_t cudaFreeHost(void *);
__CUDALINT_H cudaError_t cudaFreeArray(cudaArray_t);
__CUDALINT_H cudaError_t cudaHostAlloc(void **, size_t, unsigned int);
__CUDALINT_H cudaError_t cudaHostRegister(void *, size_t, unsigned int);
__CUDALINT_H cudaError_t cudaHostUnregister(void *);
__CUDALINT_H cudaError_t cudaHostGetDevicePointer(void **, void *, unsigned int);
__CUDALINT_H cudaError_t cudaHostGetFlags(unsigned int *, void *);
__CUDALINT_H cudaError_t cudaMemGetInfo(size_t *, size_t *);
__CUDALINT_H cudaError_t cudaMemcpy(void *, const void *, size_t, enum cudaMemcpyKind);
__CUDALINT_H cudaError_t cudaMemcpyPeer(void *, int, const void *, int, size_t);
__CUDALINT_H cudaError_t cudaMemcpy2D(void *, size_t, const void *, size_t, size_t, size_t, enum cudaMemcpyKind);
__CUDALINT_H cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *);
__CUDALINT_H cudaError_t cudaMemcpyToSymbol(const void *, const void *, size_t, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
__CUDALINT_H cudaError_t cudaMemcpyFromSymbol(void *, const void *, size_t, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
__CUDALINT_HD cudaError_t cudaMemcpyAsync(void *, const void *, size_t, enum cudaMemcpyKind, cudaStream_t stream = 0);
__CUDALINT_H cudaError_t cudaMemcpyPeerAsync(void *, int, const void *, int, size_t, cudaStream_t stream = 0);
__CUDALINT_HD cudaError_t cudaMemcpy2DAsync(void *, size_t, const void *, size_t, size_t, size_t, enum cudaMemcpyKind, cudaStream_t stream = 0);
__CUDALINT_H cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *, cudaStream_t stream = 0);
__CUDALINT_H cudaError_t cudaMemcpyToSymbolAsync(const void *, const void *, size_t, size_t, enum cudaMemcpyKind, cudaStream_t stream = 0);
__CUDALINT_H cudaError_t cudaMemcpyFromSymbolAsync(void *, const void *, size_t, size_t, enum cudaMemcpyKind, cudaStream_t stream = 0);
__CUDALINT_H cudaError_t cudaMemset(void *, int, size_t);
__CUDALINT_H cudaError_t cudaMemset2D(void *, size_t, int, size_t, size_t);
__CUDALINT_HD cudaError_t cudaMemsetAsync(void *, int, size_t, cudaStream_t stream = 0);
__CUDALINT_H cudaError_t cudaGetSymbolAddress(void **, const void *);
__CUDALINT_H cudaError_t cudaGetSymbolSize(size_t *, const void *);
__CUDALINT_H cudaError_t cudaMemPrefetchAsync(const void *, size_t, struct cudaMemLocation, unsigned int, cudaStream_t stream = 0);
__CUDALINT_H cudaError_t cudaMemAdvise(const void *, size_t, enum cudaMemoryAdvise, struct cudaMemLocation);
__CUDALINT_H cudaError_t cudaMallocAsync(void **, size_t, cudaStream_t);
__CUDALINT_H cudaError_t cudaFreeAsync(void *, cudaStream_t);
__CUDALINT_H cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *, const void *);
__CUDALINT_H cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *, void *);
__CUDALINT_H cudaError_t cudaIpcOpenMemHandle(void **, cudaIpcMemHandle_t, unsigned int);
__CUDALINT_H cudaError_t cudaIpcCloseMemHandle(void *);
__CUDALINT_H cudaError_t cudaDriverGetVersion(int *);
__CUDALINT_HD cudaError_t cudaRuntimeGetVersion(int *);
__CUDALINT_H cudaError_t cudaGraphCreate(cudaGraph_t *, unsigned int);
__CUDALINT_H cudaError_t cudaGraphInstantiate(cudaGraphExec_t *, cudaGraph_t, unsigned long long flags = 0);
__CUDALINT_H cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *, cudaGraph_t, unsigned long long flags = 0);
__CUDALINT_HD cudaError_t cudaGraphLaunch(cudaGraphExec_t, cudaStream_t);
__CUDALINT_H cudaError_t cudaGraphExecDestroy(cudaGraphExec_t);
__CUDALINT_H cudaError_t cudaGraphDestroy(cudaGraph_t);
__CUDALINT_H cudaError_t cudaProfilerStart(void);
__CUDALINT_H cudaError_t cudaProfilerStop(void);
__CUDALINT_H cudaError_t cudaCreateTextureObject(cudaTextureObject_t *, const struct cudaResourceDesc *, const struct cudaTextureDesc *, const struct cudaResourceViewDesc *);
__CUDALINT_H cudaError_t cudaDestroyTextureObject(cudaTextureObject_t);
__CUDALINT_H cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *, const struct cudaResourceDesc *);
__CUDALINT_H cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t);
__CUDALINT_H cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *, cudaTextureObject_t);
__CUDALINT_H struct cudaChannelFormatDesc cudaCreateChannelDesc(int, int, int, int, enum cudaChannelFormatKind);
__CUDALINT_H cudaError_t cudaMallocArray(cudaArray_t *, const struct cudaChannelFormatDesc *, size_t, size_t height = 0, unsigned int flags = 0);
__CUDALINT_H cudaError_t cudaMalloc3DArray(cudaArray_t *, const struct cudaChannelFormatDesc *, struct cudaExtent, unsigned int flags = 0);
__CUDALINT_H cudaError_t cudaMemcpy2DToArray(cudaArray_t, size_t, size_t, const void *, size_t, size_t, size_t, enum cudaMemcpyKind);
__CUDALINT_H cudaError_t cudaMemcpy2DFromArray(void *, size_t, cudaArray_const_t, size_t, size_t, size_t, size_t, enum cudaMemcpyKind);
__CUDALINT_H cudaError_t cudaMemcpyToArray(cudaArray_t, size_t, size_t, const void *, size_t, enum cudaMemcpyKind);
/* The call clang builds for a <<<...>>> configuration.  Which name it looks
   up depends on the CUDA SDK version the driver reports: with none (no
   toolkit, -nocudalib) clang 18 falls back to the pre-9.2 cudaConfigureCall,
   so both are declared with the toolkit's signature; only the callee's name
   then differs.  Passing -Xclang -target-sdk-version=12.3 selects
   __cudaPushCallConfiguration. */
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                     size_t sharedMem = 0, void *stream = 0);
unsigned cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                           void *stream = 0);
}
/* CUDA 12 signatures removed in CUDA 13 that existing code still calls. */
__CUDALINT_H cudaError_t cudaMemPrefetchAsync(const void *, size_t, int, cudaStream_t stream = 0);
__CUDALINT_H cudaError_t cudaMemAdvise(const void *, size_t, enum cudaMemoryAdvise, int);

/* cuda_runtime.h's C++ conveniences. */
__CUDALINT_H cudaError_t cudaEventCreate(cudaEvent_t *, unsigned int);
__CUDALINT_H cudaError_t cudaMallocHost(void **, size_t, unsigned int);
__CUDALINT_H cudaError_t cudaMallocAsync(void **, size_t, cudaMemPool_t, cudaStream_t);
__CUDALINT_H cudaError_t cudaGraphInstantiate(cudaGraphExec_t *, cudaGraph_t, cudaGraphNode_t *, char *, size_t);
template <class T> __CUDALINT_HD cudaError_t cudaMalloc(T **, size_t);
template <class T> __CUDALINT_H cudaError_t cudaMallocHost(T **, size_t, unsigned int flags = 0);
template <class T> __CUDALINT_H cudaError_t cudaHostAlloc(T **, size_t, unsigned int);
template <class T> __CUDALINT_H cudaError_t cudaHostGetDevicePointer(T **, void *, unsigned int);
template <class T> __CUDALINT_H cudaError_t cudaMallocManaged(T **, size_t, unsigned int flags = cudaMemAttachGlobal);
template <class T> __CUDALINT_H cudaError_t cudaMallocPitch(T **, size_t *, size_t, size_t);
template <class T> __CUDALINT_H cudaError_t cudaMallocAsync(T **, size_t, cudaMemPool_t, cudaStream_t);
template <class T> __CUDALINT_H cudaError_t cudaMallocAsync(T **, size_t, cudaStream_t);
template <class T> __CUDALINT_H cudaError_t cudaMemcpyToSymbol(const T &, const void *, size_t, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T> __CUDALINT_H cudaError_t cudaMemcpyToSymbolAsync(const T &, const void *, size_t, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0);
template <class T> __CUDALINT_H cudaError_t cudaMemcpyFromSymbol(void *, const T &, size_t, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T> __CUDALINT_H cudaError_t cudaMemcpyFromSymbolAsync(void *, const T &, size_t, size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0);
template <class T> __CUDALINT_H cudaError_t cudaGetSymbolAddress(void **, const T &);
template <class T> __CUDALINT_H cudaError_t cudaGetSymbolSize(size_t *, const T &);
template <class T> __CUDALINT_H cudaError_t cudaLaunchKernel(T *, dim3, dim3, void **, size_t sharedMem = 0, cudaStream_t stream = 0);
template <class T> __CUDALINT_H cudaError_t cudaLaunchCooperativeKernel(T *, dim3, dim3, void **, size_t sharedMem = 0, cudaStream_t stream = 0);
template <class T> __CUDALINT_H cudaError_t cudaFuncSetCacheConfig(T *, enum cudaFuncCache);
template <class T> __CUDALINT_H cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *, T *);
template <class T> __CUDALINT_H cudaError_t cudaFuncSetAttribute(T *, enum cudaFuncAttribute, int);
template <class T> __CUDALINT_H cudaError_t cudaFuncGetName(const char **, T *);
template <class T> __CUDALINT_H cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *, T, int, size_t);
template <class T> __CUDALINT_H cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *, T, int, size_t, unsigned int);
template <class T> __CUDALINT_HD cudaError_t cudaOccupancyMaxPotentialBlockSize(int *, int *, T, size_t dynamicSMemSize = 0, int blockSizeLimit = 0);
template <class T> __CUDALINT_HD cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *, int *, T, size_t dynamicSMemSize = 0, int blockSizeLimit = 0, unsigned int flags = 0);
template <class T> __CUDALINT_H cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *, T *, int, int);
template <class T, class U> __CUDALINT_HD cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *, int *, T, U, int blockSizeLimit = 0);
template <class... E, class... A> __CUDALINT_H cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *, void (*)(E...), A &&...);
template <class T> __CUDALINT_H cudaChannelFormatDesc cudaCreateChannelDesc(void);

/* Texture and surface object fetches (texture_indirect_functions.h).  The
   pointer-returning forms are void in the toolkit too. */
#define __CUDALINT_TEX(f, ...)                                                 \
  template <class T> __CUDALINT_D T f(cudaTextureObject_t, __VA_ARGS__);       \
  template <class T>                                                           \
  __CUDALINT_D void f(T *, cudaTextureObject_t, __VA_ARGS__);
#include "cudalint_texture_fetches.h"
__CUDALINT_TEX(tex2D, float, float, bool *)
__CUDALINT_TEX(tex3D, float, float, float, bool *)
__CUDALINT_TEX(tex2Dgather, float, float, int)
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, cudaBoundaryModeTrap = 2
};
#include "../compat/surface_functions.h"
#include "../compat/device_runtime.h"
#include "../compat/nv_atomics.h"

/* A slice of the driver API, which the toolkit also makes visible. */
typedef enum cudaError_enum {
  CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3, CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100, CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_CONTEXT = 201, CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600, CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_FAILED = 719, CUDA_ERROR_UNKNOWN = 999
} CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;
extern "C" {
__CUDALINT_H CUresult cuInit(unsigned int);
__CUDALINT_H CUresult cuDriverGetVersion(int *);
__CUDALINT_H CUresult cuDeviceGet(CUdevice *, int);
__CUDALINT_H CUresult cuDeviceGetCount(int *);
__CUDALINT_H CUresult cuDeviceGetName(char *, int, CUdevice);
__CUDALINT_H CUresult cuCtxGetCurrent(CUcontext *);
__CUDALINT_H CUresult cuCtxSetCurrent(CUcontext);
__CUDALINT_H CUresult cuCtxSynchronize(void);
__CUDALINT_H CUresult cuGetErrorString(CUresult, const char **);
__CUDALINT_H CUresult cuGetErrorName(CUresult, const char **);
__CUDALINT_H CUresult cuModuleLoad(CUmodule *, const char *);
__CUDALINT_H CUresult cuModuleLoadData(CUmodule *, const void *);
__CUDALINT_H CUresult cuModuleGetFunction(CUfunction *, CUmodule, const char *);
__CUDALINT_H CUresult cuLaunchKernel(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, CUstream, void **, void **);
}

/* ---------------------------------------------------------------------------
 * Device-side C library.  Types follow clang's wrapper: malloc and free pick
 * up noexcept there from the C library declarations they redeclare.
 * ------------------------------------------------------------------------- */
extern "C" {
__CUDALINT_D int vprintf(const char *, const char *);
__CUDALINT_D int printf(const char *, ...);
__CUDALINT_D void free(void *) noexcept(true);
__CUDALINT_D void *malloc(size_t) noexcept(true);
__CUDALINT_D void __assertfail(const char *, const char *, unsigned int,
                               const char *, size_t);
__CUDALINT_D void __assert_fail(const char *, const char *, unsigned int,
                                const char *);
}
namespace std {
__CUDALINT_D void free(void *);
__CUDALINT_D void *malloc(size_t);
} // namespace std
__CUDALINT_D void *memcpy(void *, const void *, size_t);
__CUDALINT_D void *memset(void *, int, size_t);
__CUDALINT_D int clock(void);
__CUDALINT_D long long clock64(void);

/* nvcc makes assert() usable without <assert.h>; this is glibc's C++
   expansion, so including <cassert> later changes nothing. */
#if !defined(assert) && defined(NDEBUG)
#define assert(expr) (static_cast<void> (0))
#elif !defined(assert)
#define assert(expr)                                                           \
  (static_cast <bool> (expr)                                                   \
   ? void (0)                                                                  \
   : __assert_fail (#expr, __FILE__, __LINE__, __extension__ __PRETTY_FUNCTION__))
#endif

/* ---------------------------------------------------------------------------
 * Device intrinsics (device_functions, sm_XX intrinsics, atomics).
 * __syncthreads() itself is a clang builtin.
 * ------------------------------------------------------------------------- */
#define __CUDALINT_RND4(R, f, ...)                                             \
  __CUDALINT_D R f##_rn(__VA_ARGS__);                                          \
  __CUDALINT_D R f##_rz(__VA_ARGS__);                                          \
  __CUDALINT_D R f##_ru(__VA_ARGS__);                                          \
  __CUDALINT_D R f##_rd(__VA_ARGS__);

__CUDALINT_D int __syncthreads_count(int);
__CUDALINT_D int __syncthreads_and(int);
__CUDALINT_D int __syncthreads_or(int);
__CUDALINT_D void __syncwarp(unsigned int mask = 0xffffffff);
__CUDALINT_D void __threadfence(void);
__CUDALINT_D void __threadfence_block(void);
__CUDALINT_D void __threadfence_system(void);
__CUDALINT_D void __threadfence_cluster(void);
__CUDALINT_D void __barrier_sync(unsigned int);
__CUDALINT_D void __barrier_sync_count(unsigned int, unsigned int);
__CUDALINT_D void __trap(void);
__CUDALINT_D void __brkpt(void);
__CUDALINT_D void __brkpt(int);
__CUDALINT_D void __nanosleep(unsigned int);
__CUDALINT_D unsigned int __pm0(void);
__CUDALINT_D unsigned int __pm1(void);
__CUDALINT_D unsigned int __pm2(void);
__CUDALINT_D unsigned int __pm3(void);
#define __prof_trigger(n) __asm__ __volatile__("pmevent \t%0;" ::"i"(n))

/* Warp vote, match, reduce. */
__CUDALINT_D int __all(int);
__CUDALINT_D int __any(int);
__CUDALINT_D unsigned int __ballot(int);
__CUDALINT_D int __all_sync(unsigned int, int);
__CUDALINT_D int __any_sync(unsigned int, int);
__CUDALINT_D int __uni_sync(unsigned int, int);
__CUDALINT_D unsigned int __ballot_sync(unsigned int, int);
__CUDALINT_D unsigned int __activemask(void);
__CUDALINT_D unsigned int __fns(unsigned int, unsigned int, int);
__CUDALINT_D unsigned int __match32_any_sync(unsigned int, unsigned int);
__CUDALINT_D unsigned int __match64_any_sync(unsigned int, unsigned long long);
__CUDALINT_D unsigned int __match32_all_sync(unsigned int, unsigned int, int *);
__CUDALINT_D unsigned int __match64_all_sync(unsigned int, unsigned long long, int *);
#define __CUDALINT_MATCH(T)                                                    \
  __CUDALINT_D unsigned int __match_any_sync(unsigned int, T);                 \
  __CUDALINT_D unsigned int __match_all_sync(unsigned int, T, int *);
__CUDALINT_MATCH(unsigned int) __CUDALINT_MATCH(int)
__CUDALINT_MATCH(unsigned long) __CUDALINT_MATCH(long)
__CUDALINT_MATCH(unsigned long long) __CUDALINT_MATCH(long long)
__CUDALINT_MATCH(float) __CUDALINT_MATCH(double)
__CUDALINT_D unsigned int __reduce_add_sync(unsigned int, unsigned int);
__CUDALINT_D unsigned int __reduce_min_sync(unsigned int, unsigned int);
__CUDALINT_D int __reduce_min_sync(unsigned int, int);
__CUDALINT_D unsigned int __reduce_max_sync(unsigned int, unsigned int);
__CUDALINT_D int __reduce_max_sync(unsigned int, int);
__CUDALINT_D unsigned int __reduce_and_sync(unsigned int, unsigned int);
__CUDALINT_D unsigned int __reduce_or_sync(unsigned int, unsigned int);
__CUDALINT_D unsigned int __reduce_xor_sync(unsigned int, unsigned int);

/* Shuffles: the lane/delta operand is int for idx/xor, unsigned for up/down. */
#define __CUDALINT_SHFL_T(T)                                                   \
  __CUDALINT_D T __shfl(T, int, int __w = warpSize);                           \
  __CUDALINT_D T __shfl_up(T, unsigned int, int __w = warpSize);               \
  __CUDALINT_D T __shfl_down(T, unsigned int, int __w = warpSize);             \
  __CUDALINT_D T __shfl_xor(T, int, int __w = warpSize);                       \
  __CUDALINT_D T __shfl_sync(unsigned int, T, int, int __w = warpSize);        \
  __CUDALINT_D T __shfl_up_sync(unsigned int, T, unsigned int,                 \
                                int __w = warpSize);                           \
  __CUDALINT_D T __shfl_down_sync(unsigned int, T, unsigned int,               \
                                  int __w = warpSize);                         \
  __CUDALINT_D T __shfl_xor_sync(unsigned int, T, int, int __w = warpSize);
__CUDALINT_SHFL_T(int) __CUDALINT_SHFL_T(float) __CUDALINT_SHFL_T(unsigned int)
__CUDALINT_SHFL_T(long long) __CUDALINT_SHFL_T(long)
__CUDALINT_SHFL_T(unsigned long) __CUDALINT_SHFL_T(unsigned long long)
__CUDALINT_SHFL_T(double)

/* Read-only cached loads: the toolkit's exact overload set. */
#define __CUDALINT_LDG(T) __CUDALINT_D T __ldg(const T *);
__CUDALINT_LDG(char) __CUDALINT_LDG(signed char) __CUDALINT_LDG(short)
__CUDALINT_LDG(int) __CUDALINT_LDG(long) __CUDALINT_LDG(long long)
__CUDALINT_LDG(unsigned char) __CUDALINT_LDG(unsigned short)
__CUDALINT_LDG(unsigned int) __CUDALINT_LDG(unsigned long)
__CUDALINT_LDG(unsigned long long) __CUDALINT_LDG(float)
__CUDALINT_LDG(double) __CUDALINT_LDG(char2) __CUDALINT_LDG(char4)
__CUDALINT_LDG(short2) __CUDALINT_LDG(short4) __CUDALINT_LDG(int2)
__CUDALINT_LDG(int4) __CUDALINT_LDG(longlong2) __CUDALINT_LDG(uchar2)
__CUDALINT_LDG(uchar4) __CUDALINT_LDG(ushort2) __CUDALINT_LDG(ushort4)
__CUDALINT_LDG(uint2) __CUDALINT_LDG(uint4) __CUDALINT_LDG(ulonglong2)
__CUDALINT_LDG(float2) __CUDALINT_LDG(float4) __CUDALINT_LDG(double2)
/* The other cache-hinted loads and stores exist under nvcc but not in
   clang's toolkit mode (its wrapper blocks sm_32_intrinsics.h).  One template
   each keeps them cheap; for the types nvcc supports the call's type is the
   same as with its per-type overloads. */
template <class _Tp> __CUDALINT_D _Tp __ldcg(const _Tp *);
template <class _Tp> __CUDALINT_D _Tp __ldca(const _Tp *);
template <class _Tp> __CUDALINT_D _Tp __ldcs(const _Tp *);
template <class _Tp> __CUDALINT_D _Tp __ldlu(const _Tp *);
template <class _Tp> __CUDALINT_D _Tp __ldcv(const _Tp *);
template <class _Tp> struct __cudalint_same { typedef _Tp __t; };
template <class _Tp>
__CUDALINT_D void __stwb(_Tp *, typename __cudalint_same<_Tp>::__t);
template <class _Tp>
__CUDALINT_D void __stcg(_Tp *, typename __cudalint_same<_Tp>::__t);
template <class _Tp>
__CUDALINT_D void __stcs(_Tp *, typename __cudalint_same<_Tp>::__t);
template <class _Tp>
__CUDALINT_D void __stwt(_Tp *, typename __cudalint_same<_Tp>::__t);

/* Integer and bit manipulation. */
__CUDALINT_D int __popc(unsigned int);
__CUDALINT_D int __popcll(unsigned long long);
__CUDALINT_D int __clz(int);
__CUDALINT_D int __clzll(long long);
__CUDALINT_D int __ffs(int);
__CUDALINT_D int __ffsll(long long);
__CUDALINT_D unsigned int __brev(unsigned int);
__CUDALINT_D unsigned long long __brevll(unsigned long long);
__CUDALINT_D unsigned int __byte_perm(unsigned int, unsigned int, unsigned int);
__CUDALINT_D int __mul24(int, int);
__CUDALINT_D unsigned int __umul24(unsigned int, unsigned int);
__CUDALINT_D int __mulhi(int, int);
__CUDALINT_D unsigned int __umulhi(unsigned int, unsigned int);
__CUDALINT_D long long __mul64hi(long long, long long);
__CUDALINT_D unsigned long long __umul64hi(unsigned long long, unsigned long long);
__CUDALINT_D int __hadd(int, int);
__CUDALINT_D int __rhadd(int, int);
__CUDALINT_D unsigned int __uhadd(unsigned int, unsigned int);
__CUDALINT_D unsigned int __urhadd(unsigned int, unsigned int);
__CUDALINT_D unsigned int __sad(int, int, unsigned int);
__CUDALINT_D unsigned int __usad(unsigned int, unsigned int, unsigned int);
__CUDALINT_D unsigned int __funnelshift_l(unsigned int, unsigned int, unsigned int);
__CUDALINT_D unsigned int __funnelshift_lc(unsigned int, unsigned int, unsigned int);
__CUDALINT_D unsigned int __funnelshift_r(unsigned int, unsigned int, unsigned int);
__CUDALINT_D unsigned int __funnelshift_rc(unsigned int, unsigned int, unsigned int);
__CUDALINT_D int __dp4a(int, int, int);
__CUDALINT_D unsigned int __dp4a(unsigned int, unsigned int, unsigned int);
__CUDALINT_D int __dp4a(char4, char4, int);
__CUDALINT_D unsigned int __dp4a(uchar4, uchar4, unsigned int);
#define __CUDALINT_DP2(f)                                                      \
  __CUDALINT_D int f(int, int, int);                                           \
  __CUDALINT_D unsigned int f(unsigned int, unsigned int, unsigned int);       \
  __CUDALINT_D int f(short2, char4, int);                                      \
  __CUDALINT_D unsigned int f(ushort2, uchar4, unsigned int);
__CUDALINT_DP2(__dp2a_lo) __CUDALINT_DP2(__dp2a_hi)
__CUDALINT_D unsigned short __nv_bswap16(unsigned short);
__CUDALINT_D unsigned int __nv_bswap32(unsigned int);
__CUDALINT_D unsigned long long __nv_bswap64(unsigned long long);

/* SIMD video intrinsics, all unsigned int in and out. */
#define __CUDALINT_V1U(f) __CUDALINT_D unsigned int f(unsigned int);
#define __CUDALINT_V2U(f) __CUDALINT_D unsigned int f(unsigned int, unsigned int);
__CUDALINT_V1U(__vabs2) __CUDALINT_V1U(__vabs4) __CUDALINT_V1U(__vabsss2)
__CUDALINT_V1U(__vabsss4) __CUDALINT_V1U(__vneg2) __CUDALINT_V1U(__vneg4)
__CUDALINT_V1U(__vnegss2) __CUDALINT_V1U(__vnegss4)
#define __CUDALINT_V24(f) __CUDALINT_V2U(f##2) __CUDALINT_V2U(f##4)
__CUDALINT_V24(__vabsdiffs) __CUDALINT_V24(__vabsdiffu) __CUDALINT_V24(__vadd)
__CUDALINT_V24(__vaddss) __CUDALINT_V24(__vaddus) __CUDALINT_V24(__vavgs)
__CUDALINT_V24(__vavgu) __CUDALINT_V24(__vcmpeq) __CUDALINT_V24(__vcmpges)
__CUDALINT_V24(__vcmpgeu) __CUDALINT_V24(__vcmpgts) __CUDALINT_V24(__vcmpgtu)
__CUDALINT_V24(__vcmples) __CUDALINT_V24(__vcmpleu) __CUDALINT_V24(__vcmplts)
__CUDALINT_V24(__vcmpltu) __CUDALINT_V24(__vcmpne) __CUDALINT_V24(__vhaddu)
__CUDALINT_V24(__vmaxs) __CUDALINT_V24(__vmaxu) __CUDALINT_V24(__vmins)
__CUDALINT_V24(__vminu) __CUDALINT_V24(__vsads) __CUDALINT_V24(__vsadu)
__CUDALINT_V24(__vseteq) __CUDALINT_V24(__vsetges) __CUDALINT_V24(__vsetgeu)
__CUDALINT_V24(__vsetgts) __CUDALINT_V24(__vsetgtu) __CUDALINT_V24(__vsetles)
__CUDALINT_V24(__vsetleu) __CUDALINT_V24(__vsetlts) __CUDALINT_V24(__vsetltu)
__CUDALINT_V24(__vsetne) __CUDALINT_V24(__vsub) __CUDALINT_V24(__vsubss)
__CUDALINT_V24(__vsubus)

/* Conversions and reinterpretations. */
__CUDALINT_RND4(int, __float2int, float)
__CUDALINT_RND4(unsigned int, __float2uint, float)
__CUDALINT_RND4(long long, __float2ll, float)
__CUDALINT_RND4(unsigned long long, __float2ull, float)
__CUDALINT_RND4(int, __double2int, double)
__CUDALINT_RND4(unsigned int, __double2uint, double)
__CUDALINT_RND4(long long, __double2ll, double)
__CUDALINT_RND4(unsigned long long, __double2ull, double)
__CUDALINT_RND4(float, __double2float, double)
__CUDALINT_RND4(float, __int2float, int)
__CUDALINT_RND4(float, __uint2float, unsigned int)
__CUDALINT_RND4(float, __ll2float, long long)
__CUDALINT_RND4(float, __ull2float, unsigned long long)
__CUDALINT_RND4(double, __ll2double, long long)
__CUDALINT_RND4(double, __ull2double, unsigned long long)
__CUDALINT_D double __int2double_rn(int);
__CUDALINT_D double __uint2double_rn(unsigned int);
__CUDALINT_D int __float_as_int(float);
__CUDALINT_D unsigned int __float_as_uint(float);
__CUDALINT_D float __int_as_float(int);
__CUDALINT_D float __uint_as_float(unsigned int);
__CUDALINT_D long long __double_as_longlong(double);
__CUDALINT_D double __longlong_as_double(long long);
__CUDALINT_D int __double2hiint(double);
__CUDALINT_D int __double2loint(double);
__CUDALINT_D double __hiloint2double(int, int);

/* Fast and correctly rounded float/double arithmetic. */
__CUDALINT_D float __fdividef(float, float);
__CUDALINT_D float __expf(float);
__CUDALINT_D float __exp10f(float);
__CUDALINT_D float __logf(float);
__CUDALINT_D float __log2f(float);
__CUDALINT_D float __log10f(float);
__CUDALINT_D float __sinf(float);
__CUDALINT_D float __cosf(float);
__CUDALINT_D float __tanf(float);
__CUDALINT_D void __sincosf(float, float *, float *);
__CUDALINT_D float __powf(float, float);
__CUDALINT_D float __saturatef(float);
__CUDALINT_D float __frsqrt_rn(float);
__CUDALINT_RND4(float, __fadd, float, float)
__CUDALINT_RND4(float, __fsub, float, float)
__CUDALINT_RND4(float, __fmul, float, float)
__CUDALINT_RND4(float, __fdiv, float, float)
__CUDALINT_RND4(float, __frcp, float)
__CUDALINT_RND4(float, __fsqrt, float)
__CUDALINT_RND4(float, __fmaf, float, float, float)
__CUDALINT_RND4(float, __fmaf_ieee, float, float, float)
__CUDALINT_RND4(double, __dadd, double, double)
__CUDALINT_RND4(double, __dsub, double, double)
__CUDALINT_RND4(double, __dmul, double, double)
__CUDALINT_RND4(double, __ddiv, double, double)
__CUDALINT_RND4(double, __drcp, double)
__CUDALINT_RND4(double, __dsqrt, double)
__CUDALINT_RND4(double, __fma, double, double, double)
__CUDALINT_D int __isnanf(float);
__CUDALINT_D int __isnan(double);
__CUDALINT_D int __isinff(float);
__CUDALINT_D int __isinf(double);
__CUDALINT_D int __finitef(float);
__CUDALINT_D int __finite(double);
__CUDALINT_D int __isfinited(double);
__CUDALINT_D int __signbitf(float);
__CUDALINT_D int __signbitd(double);

/* Address-space predicates and conversions. */
__CUDALINT_D unsigned int __isGlobal(const void *);
__CUDALINT_D unsigned int __isShared(const void *);
__CUDALINT_D unsigned int __isConstant(const void *);
__CUDALINT_D unsigned int __isLocal(const void *);
__CUDALINT_D unsigned int __isGridConstant(const void *);
__CUDALINT_D unsigned int __isClusterShared(const void *);
__CUDALINT_D unsigned int __isCtaShared(const void *);
__CUDALINT_D size_t __cvta_generic_to_global(const void *);
__CUDALINT_D size_t __cvta_generic_to_shared(const void *);
__CUDALINT_D size_t __cvta_generic_to_constant(const void *);
__CUDALINT_D size_t __cvta_generic_to_local(const void *);
__CUDALINT_D size_t __cvta_generic_to_grid_constant(const void *);
__CUDALINT_D void *__cvta_global_to_generic(size_t);
__CUDALINT_D void *__cvta_shared_to_generic(size_t);
__CUDALINT_D void *__cvta_constant_to_generic(size_t);
__CUDALINT_D void *__cvta_local_to_generic(size_t);
__CUDALINT_D void *__cvta_grid_constant_to_generic(size_t);

/* Thread-block clusters (sm_90). */
__CUDALINT_D dim3 __clusterDim(void);
__CUDALINT_D dim3 __clusterIdx(void);
__CUDALINT_D dim3 __clusterGridDimInClusters(void);
__CUDALINT_D dim3 __clusterRelativeBlockIdx(void);
__CUDALINT_D unsigned int __clusterRelativeBlockRank(void);
__CUDALINT_D unsigned int __clusterSizeInBlocks(void);
__CUDALINT_D unsigned int __clusterDimIsSpecified(void);
__CUDALINT_D void __cluster_barrier_arrive(void);
__CUDALINT_D void __cluster_barrier_arrive_relaxed(void);
__CUDALINT_D void __cluster_barrier_wait(void);
__CUDALINT_D void *__cluster_map_shared_rank(const void *, unsigned int);
__CUDALINT_D unsigned int __cluster_query_shared_rank(const void *);

/* Atomics: the plain, _block and _system scopes share overload sets. */
#define __CUDALINT_AT(R, f, ...)                                               \
  __CUDALINT_D R f(__VA_ARGS__);                                               \
  __CUDALINT_D R f##_block(__VA_ARGS__);                                       \
  __CUDALINT_D R f##_system(__VA_ARGS__);
#define __CUDALINT_AT2(f, T) __CUDALINT_AT(T, f, T *, T)
__CUDALINT_AT2(atomicAdd, int) __CUDALINT_AT2(atomicAdd, unsigned int)
__CUDALINT_AT2(atomicAdd, unsigned long long) __CUDALINT_AT2(atomicAdd, float)
__CUDALINT_AT2(atomicAdd, double) __CUDALINT_AT2(atomicAdd, float2)
__CUDALINT_AT2(atomicAdd, float4)
__CUDALINT_AT2(atomicSub, int) __CUDALINT_AT2(atomicSub, unsigned int)
__CUDALINT_AT2(atomicExch, int) __CUDALINT_AT2(atomicExch, unsigned int)
__CUDALINT_AT2(atomicExch, unsigned long long) __CUDALINT_AT2(atomicExch, float)
#define __CUDALINT_AT_INT(f)                                                   \
  __CUDALINT_AT2(f, int) __CUDALINT_AT2(f, unsigned int)                       \
  __CUDALINT_AT2(f, long long) __CUDALINT_AT2(f, unsigned long long)
__CUDALINT_AT_INT(atomicMin) __CUDALINT_AT_INT(atomicMax)
__CUDALINT_AT_INT(atomicAnd) __CUDALINT_AT_INT(atomicOr)
__CUDALINT_AT_INT(atomicXor)
__CUDALINT_AT2(atomicInc, unsigned int) __CUDALINT_AT2(atomicDec, unsigned int)
__CUDALINT_AT(int, atomicCAS, int *, int, int)
__CUDALINT_AT(unsigned int, atomicCAS, unsigned int *, unsigned int, unsigned int)
__CUDALINT_AT(unsigned long long, atomicCAS, unsigned long long *,
              unsigned long long, unsigned long long)
__CUDALINT_D unsigned short atomicCAS(unsigned short *, unsigned short,
                                      unsigned short);

/* ---------------------------------------------------------------------------
 * Math constants (math_constants.h is visible in toolkit mode).
 * ------------------------------------------------------------------------- */
#include "math_constants.h"

#endif /* __CUDA__ && __cplusplus */
#endif /* __CUDALINT_SHIM_CUDA_RUNTIME_H__ */

/* cudalint shim: half precision (cuda_fp16.h).  The class layout, the
   constructors and the conversion operators mirror CUDA 13's, because they
   decide which implicit conversions and operator calls appear in the AST. */
#ifndef __CUDALINT_SHIM_CUDA_FP16_H__
#define __CUDALINT_SHIM_CUDA_FP16_H__
#define __CUDA_FP16_H__
#define __CUDA_FP16_HPP__
#pragma clang system_header
#include "cuda_runtime.h"

/* Operators and functions whose names are shared by __half and
   __nv_bfloat16, so both headers declare them from one list (H scalar, H2
   pair). */
#define __CUDALINT_F16_OPS(H)                                                  \
  __CUDALINT_HD H operator+(const H &, const H &);                             \
  __CUDALINT_HD H operator-(const H &, const H &);                             \
  __CUDALINT_HD H operator*(const H &, const H &);                             \
  __CUDALINT_HD H operator/(const H &, const H &);                             \
  __CUDALINT_HD H &operator+=(H &, const H &);                                 \
  __CUDALINT_HD H &operator-=(H &, const H &);                                 \
  __CUDALINT_HD H &operator*=(H &, const H &);                                 \
  __CUDALINT_HD H &operator/=(H &, const H &);                                 \
  __CUDALINT_HD H &operator++(H &);                                            \
  __CUDALINT_HD H &operator--(H &);                                            \
  __CUDALINT_HD H operator++(H &, const int);                                  \
  __CUDALINT_HD H operator--(H &, const int);                                  \
  __CUDALINT_HD H operator+(const H &);                                        \
  __CUDALINT_HD H operator-(const H &);                                        \
  __CUDALINT_HD bool operator==(const H &, const H &);                         \
  __CUDALINT_HD bool operator!=(const H &, const H &);                         \
  __CUDALINT_HD bool operator>(const H &, const H &);                          \
  __CUDALINT_HD bool operator<(const H &, const H &);                          \
  __CUDALINT_HD bool operator>=(const H &, const H &);                         \
  __CUDALINT_HD bool operator<=(const H &, const H &);

#define __CUDALINT_F16_API(H, H2)                                              \
  __CUDALINT_F16_OPS(H)                                                        \
  __CUDALINT_F16_OPS(H2)                                                       \
  __CUDALINT_HD float __low2float(const H2);                                   \
  __CUDALINT_HD float __high2float(const H2);                                  \
  __CUDALINT_HD H2 __lowhigh2highlow(const H2);                                \
  __CUDALINT_HD H __hadd(const H, const H);                                    \
  __CUDALINT_HD H __hsub(const H, const H);                                    \
  __CUDALINT_HD H __hmul(const H, const H);                                    \
  __CUDALINT_HD H __hdiv(const H, const H);                                    \
  __CUDALINT_HD H __hadd_rn(const H, const H);                                 \
  __CUDALINT_HD H __hsub_rn(const H, const H);                                 \
  __CUDALINT_HD H __hmul_rn(const H, const H);                                 \
  __CUDALINT_HD H __hadd_sat(const H, const H);                                \
  __CUDALINT_HD H __hsub_sat(const H, const H);                                \
  __CUDALINT_HD H __hmul_sat(const H, const H);                                \
  __CUDALINT_HD H __hneg(const H);                                             \
  __CUDALINT_HD H __habs(const H);                                             \
  __CUDALINT_HD H __hmax(const H, const H);                                    \
  __CUDALINT_HD H __hmin(const H, const H);                                    \
  __CUDALINT_HD H __hmax_nan(const H, const H);                                \
  __CUDALINT_HD H __hmin_nan(const H, const H);                                \
  __CUDALINT_D H __hfma(const H, const H, const H);                            \
  __CUDALINT_D H __hfma_sat(const H, const H, const H);                        \
  __CUDALINT_D H __hfma_relu(const H, const H, const H);                       \
  __CUDALINT_HD H2 __hadd2(const H2, const H2);                                \
  __CUDALINT_HD H2 __hsub2(const H2, const H2);                                \
  __CUDALINT_HD H2 __hmul2(const H2, const H2);                                \
  __CUDALINT_HD H2 __h2div(const H2, const H2);                                \
  __CUDALINT_HD H2 __hadd2_rn(const H2, const H2);                             \
  __CUDALINT_HD H2 __hsub2_rn(const H2, const H2);                             \
  __CUDALINT_HD H2 __hmul2_rn(const H2, const H2);                             \
  __CUDALINT_HD H2 __hadd2_sat(const H2, const H2);                            \
  __CUDALINT_HD H2 __hsub2_sat(const H2, const H2);                            \
  __CUDALINT_HD H2 __hmul2_sat(const H2, const H2);                            \
  __CUDALINT_HD H2 __hneg2(const H2);                                          \
  __CUDALINT_HD H2 __habs2(const H2);                                          \
  __CUDALINT_HD H2 __hmax2(const H2, const H2);                                \
  __CUDALINT_HD H2 __hmin2(const H2, const H2);                                \
  __CUDALINT_HD H2 __hmax2_nan(const H2, const H2);                            \
  __CUDALINT_HD H2 __hmin2_nan(const H2, const H2);                            \
  __CUDALINT_D H2 __hfma2(const H2, const H2, const H2);                       \
  __CUDALINT_D H2 __hfma2_sat(const H2, const H2, const H2);                   \
  __CUDALINT_D H2 __hfma2_relu(const H2, const H2, const H2);                  \
  __CUDALINT_D H2 __hcmadd(const H2, const H2, const H2);                      \
  __CUDALINT_HD bool __heq(const H, const H);                                  \
  __CUDALINT_HD bool __hne(const H, const H);                                  \
  __CUDALINT_HD bool __hle(const H, const H);                                  \
  __CUDALINT_HD bool __hge(const H, const H);                                  \
  __CUDALINT_HD bool __hlt(const H, const H);                                  \
  __CUDALINT_HD bool __hgt(const H, const H);                                  \
  __CUDALINT_HD bool __hequ(const H, const H);                                 \
  __CUDALINT_HD bool __hneu(const H, const H);                                 \
  __CUDALINT_HD bool __hleu(const H, const H);                                 \
  __CUDALINT_HD bool __hgeu(const H, const H);                                 \
  __CUDALINT_HD bool __hltu(const H, const H);                                 \
  __CUDALINT_HD bool __hgtu(const H, const H);                                 \
  __CUDALINT_HD bool __hisnan(const H);                                        \
  __CUDALINT_HD int __hisinf(const H);                                         \
  __CUDALINT_HD H2 __heq2(const H2, const H2);                                 \
  __CUDALINT_HD H2 __hne2(const H2, const H2);                                 \
  __CUDALINT_HD H2 __hle2(const H2, const H2);                                 \
  __CUDALINT_HD H2 __hge2(const H2, const H2);                                 \
  __CUDALINT_HD H2 __hlt2(const H2, const H2);                                 \
  __CUDALINT_HD H2 __hgt2(const H2, const H2);                                 \
  __CUDALINT_HD H2 __hequ2(const H2, const H2);                                \
  __CUDALINT_HD H2 __hneu2(const H2, const H2);                                \
  __CUDALINT_HD H2 __hleu2(const H2, const H2);                                \
  __CUDALINT_HD H2 __hgeu2(const H2, const H2);                                \
  __CUDALINT_HD H2 __hltu2(const H2, const H2);                                \
  __CUDALINT_HD H2 __hgtu2(const H2, const H2);                                \
  __CUDALINT_HD H2 __hisnan2(const H2);                                        \
  __CUDALINT_HD unsigned int __heq2_mask(const H2, const H2);                  \
  __CUDALINT_HD unsigned int __hne2_mask(const H2, const H2);                  \
  __CUDALINT_HD unsigned int __hle2_mask(const H2, const H2);                  \
  __CUDALINT_HD unsigned int __hge2_mask(const H2, const H2);                  \
  __CUDALINT_HD unsigned int __hlt2_mask(const H2, const H2);                  \
  __CUDALINT_HD unsigned int __hgt2_mask(const H2, const H2);                  \
  __CUDALINT_HD bool __hbeq2(const H2, const H2);                              \
  __CUDALINT_HD bool __hbne2(const H2, const H2);                              \
  __CUDALINT_HD bool __hble2(const H2, const H2);                              \
  __CUDALINT_HD bool __hbge2(const H2, const H2);                              \
  __CUDALINT_HD bool __hblt2(const H2, const H2);                              \
  __CUDALINT_HD bool __hbgt2(const H2, const H2);                              \
  __CUDALINT_HD bool __hbequ2(const H2, const H2);                             \
  __CUDALINT_HD bool __hbneu2(const H2, const H2);                             \
  __CUDALINT_HD bool __hbleu2(const H2, const H2);                             \
  __CUDALINT_HD bool __hbgeu2(const H2, const H2);                             \
  __CUDALINT_HD bool __hbltu2(const H2, const H2);                             \
  __CUDALINT_HD bool __hbgtu2(const H2, const H2);                             \
  __CUDALINT_F16_MATH1(H, h)                                                   \
  __CUDALINT_F16_MATH1(H2, h2)                                                 \
  __CUDALINT_F16_MEM(H)                                                        \
  __CUDALINT_F16_MEM(H2)                                                       \
  __CUDALINT_D H atomicAdd(H *const, const H);                                 \
  __CUDALINT_D H2 atomicAdd(H2 *const, const H2);

#define __CUDALINT_F16_MATH1(T, p)                                             \
  __CUDALINT_D T p##sqrt(const T);                                             \
  __CUDALINT_D T p##rsqrt(const T);                                            \
  __CUDALINT_D T p##rcp(const T);                                              \
  __CUDALINT_D T p##log(const T);                                              \
  __CUDALINT_D T p##log2(const T);                                             \
  __CUDALINT_D T p##log10(const T);                                            \
  __CUDALINT_D T p##exp(const T);                                              \
  __CUDALINT_D T p##exp2(const T);                                             \
  __CUDALINT_D T p##exp10(const T);                                            \
  __CUDALINT_D T p##cos(const T);                                              \
  __CUDALINT_D T p##sin(const T);                                              \
  __CUDALINT_D T p##tanh(const T);                                             \
  __CUDALINT_D T p##tanh_approx(const T);                                      \
  __CUDALINT_D T p##trunc(const T);                                            \
  __CUDALINT_D T p##ceil(const T);                                             \
  __CUDALINT_D T p##floor(const T);                                            \
  __CUDALINT_D T p##rint(const T);

#define __CUDALINT_F16_MEM(T)                                                  \
  __CUDALINT_D T __shfl_sync(const unsigned int, const T, const int,           \
                             const int __w = warpSize);                        \
  __CUDALINT_D T __shfl_up_sync(const unsigned int, const T,                   \
                                const unsigned int, const int __w = warpSize); \
  __CUDALINT_D T __shfl_down_sync(const unsigned int, const T,                 \
                                  const unsigned int,                          \
                                  const int __w = warpSize);                   \
  __CUDALINT_D T __shfl_xor_sync(const unsigned int, const T, const int,       \
                                 const int __w = warpSize);                    \
  __CUDALINT_D T __ldg(const T *const);                                        \
  __CUDALINT_D T __ldcg(const T *const);                                       \
  __CUDALINT_D T __ldca(const T *const);                                       \
  __CUDALINT_D T __ldcs(const T *const);                                       \
  __CUDALINT_D T __ldlu(const T *const);                                       \
  __CUDALINT_D T __ldcv(const T *const);                                       \
  __CUDALINT_D void __stwb(T *const, const T);                                 \
  __CUDALINT_D void __stcg(T *const, const T);                                 \
  __CUDALINT_D void __stcs(T *const, const T);                                 \
  __CUDALINT_D void __stwt(T *const, const T);

/* Conversions, whose names embed the type name (S: "half"/"bfloat16",
   S2: "half2"/"bfloat162"). */
#define __CUDALINT_F16_RND(R, f, A)                                            \
  __CUDALINT_HD R f##_rn(const A);                                             \
  __CUDALINT_HD R f##_rz(const A);                                             \
  __CUDALINT_HD R f##_rd(const A);                                             \
  __CUDALINT_HD R f##_ru(const A);
#define __CUDALINT_F16_CONV(H, H2, S, S2)                                      \
  __CUDALINT_HD H __double2##S(const double);                                  \
  __CUDALINT_HD H __float2##S(const float);                                    \
  __CUDALINT_F16_RND(H, __float2##S, float)                                    \
  __CUDALINT_HD float __##S##2float(const H);                                  \
  __CUDALINT_HD H2 __float2##S2##_rn(const float);                             \
  __CUDALINT_HD H2 __floats2##S2##_rn(const float, const float);               \
  __CUDALINT_HD H2 __float22##S2##_rn(const float2);                           \
  __CUDALINT_HD float2 __##S2##2float2(const H2);                              \
  __CUDALINT_HD signed char __##S##2char_rz(const H);                          \
  __CUDALINT_HD unsigned char __##S##2uchar_rz(const H);                       \
  __CUDALINT_F16_RND(short, __##S##2short, H)                                  \
  __CUDALINT_F16_RND(unsigned short, __##S##2ushort, H)                        \
  __CUDALINT_F16_RND(int, __##S##2int, H)                                      \
  __CUDALINT_F16_RND(unsigned int, __##S##2uint, H)                            \
  __CUDALINT_F16_RND(long long, __##S##2ll, H)                                 \
  __CUDALINT_F16_RND(unsigned long long, __##S##2ull, H)                       \
  __CUDALINT_F16_RND(H, __short2##S, short)                                    \
  __CUDALINT_F16_RND(H, __ushort2##S, unsigned short)                          \
  __CUDALINT_F16_RND(H, __int2##S, int)                                        \
  __CUDALINT_F16_RND(H, __uint2##S, unsigned int)                              \
  __CUDALINT_F16_RND(H, __ll2##S, long long)                                   \
  __CUDALINT_F16_RND(H, __ull2##S, unsigned long long)                         \
  __CUDALINT_HD short __##S##_as_short(const H);                               \
  __CUDALINT_HD unsigned short __##S##_as_ushort(const H);                     \
  __CUDALINT_HD H __short_as_##S(const short);                                 \
  __CUDALINT_HD H __ushort_as_##S(const unsigned short);                       \
  __CUDALINT_HD H2 make_##S2(const H, const H);                                \
  __CUDALINT_HD H2 __##S##2##S2(const H);                                      \
  __CUDALINT_HD H2 __halves2##S2(const H, const H);                            \
  __CUDALINT_HD H2 __lows2##S2(const H2, const H2);                            \
  __CUDALINT_HD H2 __highs2##S2(const H2, const H2);                           \
  __CUDALINT_HD H2 __low2##S2(const H2);                                       \
  __CUDALINT_HD H2 __high2##S2(const H2);                                      \
  __CUDALINT_HD H __low2##S(const H2);                                         \
  __CUDALINT_HD H __high2##S(const H2);

struct __nv_bfloat16;
struct __half_raw { unsigned short x; };
struct __half2_raw { unsigned short x; unsigned short y; };
typedef struct __half_raw __half_raw;
typedef struct __half2_raw __half2_raw;

struct __attribute__((aligned(2))) __half {
protected:
  unsigned short __x;

public:
  __half() = default;
  __CUDALINT_HD __half(const __half_raw &);
  __CUDALINT_HD __half &operator=(const __half_raw &);
  __CUDALINT_HD volatile __half &operator=(const __half_raw &) volatile;
  __CUDALINT_HD volatile __half &operator=(const volatile __half_raw &) volatile;
  __CUDALINT_HD operator __half_raw() const;
  __CUDALINT_HD operator __half_raw() const volatile;
  __CUDALINT_HD explicit __half(const __nv_bfloat16);
  __CUDALINT_HD __half(const float);
  __CUDALINT_HD __half(const double);
  __CUDALINT_HD operator float() const;
  __CUDALINT_HD __half &operator=(const float);
  __CUDALINT_HD __half &operator=(const double);
  __CUDALINT_HD __half(const short);
  __CUDALINT_HD __half(const unsigned short);
  __CUDALINT_HD __half(const int);
  __CUDALINT_HD __half(const unsigned int);
  __CUDALINT_HD __half(const long);
  __CUDALINT_HD __half(const unsigned long);
  __CUDALINT_HD __half(const long long);
  __CUDALINT_HD __half(const unsigned long long);
  __CUDALINT_HD operator signed char() const;
  __CUDALINT_HD operator unsigned char() const;
  __CUDALINT_HD operator char() const;
  __CUDALINT_HD operator short() const;
  __CUDALINT_HD operator unsigned short() const;
  __CUDALINT_HD operator int() const;
  __CUDALINT_HD operator unsigned int() const;
  __CUDALINT_HD operator long() const;
  __CUDALINT_HD operator unsigned long() const;
  __CUDALINT_HD operator long long() const;
  __CUDALINT_HD operator unsigned long long() const;
  __CUDALINT_HD __half &operator=(const short);
  __CUDALINT_HD __half &operator=(const unsigned short);
  __CUDALINT_HD __half &operator=(const int);
  __CUDALINT_HD __half &operator=(const unsigned int);
  __CUDALINT_HD __half &operator=(const long long);
  __CUDALINT_HD __half &operator=(const unsigned long long);
  __CUDALINT_HD operator bool() const;
};

struct __attribute__((aligned(4))) __half2 {
  __half x;
  __half y;
  __half2() = default;
  __CUDALINT_HD __half2(const __half2 &&);
  __CUDALINT_HD __half2 &operator=(const __half2 &&);
  __CUDALINT_HD __half2(const __half &, const __half &);
  __CUDALINT_HD __half2(const __half2 &);
  __CUDALINT_HD __half2 &operator=(const __half2 &);
  __CUDALINT_HD __half2(const __half2_raw &);
  __CUDALINT_HD __half2 &operator=(const __half2_raw &);
  __CUDALINT_HD operator __half2_raw() const;
};
typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;
typedef __half nv_half;
typedef __half2 nv_half2;

__CUDALINT_F16_API(__half, __half2)
__CUDALINT_F16_CONV(__half, __half2, half, half2)

#endif

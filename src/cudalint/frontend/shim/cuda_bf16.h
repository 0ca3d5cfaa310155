/* cudalint shim: bfloat16 (cuda_bf16.h); see cuda_fp16.h for the approach. */
#ifndef __CUDALINT_SHIM_CUDA_BF16_H__
#define __CUDALINT_SHIM_CUDA_BF16_H__
#define __CUDA_BF16_H__
#define __CUDA_BF16_HPP__
#pragma clang system_header
#include "cuda_fp16.h"

struct __nv_bfloat16_raw { unsigned short x; };
struct __nv_bfloat162_raw { unsigned short x; unsigned short y; };
typedef struct __nv_bfloat16_raw __nv_bfloat16_raw;
typedef struct __nv_bfloat162_raw __nv_bfloat162_raw;

struct __attribute__((aligned(2))) __nv_bfloat16 {
protected:
  unsigned short __x;

public:
  __nv_bfloat16() = default;
  __CUDALINT_HD __nv_bfloat16(const __nv_bfloat16_raw &);
  __CUDALINT_HD __nv_bfloat16 &operator=(const __nv_bfloat16_raw &);
  __CUDALINT_HD volatile __nv_bfloat16 &operator=(const __nv_bfloat16_raw &) volatile;
  __CUDALINT_HD volatile __nv_bfloat16 &operator=(const volatile __nv_bfloat16_raw &) volatile;
  __CUDALINT_HD operator __nv_bfloat16_raw() const;
  __CUDALINT_HD operator __nv_bfloat16_raw() const volatile;
  __CUDALINT_HD explicit __nv_bfloat16(const __half);
  __CUDALINT_HD __nv_bfloat16(const float);
  __CUDALINT_HD __nv_bfloat16(const double);
  __CUDALINT_HD operator float() const;
  __CUDALINT_HD __nv_bfloat16 &operator=(const float);
  __CUDALINT_HD __nv_bfloat16 &operator=(const double);
  __CUDALINT_HD __nv_bfloat16(short);
  __CUDALINT_HD __nv_bfloat16(unsigned short);
  __CUDALINT_HD __nv_bfloat16(int);
  __CUDALINT_HD __nv_bfloat16(unsigned int);
  __CUDALINT_HD __nv_bfloat16(const long);
  __CUDALINT_HD __nv_bfloat16(const unsigned long);
  __CUDALINT_HD __nv_bfloat16(long long);
  __CUDALINT_HD __nv_bfloat16(unsigned long long);
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
  __CUDALINT_HD __nv_bfloat16 &operator=(short);
  __CUDALINT_HD __nv_bfloat16 &operator=(unsigned short);
  __CUDALINT_HD __nv_bfloat16 &operator=(int);
  __CUDALINT_HD __nv_bfloat16 &operator=(unsigned int);
  __CUDALINT_HD __nv_bfloat16 &operator=(long long);
  __CUDALINT_HD __nv_bfloat16 &operator=(unsigned long long);
  __CUDALINT_HD operator bool() const;
};

struct __attribute__((aligned(4))) __nv_bfloat162 {
  __nv_bfloat16 x;
  __nv_bfloat16 y;
  __nv_bfloat162() = default;
  __CUDALINT_HD __nv_bfloat162(__nv_bfloat162 &&);
  __CUDALINT_HD __nv_bfloat162 &operator=(__nv_bfloat162 &&);
  __CUDALINT_HD __nv_bfloat162(const __nv_bfloat16 &, const __nv_bfloat16 &);
  __CUDALINT_HD __nv_bfloat162(const __nv_bfloat162 &);
  __CUDALINT_HD __nv_bfloat162 &operator=(const __nv_bfloat162 &);
  __CUDALINT_HD __nv_bfloat162(const __nv_bfloat162_raw &);
  __CUDALINT_HD __nv_bfloat162 &operator=(const __nv_bfloat162_raw &);
  __CUDALINT_HD operator __nv_bfloat162_raw() const;
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

__CUDALINT_F16_API(__nv_bfloat16, __nv_bfloat162)
__CUDALINT_F16_CONV(__nv_bfloat16, __nv_bfloat162, bfloat16, bfloat162)

#endif

/* cudalint: the cuRAND device API (curand_kernel.h) for the XORWOW (default), Philox
 * and MRG32k3a generators, as documented, for both header sets: the embedded one, and a
 * toolkit installed without cuRAND (the stub directory is searched after the toolkit's,
 * so an installed cuRAND's own header wins). Other generators and the host API are not
 * modelled. A generator call is a value the analysis does not follow; the state is an
 * ordinary struct, so `states[id]` is a memory access like any other.
 */
#pragma clang system_header
#ifndef __CUDALINT_CURAND_DEVICE_API_H
#define __CUDALINT_CURAND_DEVICE_API_H
#define CURAND_KERNEL_H_
#define __CUDALINT_CURAND_D __attribute__((device))

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;

#define __CUDALINT_CURAND_API(S)                                                      \
  __CUDALINT_CURAND_D void curand_init(unsigned long long, unsigned long long,        \
                                       unsigned long long, S *);                      \
  __CUDALINT_CURAND_D unsigned int curand(S *);                                       \
  __CUDALINT_CURAND_D float curand_uniform(S *);                                      \
  __CUDALINT_CURAND_D double curand_uniform_double(S *);                              \
  __CUDALINT_CURAND_D float curand_normal(S *);                                       \
  __CUDALINT_CURAND_D double curand_normal_double(S *);                               \
  __CUDALINT_CURAND_D float2 curand_normal2(S *);                                     \
  __CUDALINT_CURAND_D double2 curand_normal2_double(S *);                             \
  __CUDALINT_CURAND_D float curand_log_normal(S *, float, float);                     \
  __CUDALINT_CURAND_D double curand_log_normal_double(S *, double, double);           \
  __CUDALINT_CURAND_D float2 curand_log_normal2(S *, float, float);                   \
  __CUDALINT_CURAND_D unsigned int curand_poisson(S *, double);                       \
  __CUDALINT_CURAND_D void skipahead(unsigned long long, S *);                        \
  __CUDALINT_CURAND_D void skipahead_sequence(unsigned long long, S *);
__CUDALINT_CURAND_API(curandStateXORWOW_t)
__CUDALINT_CURAND_API(curandStatePhilox4_32_10_t)
__CUDALINT_CURAND_API(curandStateMRG32k3a_t)
__CUDALINT_CURAND_D uint4 curand4(curandStatePhilox4_32_10_t *);
__CUDALINT_CURAND_D float4 curand_uniform4(curandStatePhilox4_32_10_t *);
__CUDALINT_CURAND_D float4 curand_normal4(curandStatePhilox4_32_10_t *);
__CUDALINT_CURAND_D double2 curand_uniform2_double(curandStatePhilox4_32_10_t *);
__CUDALINT_CURAND_D float4 curand_log_normal4(curandStatePhilox4_32_10_t *, float, float);
__CUDALINT_CURAND_D uint4 curand_poisson4(curandStatePhilox4_32_10_t *, double);
#undef __CUDALINT_CURAND_API
#undef __CUDALINT_CURAND_D
#endif

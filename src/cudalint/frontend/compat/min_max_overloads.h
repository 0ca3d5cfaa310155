/* cudalint: CUDA's global min/max overloads for mixed integer and float operands, as
 * crt/math_functions.hpp declares them (with umin, llmin, ullmin and their max). The
 * includer defines __CUDALINT_MIN_MAX_SPACE, the execution spaces to declare them in. */
#define __CUDALINT_MM(R, A, B)                                                 \
  __CUDALINT_MIN_MAX_SPACE R min(A, B);                                        \
  __CUDALINT_MIN_MAX_SPACE R max(A, B);
__CUDALINT_MM(int, int, int)
__CUDALINT_MM(unsigned int, unsigned int, unsigned int)
__CUDALINT_MM(unsigned int, int, unsigned int)
__CUDALINT_MM(unsigned int, unsigned int, int)
__CUDALINT_MM(long, long, long)
__CUDALINT_MM(unsigned long, unsigned long, unsigned long)
__CUDALINT_MM(unsigned long, long, unsigned long)
__CUDALINT_MM(unsigned long, unsigned long, long)
__CUDALINT_MM(long long, long long, long long)
__CUDALINT_MM(unsigned long long, unsigned long long, unsigned long long)
__CUDALINT_MM(unsigned long long, long long, unsigned long long)
__CUDALINT_MM(unsigned long long, unsigned long long, long long)
__CUDALINT_MM(float, float, float)
__CUDALINT_MM(double, double, double)
__CUDALINT_MM(double, float, double)
__CUDALINT_MM(double, double, float)
#undef __CUDALINT_MM
__CUDALINT_MIN_MAX_SPACE unsigned int umin(unsigned int, unsigned int);
__CUDALINT_MIN_MAX_SPACE unsigned int umax(unsigned int, unsigned int);
__CUDALINT_MIN_MAX_SPACE long long llmin(long long, long long);
__CUDALINT_MIN_MAX_SPACE long long llmax(long long, long long);
__CUDALINT_MIN_MAX_SPACE unsigned long long ullmin(unsigned long long, unsigned long long);
__CUDALINT_MIN_MAX_SPACE unsigned long long ullmax(unsigned long long, unsigned long long);

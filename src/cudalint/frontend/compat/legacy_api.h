/* cudalint: runtime API that CUDA 12 and 13 removed: texture and surface
 * references, and the thread-management calls that cudaDevice* replaced.
 *
 * Code written for the texture-reference API (`texture<float, 1> tex;`,
 * `tex1Dfetch(tex, i)`, `cudaBindTexture`) or calling `cudaThreadSynchronize()`
 * is parsed with these declarations. A fetch is a call with no body: its value
 * follows its coordinates, and no memory access is recorded for it, since the
 * texture cache's behaviour is not the global memory's.
 */
#pragma clang system_header
#ifndef __CUDALINT_LEGACY_API_H
#define __CUDALINT_LEGACY_API_H

#ifndef cudaTextureType1D
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
#endif
#ifndef cudaSurfaceType1D
#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC
#endif

#define __CUDALINT_LD __attribute__((device))
#define __CUDALINT_LH __attribute__((host))

struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
};

struct surfaceReference {
  struct cudaChannelFormatDesc channelDesc;
};

template <class T, int texType = cudaTextureType1D,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : public textureReference {};

template <class T, int dim = 1>
struct __attribute__((device_builtin_surface_type)) surface : public surfaceReference {};

/* What a fetch returns: the element type, or floats for normalized reads of
   8- and 16-bit integers (one float per component). */
template <class T, enum cudaTextureReadMode mode> struct __cudalint_texel { typedef T type; };
template <class T> struct __cudalint_texel<T, cudaReadModeNormalizedFloat> { typedef float type; };
#define __CUDALINT_NORMALIZED(n, ...)                                          \
  template <> struct __cudalint_texel<char##n, cudaReadModeNormalizedFloat> { typedef __VA_ARGS__ type; };   \
  template <> struct __cudalint_texel<uchar##n, cudaReadModeNormalizedFloat> { typedef __VA_ARGS__ type; };  \
  template <> struct __cudalint_texel<short##n, cudaReadModeNormalizedFloat> { typedef __VA_ARGS__ type; };  \
  template <> struct __cudalint_texel<ushort##n, cudaReadModeNormalizedFloat> { typedef __VA_ARGS__ type; };
__CUDALINT_NORMALIZED(1, float1)
__CUDALINT_NORMALIZED(2, float2)
__CUDALINT_NORMALIZED(4, float4)
#undef __CUDALINT_NORMALIZED

/* tex2Dgather returns one component of four texels. */
template <class T> struct __cudalint_gathered { typedef float4 type; };
#define __CUDALINT_GATHERED(scalar, prefix, vector)                            \
  template <> struct __cudalint_gathered<scalar> { typedef vector type; };     \
  template <> struct __cudalint_gathered<prefix##1> { typedef vector type; };  \
  template <> struct __cudalint_gathered<prefix##2> { typedef vector type; };  \
  template <> struct __cudalint_gathered<prefix##4> { typedef vector type; };
__CUDALINT_GATHERED(int, int, int4)
__CUDALINT_GATHERED(unsigned int, uint, uint4)
#undef __CUDALINT_GATHERED

#undef __CUDALINT_TEX
#define __CUDALINT_TEX(name, ...)                                              \
  template <class T, int texType, enum cudaTextureReadMode mode>               \
  __CUDALINT_LD typename __cudalint_texel<T, mode>::type name(texture<T, texType, mode>, __VA_ARGS__);
#include "../shim/cudalint_texture_fetches.h"
#undef __CUDALINT_TEX
template <class T, int texType, enum cudaTextureReadMode mode>
__CUDALINT_LD typename __cudalint_gathered<T>::type tex2Dgather(texture<T, texType, mode>, float, float, int comp = 0);

#define __CUDALINT_SURFACE(read, write, ...)                                   \
  template <class T, int dim>                                                  \
  __CUDALINT_LD void read(T *, surface<void, dim>, __VA_ARGS__,               \
                          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap); \
  template <class T, int dim>                                                  \
  __CUDALINT_LD T read(surface<void, dim>, __VA_ARGS__,                        \
                       cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);    \
  template <class T, int dim>                                                  \
  __CUDALINT_LD void write(T, surface<void, dim>, __VA_ARGS__,                 \
                           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap);
__CUDALINT_SURFACE(surf1Dread, surf1Dwrite, int)
__CUDALINT_SURFACE(surf2Dread, surf2Dwrite, int, int)
__CUDALINT_SURFACE(surf3Dread, surf3Dwrite, int, int, int)
__CUDALINT_SURFACE(surf1DLayeredread, surf1DLayeredwrite, int, int)
__CUDALINT_SURFACE(surf2DLayeredread, surf2DLayeredwrite, int, int, int)
__CUDALINT_SURFACE(surfCubemapread, surfCubemapwrite, int, int, int)
#undef __CUDALINT_SURFACE

/* The runtime calls that bind and query references. */
__CUDALINT_LH cudaError_t cudaBindTexture(size_t *, const struct textureReference *, const void *,
                                          const struct cudaChannelFormatDesc *, size_t size = ~0u);
__CUDALINT_LH cudaError_t cudaBindTexture2D(size_t *, const struct textureReference *, const void *,
                                            const struct cudaChannelFormatDesc *, size_t, size_t, size_t);
__CUDALINT_LH cudaError_t cudaBindTextureToArray(const struct textureReference *, cudaArray_const_t,
                                                 const struct cudaChannelFormatDesc *);
__CUDALINT_LH cudaError_t cudaBindTextureToMipmappedArray(const struct textureReference *,
                                                          const struct cudaMipmappedArray *,
                                                          const struct cudaChannelFormatDesc *);
__CUDALINT_LH cudaError_t cudaUnbindTexture(const struct textureReference *);
__CUDALINT_LH cudaError_t cudaGetTextureAlignmentOffset(size_t *, const struct textureReference *);
__CUDALINT_LH cudaError_t cudaGetTextureReference(const struct textureReference **, const void *);
__CUDALINT_LH cudaError_t cudaBindSurfaceToArray(const struct surfaceReference *, cudaArray_const_t,
                                                 const struct cudaChannelFormatDesc *);
__CUDALINT_LH cudaError_t cudaGetSurfaceReference(const struct surfaceReference **, const void *);

template <class T, int texType, enum cudaTextureReadMode mode>
__CUDALINT_LH cudaError_t cudaBindTexture(size_t *, const texture<T, texType, mode> &, const void *,
                                          const struct cudaChannelFormatDesc &, size_t size = ~0u);
template <class T, int texType, enum cudaTextureReadMode mode>
__CUDALINT_LH cudaError_t cudaBindTexture(size_t *, const texture<T, texType, mode> &, const void *,
                                          size_t size = ~0u);
template <class T, int texType, enum cudaTextureReadMode mode>
__CUDALINT_LH cudaError_t cudaBindTexture2D(size_t *, const texture<T, texType, mode> &, const void *,
                                            const struct cudaChannelFormatDesc &, size_t, size_t, size_t);
template <class T, int texType, enum cudaTextureReadMode mode>
__CUDALINT_LH cudaError_t cudaBindTexture2D(size_t *, const texture<T, texType, mode> &, const void *,
                                            size_t, size_t, size_t);
template <class T, int texType, enum cudaTextureReadMode mode>
__CUDALINT_LH cudaError_t cudaBindTextureToArray(const texture<T, texType, mode> &, cudaArray_const_t,
                                                 const struct cudaChannelFormatDesc &);
template <class T, int texType, enum cudaTextureReadMode mode>
__CUDALINT_LH cudaError_t cudaBindTextureToArray(const texture<T, texType, mode> &, cudaArray_const_t);
template <class T, int texType, enum cudaTextureReadMode mode>
__CUDALINT_LH cudaError_t cudaUnbindTexture(const texture<T, texType, mode> &);
template <class T, int texType, enum cudaTextureReadMode mode>
__CUDALINT_LH cudaError_t cudaGetTextureAlignmentOffset(size_t *, const texture<T, texType, mode> &);
template <class T, int dim>
__CUDALINT_LH cudaError_t cudaBindSurfaceToArray(const surface<T, dim> &, cudaArray_const_t,
                                                 const struct cudaChannelFormatDesc &);
template <class T, int dim>
__CUDALINT_LH cudaError_t cudaBindSurfaceToArray(const surface<T, dim> &, cudaArray_const_t);

/* Thread management, removed in CUDA 13: the cudaDevice* calls do the same. */
extern "C" {
__CUDALINT_LH cudaError_t cudaThreadSynchronize(void);
__CUDALINT_LH cudaError_t cudaThreadExit(void);
__CUDALINT_LH cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
__CUDALINT_LH cudaError_t cudaThreadGetLimit(size_t *value, enum cudaLimit limit);
__CUDALINT_LH cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config);
__CUDALINT_LH cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *config);
}

#undef __CUDALINT_LD
#undef __CUDALINT_LH

#endif

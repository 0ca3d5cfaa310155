/* cudalint: the surface-object functions nvcc provides (surface_indirect_functions.h),
 * for both header sets.
 *
 * clang's CUDA headers leave them out: its texture intrinsics cover textures only.
 * Declared without bodies, a read is a value that follows its coordinates and a write a
 * call; neither is a global-memory access (surfaces go through the texture path).
 * Coordinates are in bytes along x, in elements along y and z; `layer` and `face` pick
 * the slice. The value-returning reads name their type explicitly (`surf2Dread<float>`).
 */
#pragma clang system_header
#ifndef __CUDALINT_SURFACE_FUNCTIONS_H
#define __CUDALINT_SURFACE_FUNCTIONS_H

#define __CUDALINT_SURFACE(name, ...)                                                      \
  template <class T>                                                                       \
  __attribute__((device)) void name##read(T *, cudaSurfaceObject_t, __VA_ARGS__,            \
                                          cudaSurfaceBoundaryMode = cudaBoundaryModeTrap); \
  template <class T>                                                                       \
  __attribute__((device)) T name##read(cudaSurfaceObject_t, __VA_ARGS__,                    \
                                       cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);    \
  template <class T>                                                                       \
  __attribute__((device)) void name##write(T, cudaSurfaceObject_t, __VA_ARGS__,             \
                                           cudaSurfaceBoundaryMode = cudaBoundaryModeTrap);

__CUDALINT_SURFACE(surf1D, int x)
__CUDALINT_SURFACE(surf2D, int x, int y)
__CUDALINT_SURFACE(surf3D, int x, int y, int z)
__CUDALINT_SURFACE(surf1DLayered, int x, int layer)
__CUDALINT_SURFACE(surf2DLayered, int x, int y, int layer)
__CUDALINT_SURFACE(surfCubemap, int x, int y, int face)
__CUDALINT_SURFACE(surfCubemapLayered, int x, int y, int layerFace)
#undef __CUDALINT_SURFACE
#endif

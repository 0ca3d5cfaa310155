"""cudalint: a static analyzer for CUDA kernels."""

__version__ = "0.5.0"

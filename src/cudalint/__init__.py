"""cudalint: a static analyzer for CUDA kernels."""

__version__ = "0.2.0"

"""Measured figures per source line: Nsight Compute's per-instruction counters mapped to
source lines through the SASS's line table, and their join with cudalint's findings.

``source_lines`` maps and sums (shared with the accuracy harnesses in scripts/ and
bench/realcode); ``measured`` reads and writes measured-lines files; ``command`` is
``cudalint profile``; ``join`` turns measured figures and findings into one report.
Nothing here imports the frontend (libclang): profiling runs on a GPU machine that may
have only Python and the CUDA toolkit.
"""

#!/usr/bin/env bash
# Measure theoretical occupancy with Nsight Compute for the occupancy corpus, and what
# ptxas allocated, so that cudalint's occupancy model can be checked offline.
#
#   bash run.sh OUTDIR
#
# Needs nvcc, ncu, cuobjdump and python3 on a machine with an sm_90 GPU. Writes under
# OUTDIR: ptxas-<build>.txt (nvcc -Xptxas -v), resources-<build>.txt (cuobjdump
# --dump-resource-usage), ncu-<build>.csv (raw page of the LaunchStats and Occupancy
# sections), occupancy.csv (one row per launch, the figures the model is checked on, made
# by occupancy_csv.py) and ncu-metrics.txt (the metric names this ncu knows).
set -u
OUT=${1:?usage: run.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
# The corpus files: beside this script in a job folder, else in the repository.
corpus() { if [ -f "$HERE/$2" ]; then echo "$HERE/$2"; else echo "$HERE/../../tests/corpus/$1/$2"; fi; }
SOURCE=$(corpus occupancy occupancy_limits.cu)
MATH=$(corpus registers math_slow_paths.cu)
CUDA_BIN=$(dirname "$(readlink -f "$(command -v nvcc)")")
tool() { command -v "$1" || ls "$CUDA_BIN/$1" /usr/local/cuda/bin/"$1" 2>/dev/null | head -1; }
CUOBJDUMP=$(tool cuobjdump)
NVDISASM=$(tool nvdisasm)
NCU=$(tool ncu)
exec > >(tee "$OUT/log.txt") 2>&1
# ncu with figures in base units (bytes, not Kbytes); again without the option if this ncu
# does not know it. Usage: profile SECONDS OUTPUT_PREFIX ncu-arguments...
profile() {
    local seconds=$1 prefix=$2
    shift 2
    timeout "$seconds" "$NCU" --print-units base "$@" >"$prefix.csv" 2>"$prefix.err"
    local status=$?
    if [ "$status" -ne 0 ] && ! grep -q '^"' "$prefix.csv"; then
        timeout "$seconds" "$NCU" "$@" >"$prefix.csv" 2>"$prefix.err"
        status=$?
    fi
    return "$status"
}
date -u
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv || true
"$NCU" --version || true
nvcc --version | tail -2

# Two builds: the registers ptxas chooses, and every kernel capped at 48.
declare -A FLAGS=([default]="" [maxrreg48]="-maxrregcount=48")
for build in default maxrreg48; do
    nvcc -arch=sm_90 -O3 ${FLAGS[$build]} -Xptxas -v -o "$OUT/occ-$build" "$SOURCE" \
        >"$OUT/ptxas-$build.txt" 2>&1 || { echo "nvcc failed for $build"; cat "$OUT/ptxas-$build.txt"; }
    "$CUOBJDUMP" --dump-resource-usage "$OUT/occ-$build" >"$OUT/resources-$build.txt" 2>&1 || true
done

for build in default maxrreg48; do
    [ -x "$OUT/occ-$build" ] || continue
    profile 60 "$OUT/ncu-$build" --section LaunchStats --section Occupancy --csv --page raw "$OUT/occ-$build"
    echo "ncu $build: exit $? ($(wc -l <"$OUT/ncu-$build.csv") lines)"
done
rm -f "$OUT"/occ-default "$OUT"/occ-maxrreg48

# Local memory of the math library's slow paths: executed local instructions and sectors
# per kernel, and where the SASS puts each LDL/STL (nvdisasm -gi).
nvcc -arch=sm_90 -O3 -lineinfo -o "$OUT/math" "$MATH" >"$OUT/ptxas-math.txt" 2>&1 || echo "nvcc failed for math"
nvcc -arch=sm_90 -O3 -lineinfo -cubin -Xptxas -v -o "$OUT/math.cubin" "$MATH" >>"$OUT/ptxas-math.txt" 2>&1
"$NVDISASM" -gi -c "$OUT/math.cubin" >"$OUT/sass-math.txt" 2>&1 || true
if [ -x "$OUT/math" ]; then
    profile 30 "$OUT/math-inst" --csv --page raw --metrics \
        smsp__inst_executed_op_local_ld.sum,smsp__inst_executed_op_local_st.sum,smsp__inst_executed.sum "$OUT/math"
    echo "ncu math inst: exit $?"
    profile 30 "$OUT/math-sectors" --csv --page raw --metrics \
        l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum "$OUT/math"
    echo "ncu math sectors: exit $?"
fi
rm -f "$OUT/math" "$OUT/math.cubin"

# Real programs staged beside this script (stage_realcode.py): the first launches of each,
# within what is left of a 200-second budget.
if [ -d "$HERE/realcode" ]; then
    for dir in "$HERE"/realcode/*/; do
        name=$(basename "$dir")
        if [ "$SECONDS" -gt 185 ]; then echo "time spent: realcode from $name on not measured"; break; fi
        work="$OUT/run-$name"
        mkdir -p "$work"
        gzip -dc "$dir/program.gz" >"$work/program" && chmod +x "$work/program"
        mapfile -t ARGS <"$dir/args"
        (cd "$work" && profile 15 "../ncu-realcode-$name" --section LaunchStats --section Occupancy \
            --launch-count 8 --csv --page raw ./program ${ARGS[@]+"${ARGS[@]}"})
        echo "realcode $name: exit $? at ${SECONDS} s"
        rm -rf "$work"
    done
fi

python3 "$HERE/occupancy_csv.py" "$OUT" >"$OUT/occupancy.csv" || echo "occupancy_csv.py failed"
head -5 "$OUT/occupancy.csv"
timeout 20 "$NCU" --query-metrics --chip gh100 >"$OUT/ncu-metrics.txt" 2>&1 || true
grep -E "^(launch__|sm__maxwarps|sm__warps_active)" "$OUT/ncu-metrics.txt" | head -60 || true
date -u

#!/usr/bin/env bash
# The instructions one FAST_RUN pipeline run executes at 10,000 and 50,000 nodes,
# per graph family of bench_pipeline (callgrind, counting inside Pipeline::run
# only), and their ratio: the growth of the work itself, which the machine's load
# and caches do not move (docs/performance.md, "Rewrite pipeline").
#
#   bench/pipeline_instructions.sh [build-dir] [--misses]   (a Release build with TL_BUILD_BENCH=ON)
#
# --misses also simulates the caches (an L1 of 48 KB and a last level of 2 MB, this
# project's Xeon's L2) and prints how the misses of each grow: where the time grows
# faster than the instructions, these say whether the graphs outgrew the caches.
# Needs valgrind; takes a few minutes (the 50,000-node graphs run ~50x slower under
# it; with --misses about twice as long again).
set -euo pipefail
build="build-bench"
misses=0
for arg in "$@"; do
    case "$arg" in
    --misses) misses=1 ;;
    *) build="$arg" ;;
    esac
done
bench="$build/bench/bench_pipeline"
[ -x "$bench" ] || { echo "no $bench: build with -DTL_BUILD_BENCH=ON first" >&2; exit 1; }
command -v valgrind > /dev/null || { echo "valgrind is not installed" >&2; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
cachesim=()
[ "$misses" = 1 ] && cachesim=(--cache-sim=yes --D1=49152,12,64 --LL=2097152,16,64)
# family nodes -> "instructions L1-data-misses last-level-data-misses" (0 0 without --misses)
count() {
    valgrind --tool=callgrind "${cachesim[@]}" --callgrind-out-file="$out/cg.$1.$2" --toggle-collect='tl::Pipeline::run*' \
        "$bench" --benchmark_filter="^BM_PipelineOnce/$1/$2/" > /dev/null 2>&1
    # Totals without --misses: Ir; with it: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw.
    callgrind_annotate --show-percs=no "$out/cg.$1.$2" | awk '/PROGRAM TOTALS/ && !done {
        gsub(",", ""); done = 1
        if (NF >= 10) print $1, $5 + $6, $8 + $9; else print $1, 0, 0 }'
}
names=(elemwise_chain independent_scans duplicated_subexpressions scans_with_bodies)
if [ "$misses" = 1 ]; then
    printf '%-27s %14s %14s %8s %10s %10s\n' family "10k (M instr)" "50k (M instr)" ratio "L1 misses" "LL misses"
else
    printf '%-27s %14s %14s %8s\n' family "10k (M instr)" "50k (M instr)" ratio
fi
for family in 0 1 2 3; do
    read -r small smallL1 smallLL <<< "$(count "$family" 10000)"
    read -r large largeL1 largeLL <<< "$(count "$family" 50000)"
    awk -v n="${names[$family]}" -v a="$small" -v b="$large" -v m="$misses" \
        -v a1="$smallL1" -v b1="$largeL1" -v aL="$smallLL" -v bL="$largeLL" 'BEGIN {
        printf "%-27s %14.1f %14.1f %8.2f", n, a / 1e6, b / 1e6, b / a
        if (m == 1) printf " %10.2f %10.2f", b1 / a1, bL / aL
        printf "\n" }'
done

#!/usr/bin/env bash
# The instructions one FAST_RUN pipeline run executes at 10,000 and 50,000 nodes,
# per graph family of bench_pipeline (callgrind, counting inside Pipeline::run
# only), and their ratio: the growth of the work itself, which the machine's load
# and caches do not move (docs/performance.md, "Rewrite pipeline").
#
#   bench/pipeline_instructions.sh [build-dir]    (a Release build with TL_BUILD_BENCH=ON)
#
# Needs valgrind; takes a few minutes (the 50,000-node graphs run ~50x slower under it).
set -euo pipefail
build="${1:-build-bench}"
bench="$build/bench/bench_pipeline"
[ -x "$bench" ] || { echo "no $bench: build with -DTL_BUILD_BENCH=ON first" >&2; exit 1; }
command -v valgrind > /dev/null || { echo "valgrind is not installed" >&2; exit 1; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
count() {  # family nodes -> instructions
    valgrind --tool=callgrind --callgrind-out-file="$out/cg.$1.$2" --toggle-collect='tl::Pipeline::run*' \
        "$bench" --benchmark_filter="^BM_PipelineOnce/$1/$2/" > /dev/null 2>&1
    callgrind_annotate "$out/cg.$1.$2" | awk '/PROGRAM TOTALS/ && !done { gsub(",", "", $1); print $1; done = 1 }'
}
names=(elemwise_chain independent_scans duplicated_subexpressions scans_with_bodies)
printf '%-27s %14s %14s %8s\n' family "10k (M instr)" "50k (M instr)" ratio
for family in 0 1 2 3; do
    small=$(count "$family" 10000)
    large=$(count "$family" 50000)
    awk -v n="${names[$family]}" -v a="$small" -v b="$large" \
        'BEGIN { printf "%-27s %14.1f %14.1f %8.2f\n", n, a / 1e6, b / 1e6, b / a }'
done

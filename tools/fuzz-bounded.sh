#!/usr/bin/env bash
# Run one libFuzzer target of build/fuzz for a bounded time, as CI does.
#
#   tools/fuzz-bounded.sh TARGET SECONDS [SEED_DIR]...
#
# The target (built with the fuzz preset) starts from the seed directories
# (its kept corpus, e.g. tests/fuzz/request; read only) and writes new inputs
# to a scratch directory, never into the tree. It prints libFuzzer's final
# statistics and the executed units. A crash, timeout or leak exits 1 and
# keeps the scratch directory with the finding, to be copied into the
# target's corpus as a regression input; a run that printed no statistics
# exits 1 too.
set -euo pipefail
cd "$(dirname "$0")/.."

[ $# -ge 2 ] || { echo "usage: $0 TARGET SECONDS [SEED_DIR]..." >&2; exit 2; }
target=$1
secs=$2
shift 2
bin=build/fuzz/fuzz/$target
[ -x "$bin" ] || { echo "$target: $bin not built (cmake --preset fuzz && cmake --build build/fuzz --target $target)" >&2; exit 1; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
rc=0
"$bin" -timeout=5 -max_total_time="$secs" -print_final_stats=1 \
	-artifact_prefix="$scratch/" "$scratch" "$@" >"$scratch/log" 2>&1 || rc=$?
grep -E '^(stat::|==[0-9]+==ERROR|SUMMARY|fuzz_[a-z]+: )' "$scratch/log" || true
units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/log")
echo "$target: executed units ${units:-0}"
if ls "$scratch"/crash-* "$scratch"/timeout-* "$scratch"/leak-* "$scratch"/oom-* >/dev/null 2>&1 ||
	[ "$rc" -ne 0 ] || [ -z "$units" ]; then
	tail -40 "$scratch/log"
	echo "$target: exit status $rc; finding and log kept in $scratch" >&2
	trap - EXIT
	exit 1
fi

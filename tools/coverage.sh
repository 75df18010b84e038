#!/usr/bin/env bash
# Coverage of the library (src/) and of the simulator (sim/): runs the
# coverage workflow (gcov instrumentation, every host test), prints the
# per-file line and branch tables (gcovr) and checks the gates.
#
#   tools/coverage.sh [SRC_LINES [SRC_BRANCHES [SIM_LINES [SIM_BRANCHES]]]]
#                     [--no-build] [--report-only]
#
# Gates in percent, defaults 95 90 90 80 (lines and branches of src/, then of
# sim/). --no-build reuses build/coverage as it is (after a run of the
# workflow); --report-only prints everything and always exits 0.
# Exit status: 0 when every gate holds, 1 when one does not.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
gate=1
gates=()
for a in "$@"; do
	case "$a" in
	--no-build) build=0 ;;
	--report-only) gate=0 ;;
	[0-9]*) gates+=("$a") ;;
	*) echo "usage: $0 [SRC_LINES [SRC_BRANCHES [SIM_LINES [SIM_BRANCHES]]]] [--no-build] [--report-only]" >&2
	   exit 2 ;;
	esac
done
src_l=${gates[0]:-95}
src_b=${gates[1]:-90}
sim_l=${gates[2]:-90}
sim_b=${gates[3]:-80}

if [ "$build" = 1 ]; then
	# Counters of an earlier run would add up with this one's.
	if [ -d build/coverage ]; then
		find build/coverage -name '*.gcda' -delete
	fi
	cmake --workflow --preset coverage
fi

# gcc emits branches for code the C source cannot reach (exception edges of
# calls, the compiler's own checks); count only the source's decisions.
opts=(-r . --exclude-unreachable-branches --exclude-throw-branches build/coverage)
fail=0

report() {
	local dir=$1 lines=$2 branches=$3
	local filter="^${dir}/"

	if ! find build/coverage -name '*.gcda' -path "*${dir}*" | grep -q .; then
		echo "coverage: no counters for ${dir}/ (not built or no test ran it)"
		fail=1
		return
	fi
	echo "=== ${dir}/: lines (gate ${lines} %)"
	gcovr "${opts[@]}" --filter "$filter" --sort-percentage
	echo "=== ${dir}/: branches (gate ${branches} %)"
	gcovr "${opts[@]}" --filter "$filter" --branches --sort-percentage
	if ! gcovr "${opts[@]}" --filter "$filter" --fail-under-line "$lines" \
		--fail-under-branch "$branches" >/dev/null; then
		echo "coverage: ${dir}/ is below ${lines} % lines or ${branches} % branches"
		fail=1
	else
		echo "coverage: ${dir}/ meets ${lines} % lines and ${branches} % branches"
	fi
}

report src "$src_l" "$src_b"
report sim "$sim_l" "$sim_b"

if [ "$gate" = 1 ] && [ "$fail" = 1 ]; then
	exit 1
fi
exit 0

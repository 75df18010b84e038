#!/usr/bin/env bash
# Run single-threaded CI checks side by side, one per core.
#
#   .ci/pool.sh 'COMMAND' 'COMMAND'...
#
# Each COMMAND runs under bash -euo pipefail from the project root with its
# output in a log of its own; the commands start in the order given (give the
# longest first) as soon as a core is free. A finished command's log is
# printed whole under one line with its exit status and duration, so outputs
# never interleave. Exits 1 when any command failed, after all have finished.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

[ $# -gt 0 ] || { echo "usage: $0 'COMMAND'..." >&2; exit 2; }
slots=$(nproc)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

declare -A cmd_of start_of log_of
failed=0
running=0
n=0

finish() {
	local pid rc=0
	wait -n -p pid || rc=$?
	printf -- '--- exit %d after %ds: %s\n' "$rc" $(($(date +%s) - start_of[$pid])) "${cmd_of[$pid]}"
	cat "${log_of[$pid]}"
	[ "$rc" -eq 0 ] || failed=1
	running=$((running - 1))
}

for c in "$@"; do
	[ "$running" -lt "$slots" ] || finish
	n=$((n + 1))
	bash -euo pipefail -c "$c" >"$dir/$n.log" 2>&1 &
	pid=$!
	log_of[$pid]=$dir/$n.log
	cmd_of[$pid]=$c
	start_of[$pid]=$(date +%s)
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	finish
done
exit "$failed"

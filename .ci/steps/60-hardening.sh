# step: hardening: clang-tidy and cppcheck on src/ (default, lean and lean-boot builds), the mutation tool's file switch, footprint
#
# Runs after the README test command, so build/dev (with its
# compile_commands.json) exists. Every file under src/ is checked, so new
# library code is held to the same configuration (.clang-tidy,
# .ci/cppcheck-suppressions.txt).
cd "$(dirname "$0")/../.."

need=()
command -v clang-tidy >/dev/null || need+=(clang-tidy)
command -v cppcheck >/dev/null || need+=(cppcheck)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=600 update -q
	apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "${need[@]}"
fi
[ -f build/dev/compile_commands.json ] || { cmake --preset dev >/dev/null; cmake --build build/dev -j2; }

# One clang-tidy process per file: clang-tidy 14's analyzer keeps state
# from one file to the next, and over several files in one process it
# reports va_list leaks in code that has no va_list (bugs.llvm.org 41311);
# which files it hits depends on the heap layout.
tidy_one='out=$0/clang-tidy.d/$(printf %s "$1" | tr / _)
clang-tidy -p "$0" --quiet "$1" >"$out.out" 2>"$out.log" || touch "$out.failed"'
tidy() { # build dir, then the files
	local dir=$1
	shift
	echo "clang-tidy ($dir): $# files"
	rm -rf "$dir/clang-tidy.d" && mkdir -p "$dir/clang-tidy.d"
	printf '%s\0' "$@" | xargs -0 -n1 -P"$(nproc)" sh -c "$tidy_one" "$dir"
	if ls "$dir"/clang-tidy.d/*.failed >/dev/null 2>&1; then
		for f in "$dir"/clang-tidy.d/*.failed; do cat "${f%.failed}.out"; done
		echo "clang-tidy ($dir): findings above"
		exit 1
	fi
	echo "clang-tidy ($dir): clean"
}
cppcheck_db() { # build dir, then extra cppcheck arguments
	local dir=$1
	shift
	cppcheck -j"$(nproc)" --project="$dir/compile_commands.json" --file-filter='src/*' --std=c11 \
		--enable=warning,style,performance,portability --inline-suppr --error-exitcode=1 \
		--suppressions-list=.ci/cppcheck-suppressions.txt -q "$@"
	echo "cppcheck ($dir): clean"
}

mapfile -t srcs < <(git ls-files 'src/*.c')
tidy build/dev "${srcs[@]}"
cppcheck_db build/dev

# The option builds of the footprint images (55-lean.sh built them): code
# that only a left-out option reaches, or that one folds, is held to the
# same rules. There a condition on an option that is off is constant by
# design (MMCHAL_WITH_IOMMU && ...), so cppcheck's knownConditionTrueFalse
# is not a finding; the dev build above, with every option on, still
# checks that rule on the same lines.
for preset in lean lean-boot; do
	dir=build/$preset
	[ -f "$dir/compile_commands.json" ] || cmake --workflow --preset "$preset" >/dev/null
	mapfile -t osrcs < <(python3 -c '
import json, os, sys
d = json.load(open(sys.argv[1]))
root = os.getcwd() + "/src/"
print("\n".join(sorted({os.path.relpath(e["file"]) for e in d if e["file"].startswith(root)})))
' "$dir/compile_commands.json")
	tidy "$dir" "${osrcs[@]}"
	cppcheck_db "$dir" --suppress=knownConditionTrueFalse
done

# The bounded mutation sample runs in 80-bounded.sh, next to the fuzz
# targets, in the build directory (build/mutate) that this check sets up.
# Between two files the tool puts the first one's original object back: a
# mutant that fails every test, the last of sim/data.c, must not decide the
# next file's mutant, a leak in sim/core.c that no test result shows.
out=$(python3 tools/mutate/mutate.py --files sim/data.c sim/core.c --ops ret,del \
	--match 'return \(a \+ b - 1u\) / b;|free\(sim->rd_count\)' --quiet)
echo "$out" | grep -q '^sim/data.c  *1  *1  *0 ' &&
	echo "$out" | grep -q '^sim/core.c  *1  *0  *1 ' ||
	{ echo "mutate: a file switch leaked a mutant into the next file"; echo "$out"; exit 1; }
echo "mutate: the file switch restores the archive"
# An equivalent entry named with its function excuses that place only: of the
# three 'h->flags = 0;' deletions in request.c the one in
# mmchal_host_request() is listed, the other two must still be run and killed.
out=$(python3 tools/mutate/mutate.py --files src/core/request.c --ops del \
	--match '`h->flags = 0;`' --quiet)
echo "$out" | grep -q '^src/core/request.c  *3  *2  *0  *1 ' ||
	{ echo "mutate: a function-qualified equivalent entry excused the wrong places"; echo "$out"; exit 1; }
echo "mutate: a function-qualified equivalent entry excuses its own place only"

# The size budgets of issue 12 are printed (docs/footprint.md says what blocks
# them); the build fails when the library brings .data or .bss, when a
# configuration that meets its budget (boot-emmc-ro) no longer does, or when
# any configuration grows past its ceiling (tools/footprint.ceilings).
tools/footprint.sh --check-state --hold boot-emmc-ro --ceilings tools/footprint.ceilings

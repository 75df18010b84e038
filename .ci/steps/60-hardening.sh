# step: hardening: clang-tidy and cppcheck on src/, a bounded mutation sample, footprint
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

mapfile -t srcs < <(git ls-files 'src/*.c')

echo "clang-tidy: ${#srcs[@]} files"
clang-tidy -p build/dev --quiet "${srcs[@]}" 2>build/dev/clang-tidy.log >build/dev/clang-tidy.out ||
	{ cat build/dev/clang-tidy.out; echo "clang-tidy: findings above"; exit 1; }
echo "clang-tidy: clean"

cppcheck --project=build/dev/compile_commands.json --file-filter='src/*' --std=c11 \
	--enable=warning,style,performance,portability --inline-suppr --error-exitcode=1 \
	--suppressions-list=.ci/cppcheck-suppressions.txt -q
echo "cppcheck: clean"

# A bounded sample of mutants over all of src/; the full run is
# 'python3 tools/mutate/mutate.py' (tools/mutate/README.md).
python3 tools/mutate/mutate.py --sample "${MMCHAL_MUTATE_SAMPLE:-40}" \
	--seed "${MMCHAL_MUTATE_SEED:-12}" --fail-under 90 --timeout 120 --quiet

# The size budgets of issue 12 are printed (docs/footprint.md says what blocks
# them); the build fails when the library brings .data or .bss.
tools/footprint.sh --check-state

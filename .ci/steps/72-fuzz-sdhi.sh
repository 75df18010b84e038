# step: SDHI fuzz target: a glitching controller against the backends and the boot reader (45 s)
# fuzz_sdhi plays register reads from its input against the SDHI backends under
# the host core and the eMMC boot reader, under ASan+UBSan, from its corpus in
# tests/fuzz/sdhi/ (new inputs go to a scratch directory, not the tree).
cmake --preset fuzz >/dev/null
cmake --build build/fuzz --target fuzz_sdhi -j2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
build/fuzz/fuzz/fuzz_sdhi -timeout=5 -max_total_time=45 -print_final_stats=1 \
  -artifact_prefix="$scratch/" "$scratch" tests/fuzz/sdhi 2>&1 |
  tee "$scratch/log" | grep -E '^(stat::|==[0-9]+==ERROR|SUMMARY|fuzz_sdhi: property)' || true
units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/log")
echo "fuzz_sdhi: executed units ${units:-0}"
if ls "$scratch"/crash-* "$scratch"/timeout-* "$scratch"/leak-* >/dev/null 2>&1; then
  echo "fuzz_sdhi: finding kept in $scratch (copy it to tests/fuzz/sdhi/)" >&2
  trap - EXIT
  exit 1
fi
test -n "$units"

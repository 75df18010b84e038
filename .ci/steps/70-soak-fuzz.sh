# step: fault soak (10^4 requests, fixed seed), the request-path fuzz target (60 s)
# and the card-layer fuzz target (45 s)
# The soak drives random requests through the host core and every SDHI backend
# over the simulator under a seeded fault schedule and exits 1 on any broken
# check; the fuzz target runs under ASan+UBSan from its corpus in
# tests/fuzz/request/ (new inputs go to a scratch directory, not the tree).
# fuzz_card plays a hostile card against the card layer from tests/fuzz/card/
# in the same way.
cmake --preset release >/dev/null
cmake --build --preset release --target soak
build/release/bench/soak/soak --requests 10000 --seed 12

cmake --preset fuzz >/dev/null
cmake --build build/fuzz --target fuzz_request fuzz_card -j2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
build/fuzz/fuzz/fuzz_request -timeout=5 -max_total_time=60 -print_final_stats=1 \
  -artifact_prefix="$scratch/" "$scratch" tests/fuzz/request 2>&1 |
  tee "$scratch/log" | grep -E '^(stat::|==[0-9]+==ERROR|SUMMARY)' || true
units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/log")
echo "fuzz_request: executed units ${units:-0}"
if ls "$scratch"/crash-* "$scratch"/timeout-* "$scratch"/leak-* >/dev/null 2>&1; then
  echo "fuzz_request: finding kept in $scratch (copy it to tests/fuzz/request/)" >&2
  trap - EXIT
  exit 1
fi
test -n "$units"

scratch_card=$(mktemp -d)
trap 'rm -rf "$scratch" "$scratch_card"' EXIT
build/fuzz/fuzz/fuzz_card -timeout=5 -max_total_time=45 -print_final_stats=1 \
  -artifact_prefix="$scratch_card/" "$scratch_card" tests/fuzz/card 2>&1 |
  tee "$scratch_card/log" | grep -E '^(stat::|==[0-9]+==ERROR|SUMMARY)' || true
units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch_card/log")
echo "fuzz_card: executed units ${units:-0}"
if ls "$scratch_card"/crash-* "$scratch_card"/timeout-* "$scratch_card"/leak-* >/dev/null 2>&1; then
  echo "fuzz_card: finding kept in $scratch_card (copy it to tests/fuzz/card/)" >&2
  trap - EXIT
  exit 1
fi
test -n "$units"

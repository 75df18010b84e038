# step: bounded single-threaded runs, one per core: the mutation sample and every libFuzzer target (ASan+UBSan)
# Each of these runs on one core for a fixed time or workload, so two run
# side by side (.ci/pool.sh), longest first; each log is printed whole when
# its run ends, and the step fails when any run failed.
#
# The mutation sample: a bounded sample of mutants over all of src/, at least
# 90 % of the non-equivalent ones killed (the full run is
# 'python3 tools/mutate/mutate.py', tools/mutate/README.md). build/mutate is
# configured and built by 60-hardening.sh.
#
# The fuzz targets start from their kept corpora (tests/fuzz/<name>/, the
# shared device trees for fuzz_dt) and write new inputs to a scratch
# directory, not the tree (tools/fuzz-bounded.sh): the IOVA allocator and
# merge policy, the limits derivation, the device-tree probe, request
# validation with the planner and the merge policy, a hostile card against
# the card layer, a glitching SDHI controller against the backends and the
# boot reader, a glitching SD Host Controller against the SDHCI backend.
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

.ci/pool.sh \
	"python3 tools/mutate/mutate.py --sample ${MMCHAL_MUTATE_SAMPLE:-40} --seed ${MMCHAL_MUTATE_SEED:-12} --fail-under 90 --timeout 120 --quiet" \
	"tools/fuzz-bounded.sh fuzz_iova 60" \
	"tools/fuzz-bounded.sh fuzz_dt 60 ../shared/data/dt tests/fuzz/dt" \
	"tools/fuzz-bounded.sh fuzz_request 60 tests/fuzz/request" \
	"tools/fuzz-bounded.sh fuzz_card 45 tests/fuzz/card" \
	"tools/fuzz-bounded.sh fuzz_sdhi 45 tests/fuzz/sdhi" \
	"tools/fuzz-bounded.sh fuzz_sdhci 45 tests/fuzz/sdhci" \
	"tools/fuzz-bounded.sh fuzz_limits 30"

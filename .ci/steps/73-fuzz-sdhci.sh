# step: SDHCI fuzz target: a glitching SD Host Controller against the SDHCI backend (45 s)
# fuzz_sdhci plays register reads from its input against the SDHCI backend
# under the host core (PIO, SDMA, ADMA2 with 32- and 64-bit descriptors),
# under ASan+UBSan, from its corpus in tests/fuzz/sdhci/ (new inputs go to a
# scratch directory, not the tree).
cmake --preset fuzz >/dev/null
cmake --build build/fuzz --target fuzz_sdhci -j2
tools/fuzz-bounded.sh fuzz_sdhci 45 tests/fuzz/sdhci

# step: SDHI fuzz target: a glitching controller against the backends and the boot reader (45 s)
# fuzz_sdhi plays register reads from its input against the SDHI backends under
# the host core and the eMMC boot reader, under ASan+UBSan, from its corpus in
# tests/fuzz/sdhi/ (new inputs go to a scratch directory, not the tree).
cmake --preset fuzz >/dev/null
cmake --build build/fuzz --target fuzz_sdhi -j2
tools/fuzz-bounded.sh fuzz_sdhi 45 tests/fuzz/sdhi

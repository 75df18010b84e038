# step: SDHI request cost: register accesses within 1.5x the floor, instructions per request (RelWithDebInfo, callgrind)
# The gcc RelWithDebInfo tree of the build-type matrix (.ci/run) has the
# benchmark built already; configured the same way, it is reused as it is.
d=build/matrix-gcc-RelWithDebInfo
grep -qs '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$d/CMakeCache.txt" || rm -rf "$d"
cmake -S . -B "$d" -G Ninja -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$d" -j2 --target bench_request_sdhi
"$d/bench/request/bench_request_sdhi" --check --instructions

# step: SDHI request cost: register accesses within 1.5x the floor, instructions per request (RelWithDebInfo, callgrind)
cmake -S . -B build/sdhi-bench -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMMCHAL_BUILD_TESTS=ON -DMMCHAL_BUILD_BENCH=ON >/dev/null
cmake --build build/sdhi-bench -j2 --target bench_request_sdhi
build/sdhi-bench/bench/request/bench_request_sdhi --check --instructions

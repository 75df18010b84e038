# step: host core: completion races under ThreadSanitizer
# The tsan workflow builds the host-core tests with -fsanitize=thread and runs
# them; core_host_race hits each request with an interrupt, an expired timeout
# and an abort from three threads, 10^5 rounds per policy, exactly once.
cmake --workflow --preset tsan

# The request benchmark builds and runs once (figures are printed, not asserted).
cmake --preset release >/dev/null
cmake --build --preset release --target bench_request
build/release/bench/request/bench_request

# step: fault soak (10^4 requests, fixed seed), the request-path fuzz target (60 s)
# and the card-layer fuzz target (45 s)
# The soak drives random requests through the host core and every SDHI backend
# over the simulator under a seeded fault schedule and exits 1 on any broken
# check. fuzz_request (request validation, the planner, the merge policy) runs
# under ASan+UBSan from its corpus in tests/fuzz/request/, fuzz_card (a
# hostile card against the card layer) from tests/fuzz/card/; new inputs go
# to a scratch directory, not the tree (tools/fuzz-bounded.sh).
cmake --preset release >/dev/null
cmake --build --preset release --target soak
build/release/bench/soak/soak --requests 10000 --seed 12

cmake --preset fuzz >/dev/null
cmake --build build/fuzz --target fuzz_request fuzz_card -j2
tools/fuzz-bounded.sh fuzz_request 60 tests/fuzz/request
tools/fuzz-bounded.sh fuzz_card 45 tests/fuzz/card

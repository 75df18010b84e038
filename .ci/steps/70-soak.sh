# step: fault soak (10^4 requests, fixed seed)
# The soak drives random requests through the host core and every SDHI backend
# over the simulator under a seeded fault schedule and exits 1 on any broken
# check (bench/soak; the fuzz targets run in 80-bounded.sh).
cmake --preset release >/dev/null
cmake --build --preset release --target soak
build/release/bench/soak/soak --requests 10000 --seed 12

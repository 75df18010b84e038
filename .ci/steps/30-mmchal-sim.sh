# step: mmchal-sim --quick end to end (every byte verified; exit status checked)
# The whole stack on the simulated H3-like board: card init of an eMMC, an SD
# and an SDIO card, then the quick workload table, and the JSON form parsed.
cmake --build build/dev --target mmchal-sim -j2
build/dev/tools/sim/mmchal-sim --quick
build/dev/tools/sim/mmchal-sim --quick --card sd >/dev/null
build/dev/tools/sim/mmchal-sim --card sdio >/dev/null
build/dev/tools/sim/mmchal-sim --quick --json |
	python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["ok"] and len(d["runs"]) == 24'

# step: mmchal-sim --quick end to end (every byte verified; exit status checked)
# The whole stack on the simulated H3-like board: card init of an eMMC, an SD
# and an SDIO card, then the quick workload table, and the JSON form parsed.
cmake --build build/dev --target mmchal-sim -j2
build/dev/tools/sim/mmchal-sim --quick
build/dev/tools/sim/mmchal-sim --quick --card sd >/dev/null
build/dev/tools/sim/mmchal-sim --card sdio >/dev/null
build/dev/tools/sim/mmchal-sim --quick --json |
	python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["ok"] and len(d["runs"]) == 24'
# A board from a real device tree (when the device-tree front end is built)
if grep -q "MMCHAL_SIM_HAS_DT=1" build/dev/tools/sim/CMakeFiles/mmchal-sim.dir/flags.make 2>/dev/null; then
	build/dev/tools/sim/mmchal-sim --quick --soc-rev ES3.0 \
		--dtb ../shared/data/dt/r8a77951-salvator-xs.dtb >/dev/null
fi

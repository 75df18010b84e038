# step: mmchal-sim --quick end to end (every byte verified; exit status checked)
# The whole stack on the simulated H3-like board: card init of an eMMC, an SD
# and an SDIO card, then the quick workload table, and the JSON form parsed.
cmake --build build/dev --target mmchal-sim -j2
build/dev/tools/sim/mmchal-sim --quick
build/dev/tools/sim/mmchal-sim --quick --card sd >/dev/null
build/dev/tools/sim/mmchal-sim --card sdio >/dev/null
build/dev/tools/sim/mmchal-sim --quick --json >build/dev/mmchal-sim-quick.json
python3 - build/dev/mmchal-sim-quick.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ok"] is True and isinstance(d["board"], str), d.get("ok")
c = d["card"]
for k in ("type", "name", "sectors", "bus_width", "timing", "clock_hz",
          "bus_mb_s", "media_read_mb_s", "media_write_mb_s"):
    assert k in c, k
runs = d["runs"]
assert len(runs) == 32, len(runs)  # 4 setups x 4 workloads x 2 sizes
keys = ("workload", "setup", "req_size", "max_segs", "iommu", "merge", "mb_s",
        "bus_ratio", "bus_mb_s", "card_ratio", "card_limit_mb_s", "requests",
        "calls", "plans", "iova_pages_peak", "bounce_slots_peak", "bytes",
        "virtual_ns")
for r in runs:
    for k in keys:
        assert k in r, (k, r)
    assert r["workload"] in ("seq-read", "seq-write", "rand-read", "rand-write"), r
    assert set(r["plans"]) == {"iommu_merged", "direct", "bounced", "pio"}, r
    assert sum(r["plans"].values()) == r["requests"], r
    limit = min(r["bus_mb_s"], c["media_write_mb_s" if "write" in r["workload"] else "media_read_mb_s"])
    assert abs(r["card_limit_mb_s"] - limit) < 0.05, r
    assert abs(r["card_ratio"] - r["mb_s"] / limit) < 0.002, r
    # per-run IOMMU pages: one request's pages (merged), 1 (a page per request), 0 (no IOMMU)
    want = r["req_size"] // 4096 if r["merge"] else (1 if r["iommu"] else 0)
    assert r["iova_pages_peak"] == want, r
setups = {(r["setup"], r["iommu"], r["merge"], r["max_segs"]) for r in runs}
assert setups == {("idmac", False, False, 1), ("sysdmac", False, False, 32),
                  ("iommu-nomerge", True, False, 1), ("idmac+iommu", True, True, 512)}, setups
s = d["summary"]
assert s["req_size"] == 524288 and s["merged_max_segs"] == 512, s
assert s["seed_ratio"] == 1.63 and s["ratio"] >= 1.5, s
assert abs(s["ratio"] - s["merged_mb_s"] / s["segs1_mb_s"]) < 0.01, s
assert 0 < s["merged_bus_ratio"] <= 1 and 0 < s["merged_card_ratio"] <= 1, s
PY
# A board from a real device tree (when the device-tree front end is built)
if grep -q "MMCHAL_SIM_HAS_DT=1" build/dev/tools/sim/CMakeFiles/mmchal-sim.dir/flags.make 2>/dev/null; then
	build/dev/tools/sim/mmchal-sim --quick --soc-rev ES3.0 \
		--dtb ../shared/data/dt/r8a77951-salvator-xs.dtb >/dev/null
fi

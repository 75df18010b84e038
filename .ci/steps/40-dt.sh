# step: device-tree probe: mmchal-probe on every shared board (fuzz_dt runs in 80-bounded.sh)
# Runs from the project root after the common steps (build/dev is configured
# by then and rebuilt here as needed).
shared=../shared/data/dt

cmake --build build/dev -j2 --target mmchal-probe
probe=build/dev/tools/probe/mmchal-probe
for f in "$shared"/*.dtb; do
	# Both formats must succeed; the table goes to the log in short form.
	"$probe" --json "$f" >"build/dev/probe-$(basename "$f" .dtb).json"
	"$probe" "$f" >"build/dev/probe-$(basename "$f" .dtb).txt"
	printf '%s: %s SDHI node(s):' "$(basename "$f")" \
		"$(sed -n 's/^SDHI nodes: *//p' "build/dev/probe-$(basename "$f" .dtb).txt")"
	awk '/^\//{p=$1} /^  status/{s=$2} /^  backend/{printf " %s(%s,%s", p, s, $2}
	     /^  bus_shift/{printf ",shift %s)", $2}' "build/dev/probe-$(basename "$f" .dtb).txt"
	echo
done
# Bad input: exit status 1 and one line on stderr.
head -c 1000 "$shared/r8a7790-lager.dtb" >build/dev/probe-truncated.dtb
rc=0
"$probe" build/dev/probe-truncated.dtb 2>build/dev/probe-truncated.err || rc=$?
[ "$rc" -eq 1 ] && [ "$(wc -l <build/dev/probe-truncated.err)" -eq 1 ] ||
	{ echo "mmchal-probe: truncated blob gave status $rc"; cat build/dev/probe-truncated.err; exit 1; }
echo "truncated blob: $(cat build/dev/probe-truncated.err)"

#!/usr/bin/env bash
# Footprint of the library per configuration, measured on linked Cortex-M4
# images: -Os, -ffunction-sections -fdata-sections, --gc-sections, one small
# main per configuration (tests/footprint/fp_<config>.c) and no C library
# start-up. What the library adds is read from the link map: the input
# sections of libmmchal.a members that survived garbage collection.
#
#   tools/footprint.sh [--check|--check-state] [--hold NAME]... [--ceilings FILE] [--write-doc] [--build DIR]
#
# Prints one line per configuration,
#   footprint config=NAME text=N rodata=N data=N bss=N
# then the per-component table (text + rodata, bytes). Each configuration's
# library is built with its options (MMCHAL_BACKENDS, MMCHAL_WITH_IOMMU,
# MMCHAL_WITH_BOUNCE, MMCHAL_EMMC_RO: docs/footprint.md).
#   --check      exit 1 when the library has .data or .bss in any image, or a
#                configuration is over its budget (issue budgets, text+rodata)
#   --check-state  exit 1 only for .data or .bss (budgets are printed, not enforced)
#   --hold NAME  also exit 1 when configuration NAME is over its budget (a budget
#                that is met stays met); may be given more than once
#   --ceilings FILE  also exit 1 when a configuration is larger than its line
#                "NAME BYTES" in FILE (text + rodata; # starts a comment): a
#                configuration over its budget may not grow unnoticed
#   --write-doc  replace the table between the markers in docs/footprint.md
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
write_doc=0
build=build/footprint
hold=()
ceilings=
while [ $# -gt 0 ]; do
	case "$1" in
	--check) check=1 ;;
	--check-state) check=2 ;;
	--write-doc) write_doc=1 ;;
	--build) build=$2; shift ;;
	--hold) hold+=("$2"); shift ;;
	--ceilings) ceilings=$2; shift ;;
	*) echo "usage: $0 [--check|--check-state] [--hold NAME]... [--ceilings FILE] [--write-doc] [--build DIR]" >&2; exit 2 ;;
	esac
	shift
done

CC=arm-none-eabi-gcc
command -v "$CC" >/dev/null || { echo "footprint: $CC not found" >&2; exit 1; }
CFLAGS=(-mthumb -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -Os -std=c11
	-ffunction-sections -fdata-sections -Wall -Wextra -Werror)


# config : backends : cmake options (space-separated) : budget (text + rodata, bytes)
lean="-DMMCHAL_WITH_IOMMU=OFF -DMMCHAL_WITH_BOUNCE=OFF -DMMCHAL_FAST_PATH=OFF -DMMCHAL_WITH_STATS=OFF"
# what a polled firmware on one memory card never runs (the lean-boot preset)
boot="$lean -DMMCHAL_WITH_SDIO=OFF -DMMCHAL_WITH_HS200=OFF -DMMCHAL_WITH_IRQ=OFF"
configs=(
	"mcu-pio:pio:$boot:8192"
	"bootloader-idmac:sdhi_idmac:$boot:7168"
	"full:sdhi_idmac;sdhi_sysdmac;pio::32768"
	"boot-emmc-ro:sdhi_idmac:$lean -DMMCHAL_EMMC_RO=ON:5120"
)

# Which library object belongs to which component (archive members lose
# their directory, so the file names decide).
component_of() {
	case "$1" in
	limits.c.obj) echo "limits derivation" ;;
	limits_explain.c.obj | strbuf.c.obj) echo "limits explanation text" ;;
	error.c.obj) echo "error strings" ;;
	bus.c.obj | port.c.obj) echo "port + bus accessor" ;;
	iova*.c.obj | domain.c.obj | merge.c.obj | iommu_off.c.obj) echo "IOMMU layer" ;;
	bounce.c.obj | bounce_off.c.obj) echo "bounce pool" ;;
	host*.c.obj | request*.c.obj | completion*.c.obj) echo "host core (host.c, request.c)" ;;
	dma_plan*.c.obj) echo "request check + DMA planner" ;;
	card*.c.obj) echo "card layer" ;;
	sdhi_boot.c.obj) echo "eMMC boot reader" ;;
	sdhi*.c.obj | idmac*.c.obj | sysdmac*.c.obj | pio*.c.obj) echo "SDHI backends" ;;
	sdhci*.c.obj) echo "SDHCI backend" ;;
	mock*.c.obj) echo "mock backend" ;;
	dt*.c.obj | fdt*.c.obj) echo "device-tree probe" ;;
	*) echo "other (${1%.c.obj}.c)" ;;
	esac
}

if [ -n "$ceilings" ] && [ ! -r "$ceilings" ]; then
	echo "footprint: cannot read $ceilings" >&2
	exit 2
fi

mkdir -p "$build"
results=()
table="$build/components.tsv"
: >"$table"
for entry in "${configs[@]}"; do
	IFS=: read -r name backends extra budget <<<"$entry"
	read -r -a extra_args <<<"$extra"
	libdir="$build/lib-$name"
	if ! cmake -S . -B "$libdir" -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-none-eabi-cm4.cmake \
		-DCMAKE_BUILD_TYPE=MinSizeRel -DMMCHAL_BUILD_TESTS=OFF -DMMCHAL_FREESTANDING_CHECK=OFF \
		"-DMMCHAL_BACKENDS=$backends" "-DCMAKE_C_FLAGS=-mthumb -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16 -ffunction-sections -fdata-sections" \
		"${extra_args[@]}" >"$libdir.log" 2>&1; then
		cat "$libdir.log"
		exit 1
	fi
	cmake --build "$libdir" --target mmchal -j2 >>"$libdir.log" 2>&1 || { tail -40 "$libdir.log"; exit 1; }
	src="tests/footprint/fp_${name//-/_}.c"
	elf="$build/$name.elf"
	"$CC" "${CFLAGS[@]}" -Iinclude -I"$libdir/include" -I"$libdir" \
		tests/footprint/fp_common.c "$src" -nostartfiles -Wl,--gc-sections -Wl,-e,fp_entry \
		-Wl,-Map="$build/$name.map" --specs=nano.specs "$libdir/libmmchal.a" -lc -o "$elf"
	python3 - "$build/$name.map" "$name" "$budget" "$table" <<'PY' >"$build/$name.line"
import re, sys
path, name, budget, table = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
text = open(path).read()
text = text[text.index("Linker script and memory map"):]
lines = text.split("\n")
size = {}
pend = None
one = re.compile(r"^ (\.[\w.$-]+|COMMON)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S.*)$")
two = re.compile(r"^\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S.*)$")
for ln in lines:
    m = one.match(ln)
    if m:
        sec, sz, obj = m.group(1), int(m.group(2), 16), m.group(3)
    else:
        if pend and two.match(ln):
            m2 = two.match(ln)
            sec, sz, obj = pend, int(m2.group(1), 16), m2.group(2)
        else:
            pend = ln.strip() if re.match(r"^ \.[\w.$-]+$", ln) else None
            continue
    pend = None
    mm = re.search(r"libmmchal\.a\((.+)\)$", obj)
    if not mm:
        continue
    if sec.startswith(".text"):
        kind = "text"
    elif sec.startswith(".rodata"):
        kind = "rodata"
    elif sec.startswith(".data"):
        kind = "data"
    elif sec.startswith(".bss") or sec == "COMMON":
        kind = "bss"
    else:
        continue
    d = size.setdefault(mm.group(1), {"text": 0, "rodata": 0, "data": 0, "bss": 0})
    d[kind] += sz
tot = {k: sum(d[k] for d in size.values()) for k in ("text", "rodata", "data", "bss")}
with open(table, "a") as t:
    for obj, d in sorted(size.items()):
        t.write("%s\t%s\t%d\n" % (name, obj, d["text"] + d["rodata"]))
print("footprint config=%s text=%d rodata=%d data=%d bss=%d" %
      (name, tot["text"], tot["rodata"], tot["data"], tot["bss"]))
over = tot["text"] + tot["rodata"] > budget
bad = tot["data"] + tot["bss"] != 0
print("STATUS %s %d %d %s" % (name, tot["text"] + tot["rodata"], budget,
                             ",".join(w for w, f in (("over", over), ("state", bad)) if f)
                             or "ok"))
PY
	results+=("$name")
done

fail=0
fail_state=0
fail_hold=0
for name in "${results[@]}"; do
	grep '^footprint ' "$build/$name.line"
done
echo

# Per-component table: text + rodata per configuration.
out=$(python3 - "$table" "${results[@]}" <<'PY'
import sys
table, configs = sys.argv[1], sys.argv[2:]
rows = {}
for ln in open(table):
    cfg, obj, n = ln.rstrip("\n").split("\t")
    rows.setdefault(obj, {})[cfg] = int(n)
for obj in sorted(rows):
    print("%s\t%s" % (obj, "\t".join(str(rows[obj].get(c, 0)) for c in configs)))
PY
)
declare -A comp_sum
comps=()
while IFS=$'\t' read -r obj rest; do
	[ -n "$obj" ] || continue
	c=$(component_of "$obj")
	IFS=$'\t' read -r -a vals <<<"$rest"
	for i in "${!vals[@]}"; do
		k="$c|$i"
		comp_sum[$k]=$(( ${comp_sum[$k]:-0} + vals[i] ))
	done
	[[ " ${comps[*]} " == *" $c "* ]] || comps+=("$c")
done <<<"$out"

hdr=$(printf '| %-32s |' "component (text + rodata, bytes)")
sep="|----------------------------------|"
for name in "${results[@]}"; do
	hdr+=$(printf ' %16s |' "$name")
	sep+="-----------------:|"
done
doc="$hdr"$'\n'"$sep"
for c in "${comps[@]}"; do
	row=$(printf '| %-32s |' "$c")
	for i in "${!results[@]}"; do
		v=${comp_sum["$c|$i"]:-0}
		if [ "$v" = 0 ]; then row+=$(printf ' %16s |' "-"); else row+=$(printf ' %16d |' "$v"); fi
	done
	doc+=$'\n'"$row"
done
row=$(printf '| %-32s |' "**library total**")
for name in "${results[@]}"; do
	read -r _ _ tot budget st < <(grep '^STATUS ' "$build/$name.line")
	row+=$(printf ' %16s |' "$tot / $budget")
	case "$st" in
	*over*) echo "footprint: $name: over budget (text+rodata $tot, budget $budget)"
		fail=1
		[[ " ${hold[*]} " == *" $name "* ]] && fail_hold=1 ;;
	esac
	case "$st" in
	*state*) echo "footprint: $name: the library has .data or .bss (must be 0)"
		fail=1; fail_state=1 ;;
	esac
done
doc+=$'\n'"$row"
echo "$doc"
lines=$(for name in "${results[@]}"; do grep '^footprint ' "$build/$name.line"; done)
doc='```'$'\n'"$lines"$'\n''```'$'\n\n'"$doc"

if [ "$write_doc" = 1 ]; then
	python3 - docs/footprint.md "$doc" <<'PY'
import sys
path, table = sys.argv[1], sys.argv[2]
s = open(path).read()
a, b = "<!-- footprint:begin -->", "<!-- footprint:end -->"
i, j = s.index(a) + len(a), s.index(b)
open(path, "w").write(s[:i] + "\n" + table + "\n" + s[j:])
PY
	echo "footprint: docs/footprint.md updated"
fi
if [ "$check" = 1 ] && [ "$fail" = 1 ]; then
	exit 1
fi
if [ "$check" = 2 ] && [ "$fail_state" = 1 ]; then
	exit 1
fi
if [ "$fail_hold" = 1 ]; then
	echo "footprint: a held budget is exceeded (--hold ${hold[*]})"
	exit 1
fi
if [ -n "$ceilings" ]; then
	fail_ceiling=0
	for name in "${results[@]}"; do
		read -r _ _ tot _ _ < <(grep '^STATUS ' "$build/$name.line")
		ceil=$(awk -v n="$name" '{ sub(/#.*/, "") } $1 == n { print $2 }' "$ceilings")
		if [ -z "$ceil" ]; then
			echo "footprint: $name has no line in $ceilings"
			fail_ceiling=1
		elif [ "$tot" -gt "$ceil" ]; then
			echo "footprint: $name grew: text+rodata $tot, ceiling $ceil (+$((tot - ceil)))"
			fail_ceiling=1
		elif [ "$tot" -lt "$ceil" ]; then
			echo "footprint: $name: $tot, $((ceil - tot)) below its ceiling $ceil (lower it in $ceilings)"
		fi
	done
	if [ "$fail_ceiling" = 1 ]; then
		echo "footprint: a configuration is over its ceiling ($ceilings)"
		exit 1
	fi
	echo "footprint: every configuration within its ceiling ($ceilings)"
fi

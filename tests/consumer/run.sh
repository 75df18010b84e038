#!/usr/bin/env bash
# Proves mmchal is consumable the three supported ways, for a library built
# with libfdt and one built without:
#   (a) installed, through find_package(mmchal CONFIG)   -> mmchal::mmchal
#   (b) installed, through pkg-config --cflags --libs mmchal
#   (c) as a source subdirectory, add_subdirectory()       -> mmchal::mmchal
# Each consumer builds tests/consumer/main.c, runs it and its output is checked.
#
# usage: tests/consumer/run.sh <build-dir-parent>
#   everything goes to <build-dir-parent>/consumer/ (wiped first).
# Exits non-zero on the first failure.
set -euo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 <build-dir-parent>" >&2
	exit 2
fi
src=$(cd "$(dirname "$0")/../.." && pwd)
here="$src/tests/consumer"
mkdir -p "$1"
work="$(cd "$1" && pwd)/consumer"
rm -rf "$work"
mkdir -p "$work"
cc=${CC:-cc}
jobs=$(nproc 2>/dev/null || echo 2)
# Strict, so a public header that warns in a consumer's build fails here.
strict="-std=c11 -Wall -Wextra -Wpedantic -Werror"

# No library of the host build under test leaks in from elsewhere.
export CMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
trap 'echo "FAIL: command failed (line $LINENO); build logs: $work/*.log" >&2' ERR

# check <label> <expected libfdt 0|1> <program>
check() {
	local label=$1 fdt=$2 prog=$3 out
	out=$("$prog") || fail "$label: consumer exited non-zero"
	printf '%s\n' "$out" | sed "s/^/    [$label] /"
	grep -Eq "^mmchal [0-9]+\.[0-9]+\.[0-9]+ libfdt=$fdt\$" <<<"$out" ||
		fail "$label: expected a version line with libfdt=$fdt"
	grep -qx "einval: invalid argument" <<<"$out" || fail "$label: mmchal_strerror"
	grep -qx "derive(NULL): invalid argument" <<<"$out" || fail "$label: derive(NULL)"
	grep -qx "derive(pio): 0 max_blk_size=512 max_blk_count=65535" <<<"$out" ||
		fail "$label: derive(pio)"
	echo "ok: $label"
}

# variant <name> <MMCHAL_WITH_LIBFDT> <expected MMCHAL_HAVE_LIBFDT>
variant() {
	local name=$1 with_fdt=$2 fdt=$3
	local dir="$work/$name" prefix="$work/$name/prefix"
	local pc pcdir

	echo "=== $name (MMCHAL_WITH_LIBFDT=$with_fdt)"
	# A host library build only: no tests, tools, simulator or benchmarks.
	cmake -S "$src" -B "$dir/lib" -DCMAKE_BUILD_TYPE=Release -DMMCHAL_WITH_LIBFDT="$with_fdt" \
		-DMMCHAL_BUILD_TESTS=OFF -DMMCHAL_BUILD_TOOLS=OFF -DMMCHAL_BUILD_SIM=OFF \
		-DMMCHAL_BUILD_BENCH=OFF -DMMCHAL_FREESTANDING_CHECK=OFF >"$dir.log"
	cmake --build "$dir/lib" -j "$jobs" >>"$dir.log"
	# Installed somewhere other than the configured prefix: both the CMake
	# package and the .pc must be relocatable.
	cmake --install "$dir/lib" --prefix "$prefix" >>"$dir.log"
	[ -f "$prefix/include/mmchal/config.h" ] || fail "$name: config.h not installed"

	# (a) find_package
	cmake -S "$here/find_package" -B "$dir/find_package" -DCMAKE_PREFIX_PATH="$prefix" \
		-DCMAKE_C_FLAGS="$strict" >>"$dir.log"
	grep -q "^mmchal_DIR:PATH=$prefix/" "$dir/find_package/CMakeCache.txt" ||
		fail "$name: find_package found mmchal outside $prefix"
	cmake --build "$dir/find_package" >>"$dir.log"
	check "$name find_package" "$fdt" "$dir/find_package/consumer"
	# A package built with libfdt must say so when the consumer has none.
	if [ "$fdt" = 1 ]; then
		if cmake -S "$here/find_package" -B "$dir/find_package_nofdt" \
			-DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_DISABLE_FIND_PACKAGE_LibFDT=ON \
			>"$dir/nofdt.log" 2>&1; then
			fail "$name: find_package succeeded without libfdt"
		fi
		grep -q "built with libfdt, which was not found" "$dir/nofdt.log" ||
			fail "$name: no clear message when libfdt is missing"
		echo "ok: $name find_package without libfdt fails clearly"
	fi

	# (b) pkg-config, looking only at the installed prefix
	pc=$(find "$prefix" -name mmchal.pc -print -quit)
	[ -n "$pc" ] || fail "$name: mmchal.pc not installed"
	pcdir=$(dirname "$pc")
	# shellcheck disable=SC2046,SC2086 # word splitting of the flags is intended
	"$cc" $strict -o "$dir/pkgconfig_consumer" "$here/main.c" \
		$(PKG_CONFIG_LIBDIR="$pcdir" pkg-config --cflags --libs mmchal)
	check "$name pkg-config" "$fdt" "$dir/pkgconfig_consumer"
	# A static archive's own dependencies are in Libs.private: only --static lists them.
	static_libs=$(PKG_CONFIG_LIBDIR="$pcdir" pkg-config --static --libs mmchal)
	if [ "$fdt" = 1 ]; then
		grep -qw -- "-lfdt" <<<"$static_libs" || fail "$name: pkg-config --static lacks -lfdt"
	else
		! grep -qw -- "-lfdt" <<<"$static_libs" || fail "$name: -lfdt without libfdt"
	fi
	# shellcheck disable=SC2046,SC2086 # word splitting of the flags is intended
	"$cc" $strict -o "$dir/pkgconfig_static_consumer" "$here/main.c" \
		$(PKG_CONFIG_LIBDIR="$pcdir" pkg-config --cflags mmchal) $static_libs
	check "$name pkg-config --static" "$fdt" "$dir/pkgconfig_static_consumer"

	# (c) add_subdirectory of the source tree
	cmake -S "$here/subdirectory" -B "$dir/subdirectory" -DMMCHAL_SOURCE_DIR="$src" \
		-DMMCHAL_WITH_LIBFDT="$with_fdt" -DCMAKE_C_FLAGS="$strict" >>"$dir.log"
	cmake --build "$dir/subdirectory" -j "$jobs" >>"$dir.log"
	check "$name add_subdirectory" "$fdt" "$dir/subdirectory/consumer"
}

variant with-libfdt ON 1
variant without-libfdt OFF 0
echo "all consumer checks passed"

#!/usr/bin/env bash
# Quick start: build and run the demo, or build and run every test.
#
#   tools/quickstart.sh demo   # configure (release), build mmchal-sim, run it on the
#                              # default simulated board (extra arguments go to it)
#   tools/quickstart.sh test   # configure (debug), build everything, run ctest
#
# Run as root on a fresh Debian machine, each command first installs the
# Debian packages it needs when they are missing. As another user it names
# the missing packages and stops.
set -euo pipefail

cd "$(dirname "$0")/.."

demo_pkgs=(cmake make gcc libc6-dev)
test_pkgs=(cmake make gcc libc6-dev pkg-config libcmocka-dev libfdt-dev device-tree-compiler)

ensure_packages() {
	local missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "quickstart: missing Debian packages: ${missing[*]}" >&2
		echo "quickstart: run as root, or: sudo apt-get install ${missing[*]}" >&2
		exit 1
	fi
	echo "quickstart: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# Wait for another package manager (unattended-upgrades, a second shell)
	# instead of failing at once on the dpkg lock.
	local lock=(-o DPkg::Lock::Timeout=600)
	apt-get "${lock[@]}" update -q
	apt-get "${lock[@]}" install -y -q --no-install-recommends "${missing[@]}"
}

case "${1:-}" in
demo)
	ensure_packages "${demo_pkgs[@]}"
	cmake --preset release
	cmake --build --preset release --target mmchal-sim
	shift
	./build/release/tools/sim/mmchal-sim "$@"
	;;
test)
	ensure_packages "${test_pkgs[@]}"
	cmake --workflow --preset dev
	;;
*)
	echo "usage: $0 demo|test" >&2
	exit 2
	;;
esac

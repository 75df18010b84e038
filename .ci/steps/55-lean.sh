# step: lean library: eMMC-only read-only build without IOMMU layer, bounce pool and fast path, with and without counters; the lean-boot library and each boot-loader option alone (tests/lean); libraries with one SDHI backend; a build without libfdt
# The build options of docs/footprint.md, on the host: eMMC identification
# and reads over the simulated board still work, writes, erases and the
# left-out layers are refused, every request is checked and planned in full;
# without counters the host says so and works the same.
cd "$(dirname "$0")/../.."
cmake --workflow --preset lean
cmake --workflow --preset lean-nostats
# The library of the lean footprint images (mcu-pio, bootloader-idmac): SD
# and eMMC read and written, SDIO cards detected and refused, eMMC below
# HS200, polled only (tests/lean).
cmake --workflow --preset lean-boot

# Each of the options a boot loader leaves out, alone: the library and
# tests/lean build warning-free and pass with the rest of the library whole.
for opt in MMCHAL_WITH_SDIO MMCHAL_WITH_HS200 MMCHAL_WITH_IRQ; do
	dir=build/only-$opt
	grep -qs '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt" || rm -rf "$dir"
	cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug "-D$opt=OFF" \
		-DMMCHAL_BUILD_BENCH=OFF -DMMCHAL_BUILD_TOOLS=OFF >/dev/null
	cmake --build "$dir" -j2 >/dev/null
	ctest --test-dir "$dir" -j2 --output-on-failure | tail -3
done

# A library with one SDHI backend (a boot loader's choice) builds with its
# tests and passes them: tests that need a left-out backend are not built,
# bad input is refused the same way (docs/footprint.md, MMCHAL_BACKENDS).
for backends in sdhi_idmac sdhi_sysdmac; do
	dir=build/one-$backends
	grep -qs '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt" || rm -rf "$dir"
	cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug "-DMMCHAL_BACKENDS=$backends" \
		-DMMCHAL_BUILD_BENCH=OFF -DMMCHAL_BUILD_TOOLS=OFF >/dev/null
	cmake --build "$dir" -j2 >/dev/null
	ctest --test-dir "$dir" -j2 --output-on-failure | tail -3
done

# Without libfdt (MMCHAL_WITH_LIBFDT=OFF, as on a machine that lacks it): the
# library, its tools and its tests build and pass without the device-tree
# front end.
dir=build/no-libfdt
grep -qs '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$dir/CMakeCache.txt" || rm -rf "$dir"
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DMMCHAL_WITH_LIBFDT=OFF -DMMCHAL_BUILD_BENCH=OFF >/dev/null
cmake --build "$dir" -j2 >/dev/null
ctest --test-dir "$dir" -j2 --output-on-failure | tail -3

# step: SDHCI backend against QEMU's own SD card (RV64 virt + sdhci-pci, Cortex-A9 Zynq)
# Builds the rv64 and arm-a9 presets and runs the qemu-sd label of each: every
# run makes a fresh SDSC (64 MiB) or SDHC (4 GiB, sparse) image, boots the
# guest test and checks the written sectors in the image file afterwards.
for p in rv64 arm-a9; do
	cmake --preset "$p" >/dev/null
	cmake --build --preset "$p"
	ctest --preset "$p" -L qemu-sd
done

# step: lean library: eMMC-only read-only build without IOMMU layer, bounce pool and fast path, with and without counters (tests/lean)
# The build options of docs/footprint.md, on the host: eMMC identification
# and reads over the simulated board still work, writes, erases and the
# left-out layers are refused, every request is checked and planned in full;
# without counters the host says so and works the same.
cd "$(dirname "$0")/../.."
cmake --workflow --preset lean
cmake --workflow --preset lean-nostats

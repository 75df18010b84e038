# step: lean library: eMMC-only read-only build without IOMMU layer and bounce pool (tests/lean)
# The build options of docs/footprint.md, on the host: eMMC identification
# and reads over the simulated board still work, writes, erases and the
# left-out layers are refused.
cd "$(dirname "$0")/../.."
cmake --workflow --preset lean

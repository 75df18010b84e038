# RV64IMAC, LP64 ABI, medany code model (riscv64-unknown-elf-gcc).
#
# Debian's riscv64-unknown-elf has no C library: even <stdint.h> needs
# -ffreestanding to come from the compiler's own headers. The ISA string is
# kept exactly rv64imac: an extra "_z..." part silently selects another
# multilib (and libgcc). Tests run under QEMU's virt board; see tests/target/.
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_C_FLAGS_INIT "-march=rv64imac -mabi=lp64 -mcmodel=medany -ffreestanding")
set(MMCHAL_TOOLCHAIN_ROOT /usr/lib/riscv64-unknown-elf)
include(${CMAKE_CURRENT_LIST_DIR}/bare-metal-common.cmake)

# ctest prepends this to every target test; the ELF path comes last.
# -bios none: no OpenSBI, the ELF starts in M-mode at 0x80000000.
set(MMCHAL_QEMU_RISCV64 qemu-system-riscv64 CACHE STRING "QEMU for RV64 target tests")
set(CMAKE_CROSSCOMPILING_EMULATOR
    ${MMCHAL_QEMU_RISCV64} -M virt -bios none -nographic -kernel)
set(MMCHAL_TARGET_PLATFORM virt-rv64)

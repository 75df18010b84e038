# Cortex-M4 with single-precision FPU, hard-float ABI (arm-none-eabi-gcc).
#
# Tests run under QEMU's mps2-an386 board (Cortex-M4 FPGA image) with
# semihosting for output and exit status; see tests/target/.
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_C_FLAGS_INIT "-mthumb -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16")
set(MMCHAL_TOOLCHAIN_ROOT /usr/lib/arm-none-eabi)
include(${CMAKE_CURRENT_LIST_DIR}/bare-metal-common.cmake)

# ctest prepends this to every target test; the ELF path comes last.
# Semihosting goes to stdout through sh0 (with -nographic it would go to stderr).
set(MMCHAL_QEMU_ARM qemu-system-arm CACHE STRING "QEMU for Cortex-M4 target tests")
set(CMAKE_CROSSCOMPILING_EMULATOR
    ${MMCHAL_QEMU_ARM} -M mps2-an386 -display none -monitor none -serial none
    -chardev stdio,id=sh0 -semihosting-config enable=on,target=native,chardev=sh0
    -kernel)
set(MMCHAL_TARGET_PLATFORM mps2-an386)

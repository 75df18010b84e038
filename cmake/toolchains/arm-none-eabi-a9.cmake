# Cortex-A9 in ARM state, soft float (arm-none-eabi-gcc).
#
# Tests run under QEMU's xilinx-zynq-a9 board (Zynq-7000) with semihosting
# for output and exit status; see tests/target/. The MMU stays off, so all
# memory is strongly ordered and an unaligned access would fault: the code is
# built without unaligned accesses.
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_C_FLAGS_INIT "-marm -mcpu=cortex-a9 -mfloat-abi=soft -mno-unaligned-access")
set(MMCHAL_TOOLCHAIN_ROOT /usr/lib/arm-none-eabi)
include(${CMAKE_CURRENT_LIST_DIR}/bare-metal-common.cmake)

# ctest prepends this to every target test; the ELF path comes last.
# Semihosting goes to stdout through sh0; the UARTs are not used.
set(MMCHAL_QEMU_ARM qemu-system-arm CACHE STRING "QEMU for Cortex-A9 target tests")
set(CMAKE_CROSSCOMPILING_EMULATOR
    ${MMCHAL_QEMU_ARM} -M xilinx-zynq-a9 -display none -monitor none -serial null
    -chardev stdio,id=sh0 -semihosting-config enable=on,target=native,chardev=sh0
    -kernel)
set(MMCHAL_TARGET_PLATFORM zynq-a9)

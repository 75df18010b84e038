# Cortex-M4 with single-precision FPU, hard-float ABI (arm-none-eabi-gcc).
#
# Tests run under QEMU's mps2-an386 board (Cortex-M4 FPGA image) with
# semihosting for output and exit status; see tests/target/.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)

set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_C_FLAGS_INIT "-mthumb -mcpu=cortex-m4 -mfloat-abi=hard -mfpu=fpv4-sp-d16")

# There is no host to link a test program for during compiler checks.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# Dependencies (libfdt, ...) come from the target's sysroot only, never from
# the host. An empty CMAKE_FIND_ROOT_PATH would leave host paths unre-rooted,
# so default it to the toolchain's own tree. Programs (QEMU, nm) are host tools.
if(NOT CMAKE_FIND_ROOT_PATH)
  set(CMAKE_FIND_ROOT_PATH /usr/lib/arm-none-eabi)
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Without this pkg-config reports the host's cmocka/libfdt.
set(ENV{PKG_CONFIG_LIBDIR} "${CMAKE_FIND_ROOT_PATH}/lib/pkgconfig:${CMAKE_FIND_ROOT_PATH}/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${CMAKE_FIND_ROOT_PATH}")

# ctest prepends this to every target test; the ELF path comes last.
# Semihosting goes to stdout through sh0 (with -nographic it would go to stderr).
set(MMCHAL_QEMU_ARM qemu-system-arm CACHE STRING "QEMU for Cortex-M4 target tests")
set(CMAKE_CROSSCOMPILING_EMULATOR
    ${MMCHAL_QEMU_ARM} -M mps2-an386 -display none -monitor none -serial none
    -chardev stdio,id=sh0 -semihosting-config enable=on,target=native,chardev=sh0
    -kernel)
set(MMCHAL_TARGET_PLATFORM mps2-an386)

# Shared part of the bare-metal toolchain files. The including file sets
# MMCHAL_TOOLCHAIN_ROOT (the toolchain's own tree) before including this.
set(CMAKE_SYSTEM_NAME Generic)

# There is no host to link a test program for during compiler checks.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

# Dependencies (libfdt, ...) come from the target's sysroot only, never from
# the host. An empty CMAKE_FIND_ROOT_PATH would leave host paths unre-rooted,
# so default it to the toolchain's own tree. Programs (QEMU, nm) are host tools.
if(NOT CMAKE_FIND_ROOT_PATH)
  set(CMAKE_FIND_ROOT_PATH ${MMCHAL_TOOLCHAIN_ROOT})
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Without this pkg-config reports the host's cmocka/libfdt.
set(ENV{PKG_CONFIG_LIBDIR} "${CMAKE_FIND_ROOT_PATH}/lib/pkgconfig:${CMAKE_FIND_ROOT_PATH}/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${CMAKE_FIND_ROOT_PATH}")

# On-target tests: PORTABLE CMocka tests built for the cross target, linked
# with the runner in tests/target/ and run under QEMU through
# CMAKE_CROSSCOMPILING_EMULATOR (set by the toolchain file).
#
# mmchal_target_add_test(NAME <name> SOURCES <files...> [LIBS <targets...>]
#                        [TIMEOUT <s>])
#
# The runner provides <cmocka.h> (the PORTABLE subset), <string.h> and
# <setjmp.h>; nothing from a C library is linked (-nostdlib, libgcc only), so a
# test that needs more fails to build on every target alike.
include_guard(GLOBAL)

set(_mmt_dir "${PROJECT_SOURCE_DIR}/tests/target")
if(MMCHAL_TARGET_PLATFORM STREQUAL "mps2-an386")
  set(_mmt_platform_src "${_mmt_dir}/arm/startup.c")
  set(_mmt_ldscript "${_mmt_dir}/arm/mps2-an386.ld")
elseif(MMCHAL_TARGET_PLATFORM STREQUAL "virt-rv64")
  set(_mmt_platform_src "${_mmt_dir}/riscv/startup.c")
  set(_mmt_ldscript "${_mmt_dir}/riscv/virt.ld")
elseif(MMCHAL_TARGET_PLATFORM STREQUAL "zynq-a9")
  set(_mmt_platform_src "${_mmt_dir}/zynq-a9/startup.c")
  set(_mmt_ldscript "${_mmt_dir}/zynq-a9/zynq-a9.ld")
else()
  message(FATAL_ERROR "On-target tests need MMCHAL_TARGET_PLATFORM (mps2-an386, virt-rv64 "
          "or zynq-a9), "
          "set by cmake/toolchains/*.cmake; or configure with -DMMCHAL_BUILD_TESTS=OFF")
endif()
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  message(FATAL_ERROR "On-target tests need CMAKE_CROSSCOMPILING_EMULATOR (see cmake/toolchains/)")
endif()

# Compiled once, linked as objects into every test (objects, not an archive:
# the library's memcpy calls then resolve whatever the link order).
add_library(mmchal_target_runner OBJECT
  "${_mmt_dir}/runner.c"
  "${_mmt_dir}/fmt.c"
  "${_mmt_dir}/libc.c"
  "${_mmt_platform_src}")
target_include_directories(mmchal_target_runner PUBLIC "${_mmt_dir}/include")
target_include_directories(mmchal_target_runner PRIVATE "${_mmt_dir}")
target_compile_definitions(mmchal_target_runner PUBLIC MMCHAL_ON_TARGET=1)
# GCC would turn the byte loops of memcpy/memset into calls to themselves.
set_source_files_properties("${_mmt_dir}/libc.c" PROPERTIES
  COMPILE_OPTIONS "-ffreestanding;-fno-builtin;-fno-tree-loop-distribute-patterns")
target_link_options(mmchal_target_runner INTERFACE
  -nostdlib "-T${_mmt_ldscript}" "LINKER:--gc-sections")
mmchal_set_warnings(mmchal_target_runner)
# The RV64 image is one RAM region, code and data alike; binutils >= 2.39 warns
# about that on every link unless told it is intended.
execute_process(COMMAND ${CMAKE_LINKER} --help OUTPUT_VARIABLE _mmt_ld_help ERROR_QUIET)
if(_mmt_ld_help MATCHES "--no-warn-rwx-segments")
  target_link_options(mmchal_target_runner INTERFACE "LINKER:--no-warn-rwx-segments")
endif()

# file:line in failure messages relative to the source tree.
set(_mmt_prefix_map "-fmacro-prefix-map=${PROJECT_SOURCE_DIR}/=")

function(_mmt_add_elf name)
  cmake_parse_arguments(E "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${E_SOURCES})
  set_target_properties(${name} PROPERTIES SUFFIX ".elf" LINK_DEPENDS "${_mmt_ldscript}")
  # libgcc last: 64-bit division and the like on 32-bit targets.
  target_link_libraries(${name} PRIVATE mmchal_target_runner mmchal::mmchal ${E_LIBS} gcc)
  target_include_directories(${name} PRIVATE "${PROJECT_SOURCE_DIR}/tests" "${PROJECT_SOURCE_DIR}/src")
  target_compile_options(${name} PRIVATE ${_mmt_prefix_map} -ffunction-sections -fdata-sections)
  mmchal_set_warnings(${name})
endfunction()

function(mmchal_target_add_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS" ${ARGN})
  if(NOT T_NAME OR NOT T_SOURCES)
    message(FATAL_ERROR "mmchal_target_add_test: NAME and SOURCES are required")
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  _mmt_add_elf(${T_NAME} SOURCES ${T_SOURCES} LIBS ${T_LIBS})
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS target)
endfunction()

# ---------------------------------------------------------------- self-tests
# The runner checks itself on every target: all assertions pass when they
# should; a program whose tests fail exits with its failure count and prints
# the matching summary; a crash is reported and ends the run non-zero.
mmchal_target_add_test(NAME target_runner_selftest SOURCES "${_mmt_dir}/selftest.c" TIMEOUT 30)

_mmt_add_elf(target_runner_selftest_fail SOURCES "${_mmt_dir}/selftest_fail.c")
add_test(NAME target_runner_selftest_fail COMMAND target_runner_selftest_fail)
set_tests_properties(target_runner_selftest_fail PROPERTIES TIMEOUT 30 WILL_FAIL TRUE LABELS target)

add_test(NAME target_runner_selftest_fail_status
  COMMAND ${CMAKE_COMMAND}
    "-DCOMMAND=${CMAKE_CROSSCOMPILING_EMULATOR};$<TARGET_FILE:target_runner_selftest_fail>"
    -DEXPECT_RC=18
    "-DEXPECT=\n2 passed, 18 failed\n;selftest_fail.c:[0-9]+: error: 3 \\+ zero == 4: 3 \\(0x3\\) != 4 \\(0x4\\)\n;selftest_fail.c:[0-9]+: error: value -5 name x\n;\\[  FAILED  \\] test_string_equal\n"
    -P "${_mmt_dir}/check_run.cmake")
set_tests_properties(target_runner_selftest_fail_status PROPERTIES TIMEOUT 30 LABELS target)

_mmt_add_elf(target_runner_selftest_trap SOURCES "${_mmt_dir}/selftest_trap.c")
add_test(NAME target_runner_selftest_trap
  COMMAND ${CMAKE_COMMAND}
    "-DCOMMAND=${CMAKE_CROSSCOMPILING_EMULATOR};$<TARGET_FILE:target_runner_selftest_trap>"
    -DEXPECT_RC=254 "-DEXPECT=\\[  CRASH   \\]"
    -P "${_mmt_dir}/check_run.cmake")
set_tests_properties(target_runner_selftest_trap PROPERTIES TIMEOUT 30 LABELS target)

# ------------------------------------------------------------- QEMU SD card
# The SDHCI backend against QEMU's own SD card, on boards that have an SDHCI.
if(MMCHAL_WITH_BACKEND_SDHCI AND EXISTS "${_mmt_dir}/sdhci/CMakeLists.txt")
  add_subdirectory("${_mmt_dir}/sdhci" "${CMAKE_BINARY_DIR}/tests/target/sdhci")
endif()

# Freestanding guard.
#
# 1. Every library source is compiled once more with
#    -ffreestanding -nostdinc -isystem <compiler include dir> -Werror, so any
#    libc header fails to compile (only the compiler's own stdint.h, stddef.h,
#    stdbool.h and limits.h are found).
# 2. The resulting archive may need no symbol but memcpy, memmove, memset and
#    memcmp, and the compiler's own runtime (libgcc) (checked with nm -u after
#    the build; failure fails the build).
function(mmchal_add_freestanding_check lib)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    return()
  endif()
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=include
                  OUTPUT_VARIABLE _incdir OUTPUT_STRIP_TRAILING_WHITESPACE)
  # GCC keeps limits.h in include-fixed (on Debian's host gcc it is also in
  # include, on the cross compilers only in include-fixed).
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=include-fixed
                  OUTPUT_VARIABLE _fixdir OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(_fixinc "")
  if(IS_ABSOLUTE "${_fixdir}" AND IS_DIRECTORY "${_fixdir}")
    set(_fixinc "SHELL:-isystem ${_fixdir}")
  endif()
  get_target_property(_srcs ${lib} SOURCES)
  add_library(${lib}_freestanding STATIC ${_srcs})
  target_include_directories(${lib}_freestanding PRIVATE
    "${PROJECT_SOURCE_DIR}/include" "${PROJECT_BINARY_DIR}/include" "${PROJECT_SOURCE_DIR}/src")
  target_compile_options(${lib}_freestanding PRIVATE
    -ffreestanding -nostdinc "SHELL:-isystem ${_incdir}" ${_fixinc} -O2 -Werror)
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
    # GCC's own limits.h chains to the C library's through syslimits.h unless
    # told that one is already in; the compiler's definitions are complete.
    target_compile_definitions(${lib}_freestanding PRIVATE _LIBC_LIMITS_H_)
  endif()
  mmchal_set_warnings(${lib}_freestanding)
  # The compiler runtime for these very flags (multilib), e.g. libgcc.a.
  separate_arguments(_cflags UNIX_COMMAND "${CMAKE_C_FLAGS}")
  execute_process(COMMAND ${CMAKE_C_COMPILER} ${_cflags} -print-libgcc-file-name
                  OUTPUT_VARIABLE _runtime OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  find_program(MMCHAL_NM NAMES ${CMAKE_NM} nm REQUIRED)
  add_custom_command(TARGET ${lib}_freestanding POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DNM=${MMCHAL_NM} -DARCHIVE=$<TARGET_FILE:${lib}_freestanding>
            -DRUNTIME=${_runtime}
            -P "${PROJECT_SOURCE_DIR}/cmake/MmchalCheckSymbols.cmake"
    COMMENT "Checking that ${lib} needs only memcpy, memmove, memset, memcmp"
    VERBATIM)
endfunction()

# Warning flags shared by every mmchal target. Warnings are errors on every
# compiler and target we build for (MMCHAL_WERROR, default ON).
function(mmchal_set_warnings target)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
      -Wpointer-arith -Wundef -Wvla -Wformat=2 -Wimplicit-fallthrough -Wcast-qual
      -Wwrite-strings -Wnull-dereference)
    if(MMCHAL_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()

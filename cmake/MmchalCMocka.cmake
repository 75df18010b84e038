# Imported target cmocka::cmocka. Debian's cmocka 1.1.5 config defines no
# target (only CMOCKA_INCLUDE_DIR / CMOCKA_LIBRARIES); try it, then pkg-config,
# then a plain search.
if(TARGET cmocka::cmocka)
  return()
endif()
find_package(cmocka CONFIG QUIET)
if(NOT CMOCKA_LIBRARIES)
  find_package(PkgConfig QUIET)
  if(PkgConfig_FOUND)
    pkg_check_modules(PC_CMOCKA QUIET cmocka)
  endif()
  find_path(CMOCKA_INCLUDE_DIR NAMES cmocka.h HINTS ${PC_CMOCKA_INCLUDE_DIRS})
  find_library(CMOCKA_LIBRARIES NAMES cmocka HINTS ${PC_CMOCKA_LIBRARY_DIRS})
endif()
if(NOT CMOCKA_LIBRARIES OR NOT CMOCKA_INCLUDE_DIR)
  message(FATAL_ERROR "CMocka not found: install libcmocka-dev, or configure with -DMMCHAL_BUILD_TESTS=OFF")
endif()
add_library(cmocka::cmocka UNKNOWN IMPORTED)
set_target_properties(cmocka::cmocka PROPERTIES
  IMPORTED_LOCATION "${CMOCKA_LIBRARIES}"
  INTERFACE_INCLUDE_DIRECTORIES "${CMOCKA_INCLUDE_DIR}")

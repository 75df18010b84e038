# FindLibFDT: libfdt (dtc). Debian ships no libfdt.pc, so try pkg-config first
# and fall back to find_path/find_library.
#
# Result: LibFDT_FOUND, LibFDT_INCLUDE_DIR, LibFDT_LIBRARY and the imported
# target LibFDT::LibFDT.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(PC_LibFDT QUIET libfdt)
endif()
find_path(LibFDT_INCLUDE_DIR NAMES libfdt.h HINTS ${PC_LibFDT_INCLUDE_DIRS})
find_library(LibFDT_LIBRARY NAMES fdt HINTS ${PC_LibFDT_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LibFDT REQUIRED_VARS LibFDT_LIBRARY LibFDT_INCLUDE_DIR)
if(LibFDT_FOUND AND NOT TARGET LibFDT::LibFDT)
  add_library(LibFDT::LibFDT UNKNOWN IMPORTED)
  set_target_properties(LibFDT::LibFDT PROPERTIES
    IMPORTED_LOCATION "${LibFDT_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LibFDT_INCLUDE_DIR}")
endif()
mark_as_advanced(LibFDT_INCLUDE_DIR LibFDT_LIBRARY)

# Installation and export: the library is consumable through
#   find_package(mmchal CONFIG)  -> mmchal::mmchal
#   pkg-config mmchal
#   add_subdirectory()           -> mmchal::mmchal (alias)
include(CMakePackageConfigHelpers)

install(TARGETS mmchal EXPORT mmchalTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/mmchal"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(FILES "${PROJECT_BINARY_DIR}/include/mmchal/config.h"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mmchal)

set(MMCHAL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mmchal)
install(EXPORT mmchalTargets NAMESPACE mmchal:: DESTINATION ${MMCHAL_CMAKE_DIR})
configure_package_config_file(cmake/mmchalConfig.cmake.in
  "${PROJECT_BINARY_DIR}/mmchalConfig.cmake" INSTALL_DESTINATION ${MMCHAL_CMAKE_DIR})
write_basic_package_version_file("${PROJECT_BINARY_DIR}/mmchalConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/mmchalConfig.cmake"
  "${PROJECT_BINARY_DIR}/mmchalConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/FindLibFDT.cmake"
  DESTINATION ${MMCHAL_CMAKE_DIR})

# pkg-config: libfdt has no .pc on Debian, so it goes to Libs.private.
if(MMCHAL_HAVE_LIBFDT)
  set(MMCHAL_PC_LIBS_PRIVATE "-lfdt")
else()
  set(MMCHAL_PC_LIBS_PRIVATE "")
endif()
# Relocatable like the CMake package: the prefix is found from the .pc file's
# own place, so `cmake --install --prefix <dir>` (staging, packaging) works.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(MMCHAL_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(MMCHAL_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(MMCHAL_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH _mmchal_pc_up "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  string(REGEX REPLACE "/$" "" _mmchal_pc_up "${_mmchal_pc_up}")
  set(MMCHAL_PC_PREFIX "\${pcfiledir}/${_mmchal_pc_up}")
  set(MMCHAL_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(MMCHAL_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(cmake/mmchal.pc.in "${PROJECT_BINARY_DIR}/mmchal.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/mmchal.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

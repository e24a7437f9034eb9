# SPDX-License-Identifier: Apache-2.0
# Install rules (RSC_INSTALL): the public headers of the parts built, the
# libraries (exported as robotsc::runtime, robotsc::compiler,
# robotsc::crawl), the CMake package (robotscConfig.cmake + version file),
# pkg-config files and the format's man page. The CLI installs itself
# (cli/CMakeLists.txt). Everything lands relative to the prefix, so
# `cmake --install BUILD --prefix DIR` gives a working tree anywhere.
include(CMakePackageConfigHelpers)

get_property(rsc_libs GLOBAL PROPERTY RSC_PUBLIC_LIBRARIES)
install(TARGETS ${rsc_libs} EXPORT robotscTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

set(rsc_headers runtime.h)
if(RSC_BUILD_COMPILER)
  list(APPEND rsc_headers ir.h compiler.h)
endif()
if(RSC_BUILD_CRAWL)
  list(APPEND rsc_headers crawl.h)
endif()
list(TRANSFORM rsc_headers PREPEND ${PROJECT_SOURCE_DIR}/include/robotsc/)
install(FILES ${rsc_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/robotsc)

set(rsc_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/robotsc)
install(EXPORT robotscTargets NAMESPACE robotsc:: DESTINATION ${rsc_cmake_dir})
# What the package file needs to know about this build.
set(RSC_CONFIG_SHARED ${BUILD_SHARED_LIBS})
if(TARGET robotsc_store)
  set(RSC_CONFIG_STORE ON)
else()
  set(RSC_CONFIG_STORE OFF)
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/robotscConfig.cmake.in
  ${PROJECT_BINARY_DIR}/robotscConfig.cmake INSTALL_DESTINATION ${rsc_cmake_dir})
# 0.x: the minor is the ABI major's stand-in until 1.0 (soname .0 stays).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/robotscConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/robotscConfig.cmake
        ${PROJECT_BINARY_DIR}/robotscConfigVersion.cmake DESTINATION ${rsc_cmake_dir})

# pkg-config: prefix relative to the .pc file, so the tree can move.
set(rsc_pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH RSC_PC_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" RSC_PC_PREFIX "${RSC_PC_PREFIX}")
file(RELATIVE_PATH RSC_PC_LIBDIR ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_LIBDIR})
file(RELATIVE_PATH RSC_PC_INCLUDEDIR ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_INCLUDEDIR})
# A static libcurl/libidn2 user must link them too: plain Requires then.
if(BUILD_SHARED_LIBS)
  set(RSC_PC_CRAWL_REQUIRES "Requires: robotsc = ${PROJECT_VERSION}\nRequires.private: libcurl libidn2")
else()
  set(RSC_PC_CRAWL_REQUIRES "Requires: robotsc = ${PROJECT_VERSION} libcurl libidn2")
endif()
set(rsc_pcs robotsc-runtime)
if(RSC_BUILD_COMPILER)
  list(APPEND rsc_pcs robotsc)
endif()
if(RSC_BUILD_CRAWL)
  list(APPEND rsc_pcs robotsc-crawl)
endif()
foreach(pc ${rsc_pcs})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc DESTINATION ${rsc_pc_dir})
endforeach()

install(FILES ${PROJECT_SOURCE_DIR}/docs/man/robotsc-format.5 DESTINATION ${CMAKE_INSTALL_MANDIR}/man5)

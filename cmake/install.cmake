# SPDX-License-Identifier: Apache-2.0
# Install rules (RSC_INSTALL): the public headers of the parts built, the
# libraries (exported as robotsc::runtime, robotsc::compiler,
# robotsc::crawl, robotsc::store), the CMake package (robotscConfig.cmake +
# version file), pkg-config files, the man pages (their version configured
# from PROJECT_VERSION) and the documents the headers cite (DOCDIR). The CLI
# installs itself (cli/CMakeLists.txt). Everything lands relative to the prefix, so
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
# From 1.0 the major is the ABI major (the soname): any 1.x serves a
# find_package(robotsc 1.y) with x >= y (README, "Compatibility").
write_basic_package_version_file(${PROJECT_BINARY_DIR}/robotscConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
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
# The store links liblmdb: through lmdb.pc when the build found one, else
# by name (store/CMakeLists.txt records which).
get_property(rsc_lmdb_pc GLOBAL PROPERTY RSC_LMDB_PC)
if(rsc_lmdb_pc)
  set(rsc_lmdb_req "lmdb")
  set(rsc_lmdb_libs "")
else()
  set(rsc_lmdb_req "")
  set(rsc_lmdb_libs " -llmdb")
endif()
if(BUILD_SHARED_LIBS)
  set(RSC_PC_STORE_REQUIRES "Requires: robotsc-crawl = ${PROJECT_VERSION}")
  if(rsc_lmdb_pc)
    string(APPEND RSC_PC_STORE_REQUIRES "\nRequires.private: lmdb")
  else()
    string(APPEND RSC_PC_STORE_REQUIRES "\nLibs.private: -llmdb")
  endif()
  set(RSC_PC_STORE_LIBS "-lrobotsc_store")
else()
  set(RSC_PC_STORE_REQUIRES "Requires: robotsc-crawl = ${PROJECT_VERSION} ${rsc_lmdb_req}")
  set(RSC_PC_STORE_LIBS "-lrobotsc_store${rsc_lmdb_libs}")
endif()
set(rsc_pcs robotsc-runtime)
if(RSC_BUILD_COMPILER)
  list(APPEND rsc_pcs robotsc)
endif()
if(RSC_BUILD_CRAWL)
  list(APPEND rsc_pcs robotsc-crawl)
endif()
if(TARGET robotsc_store)
  list(APPEND rsc_pcs robotsc-store)
endif()
foreach(pc ${rsc_pcs})
  configure_file(${CMAKE_CURRENT_LIST_DIR}/${pc}.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc DESTINATION ${rsc_pc_dir})
endforeach()

# The man pages in docs/man/ are templates: their version line is
# @PROJECT_VERSION@ (cmake/man.cmake; the CLI installs robotsc.1).
install(FILES ${PROJECT_BINARY_DIR}/man/robotsc-format.5 DESTINATION ${CMAKE_INSTALL_MANDIR}/man5)

# The public headers cite these documents by their name under docs/; they
# are installed under DOCDIR (share/doc/robotsc/) with the same names.
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md
        ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/NOTICE
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/docs/FORMAT.md ${PROJECT_SOURCE_DIR}/docs/SEMANTICS.md
        ${PROJECT_SOURCE_DIR}/docs/LIMITS.md ${PROJECT_SOURCE_DIR}/docs/CRAWLER.md
        ${PROJECT_SOURCE_DIR}/docs/ARCHITECTURE.md ${PROJECT_SOURCE_DIR}/docs/IR_JSON.md
        ${PROJECT_SOURCE_DIR}/docs/DFA.md ${PROJECT_SOURCE_DIR}/docs/DIFF.md
        ${PROJECT_SOURCE_DIR}/docs/LINT.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

# SPDX-License-Identifier: Apache-2.0
# The source release: OUT/robotsc-VERSION.tar.gz holds the files git tracks
# (as they are in the working tree) and grammar/generated/: the parser and
# lexer made by bison and re2c, and the hashes of the parser.y and lexer.re
# they come from (grammar/CMakeLists.txt builds from them, without the
# tools, and refuses them if the grammar changed). The generated files name
# their sources relative to grammar/, so the tarball holds no path of this
# machine.
# cmake -DSRC=... -DOUT=... -DVERSION=... -DBISON=... -DRE2C=... -P dist.cmake
foreach(v SRC OUT VERSION BISON RE2C)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "dist.cmake: -D${v}=... missing")
  endif()
endforeach()
find_program(RSC_GIT git)
if(NOT RSC_GIT)
  message(FATAL_ERROR "dist: git not found (the release holds the files git tracks)")
endif()
execute_process(COMMAND ${RSC_GIT} -c core.quotePath=false ls-files WORKING_DIRECTORY ${SRC}
                RESULT_VARIABLE rc OUTPUT_VARIABLE files ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dist: git ls-files failed in ${SRC}: ${err}")
endif()
execute_process(COMMAND ${RSC_GIT} log -1 --format=%cD WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE mtime OUTPUT_STRIP_TRAILING_WHITESPACE)

set(name robotsc-${VERSION})
set(stage ${OUT}/dist/${name})
file(REMOVE_RECURSE ${OUT}/dist)
string(REPLACE "\n" ";" files "${files}")
set(n 0)
foreach(f ${files})
  # A tracked file deleted in the working tree is not released.
  if(f STREQUAL "" OR NOT EXISTS ${SRC}/${f} OR IS_DIRECTORY ${SRC}/${f})
    continue()
  endif()
  get_filename_component(dir ${f} DIRECTORY)
  file(COPY ${SRC}/${f} DESTINATION ${stage}/${dir})
  math(EXPR n "${n} + 1")
endforeach()
if(EXISTS ${stage}/grammar/generated)
  message(FATAL_ERROR "dist: grammar/generated/ is tracked by git; it must only be made here")
endif()

# The same tools and flags as the build (grammar/CMakeLists.txt).
set(g ${stage}/grammar)
file(MAKE_DIRECTORY ${g}/generated)
execute_process(COMMAND ${BISON} -Wall -o generated/parser.c --defines=generated/parser.h parser.y
                WORKING_DIRECTORY ${g} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dist: bison failed: ${err}")
endif()
execute_process(COMMAND ${RE2C} -W --no-generation-date --no-version -o generated/lexer.c lexer.re
                WORKING_DIRECTORY ${g} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dist: re2c failed: ${err}")
endif()
file(SHA256 ${g}/parser.y py)
file(SHA256 ${g}/lexer.re lx)
file(WRITE ${g}/generated/SOURCES.sha256 "${py}  parser.y\n${lx}  lexer.re\n")

set(tarball ${OUT}/${name}.tar.gz)
set(mtime_arg "")
if(mtime)
  set(mtime_arg "--mtime=${mtime}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E tar czf ${tarball} ${mtime_arg} ${name}
                WORKING_DIRECTORY ${OUT}/dist RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dist: writing ${tarball} failed")
endif()
file(REMOVE_RECURSE ${OUT}/dist)
message(STATUS "dist: ${tarball} (${n} files and grammar/generated/)")

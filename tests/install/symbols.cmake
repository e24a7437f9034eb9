# SPDX-License-Identifier: Apache-2.0
# Fails when the symbols a library exports differ from the committed list
# (LIST), or when one is not declared with RSC_API in include/robotsc/.
# A shared library (.so): its dynamic symbol table (nm -D). A static one:
# the global symbols of default visibility of its objects (readelf), the
# set a shared build of the same objects would export.
# -DLIB=... -DLIST=... -DINCLUDE=... -DNM=... -DREADELF=...
if(LIB MATCHES "\\.so(\\.|$)")
  execute_process(COMMAND ${NM} -D --defined-only ${LIB} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(re "^[0-9a-fA-F]* *[TDBRVWi] ([A-Za-z][A-Za-z0-9_]*)$")
else()
  execute_process(COMMAND ${READELF} -sW ${LIB} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(re "^ *[0-9]+: [0-9a-fA-F]+ +[0-9]+ (FUNC|OBJECT) +(GLOBAL|WEAK) +DEFAULT +[0-9]+ ([A-Za-z][A-Za-z0-9_]*)$")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "reading the symbols of ${LIB} failed: ${err}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(got "")
foreach(l ${lines})
  if(l MATCHES "${re}")
    if(CMAKE_MATCH_3)
      list(APPEND got ${CMAKE_MATCH_3})
    else()
      list(APPEND got ${CMAKE_MATCH_1})
    endif()
  endif()
endforeach()
list(REMOVE_DUPLICATES got)
list(SORT got)

file(STRINGS ${LIST} want REGEX "^[A-Za-z]")
list(SORT want)
set(added ${got})
list(REMOVE_ITEM added ${want})
set(removed ${want})
if(got)
  list(REMOVE_ITEM removed ${got})
endif()

file(GLOB headers ${INCLUDE}/robotsc/*.h)
set(api "")
foreach(h ${headers})
  file(STRINGS ${h} decls REGEX "^RSC_API ")
  foreach(d ${decls})
    if(d MATCHES "([A-Za-z_][A-Za-z0-9_]*)\\(")
      list(APPEND api ${CMAKE_MATCH_1})
    endif()
  endforeach()
endforeach()
set(undeclared ${got})
if(api)
  list(REMOVE_ITEM undeclared ${api})
endif()

list(LENGTH got n)
if(added OR removed OR undeclared OR n EQUAL 0)
  message(FATAL_ERROR "${LIB}: exported symbols changed (${n} exported)\n"
          "  new, not in ${LIST}: ${added}\n  missing: ${removed}\n"
          "  exported without RSC_API in a public header: ${undeclared}\n"
          "If the change is intended, update ${LIST}.")
endif()
message(STATUS "ok: ${LIB} exports the ${n} symbols of ${LIST}")

# SPDX-License-Identifier: Apache-2.0
# Compiles each runtime/*.c alone: -std=c11 pedantic, only include/ on the
# include path (runtime's own headers are found beside the sources).
file(GLOB srcs ${SRC}/runtime/*.c)
file(MAKE_DIRECTORY ${OUT})
foreach(f ${srcs})
  get_filename_component(name ${f} NAME_WE)
  execute_process(
    COMMAND ${CC} -std=c11 -Wall -Wextra -Wpedantic -Werror -I ${SRC}/include
            -c ${f} -o ${OUT}/${name}.o
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "runtime/${name}.c does not compile alone:\n${out}")
  endif()
  message(STATUS "ok: runtime/${name}.c")
endforeach()

# SPDX-License-Identifier: Apache-2.0
# Runs PROG and fails unless it exits 0 with exactly the output of EXPECTED.
# -DPROG=... -DEXPECTED=...
execute_process(COMMAND ${PROG} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${EXPECTED} want)
if(NOT rc EQUAL 0 OR NOT out STREQUAL want)
  message(FATAL_ERROR "${PROG}: exit ${rc}, stderr: ${err}\n--- got\n${out}--- want\n${want}")
endif()
message(STATUS "ok: ${PROG} printed ${EXPECTED}")

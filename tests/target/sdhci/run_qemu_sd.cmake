# One QEMU SD run: fresh image, guest, summary check, host-side image check.
#
# cmake -DQEMU=<cmd;args> -DELF=<guest> -DSDIMG=<tool> -DIMG=<file> -DMIB=<n>
#       -DFLAGS=<n> -DPASSED=<n> -DCARD=<SDSC|SDHC> -P run_qemu_sd.cmake
foreach(v QEMU ELF SDIMG IMG MIB FLAGS PASSED CARD)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_qemu_sd.cmake: ${v} is not set")
  endif()
endforeach()

file(REMOVE "${IMG}")
execute_process(COMMAND "${SDIMG}" make "${IMG}" ${MIB} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sdimg make failed (${rc})")
endif()

execute_process(COMMAND ${QEMU} -kernel "${ELF}" TIMEOUT 90
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT "${rc}" STREQUAL "0")
  message(FATAL_ERROR "guest exit status ${rc}")
endif()
if(NOT out MATCHES "\n${PASSED} passed, 0 failed\n")
  message(FATAL_ERROR "guest summary is not '${PASSED} passed, 0 failed'")
endif()
if(NOT out MATCHES "sd-config: [^\n]*, flags ${FLAGS}\n")
  message(FATAL_ERROR "guest configuration flags are not ${FLAGS}")
endif()
math(EXPR sectors "${MIB} * 2048")
if(NOT out MATCHES "\nsd-card: ${CARD} ${sectors}\n")
  message(FATAL_ERROR "the card is not reported as ${CARD} with ${sectors} sectors")
endif()

execute_process(COMMAND "${SDIMG}" check "${IMG}" ${MIB} ${FLAGS} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "image check failed (${rc})")
endif()
file(REMOVE "${IMG}")

# Runs a target test program and checks its exact exit status and output,
# for programs that are meant to fail (a plain WILL_FAIL would accept any
# failure, including a crash or a lost exit code).
#
# cmake -DCOMMAND=<emulator;args;elf> -DEXPECT_RC=<n> -DEXPECT=<regex;...>
#       -P check_run.cmake
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT "${rc}" STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "exit status ${rc}, expected ${EXPECT_RC}")
endif()
foreach(re IN LISTS EXPECT)
  if(NOT out MATCHES "${re}")
    message(FATAL_ERROR "output does not match: ${re}")
  endif()
endforeach()

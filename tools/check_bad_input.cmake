# Every public entry has a row in the bad-input table (tests/core/bad_input_*.c).
#
#   cmake -DHEADERS=<include/mmchal> -DROWS=<file;file...> [-DLIB=<libmmchal.a> -DNM=<nm>]
#         -P tools/check_bad_input.cmake
#
# The public entries are the functions declared in the headers (also the
# inline wrappers) and the extern ops tables. With LIB, every mmchal_* symbol
# the archive defines (internal shared names end in '_') must be declared in a
# header too, so an exported function without a declaration is caught as well.
# A row is BI_ROW(name, ...) / BI_PRE(name, ...) for a function or a table,
# BI_OP(table, op, ...) / BI_OP_PRE(table, op, ...) for a table.
cmake_minimum_required(VERSION 3.25)

if(NOT HEADERS OR NOT ROWS)
  message(FATAL_ERROR "check_bad_input: HEADERS and ROWS are required")
endif()

set(_public "")
file(GLOB _headers "${HEADERS}/*.h")
foreach(_h IN LISTS _headers)
  # read as text and split at newlines ourselves: a CMake list would also split
  # at ';' and join lines across an unbalanced '[' in a comment
  file(READ "${_h}" _text)
  string(REGEX REPLACE "[][;]" "_" _text "${_text}")
  string(REPLACE "\n" ";" _lines "${_text}")
  foreach(_l IN LISTS _lines)
    # a declaration at column 0: [static inline] [const] [struct|enum] type [*]name(
    if(_l MATCHES "^(static inline )?(const )?((struct|enum) )?[a-z_0-9]+ \\**(mmchal_[a-z0-9_]+)\\(")
      list(APPEND _public "${CMAKE_MATCH_5}")
    elseif(_l MATCHES "^extern const struct [a-z_0-9]+ (mmchal_[a-z0-9_]+)_")
      list(APPEND _public "${CMAKE_MATCH_1}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES _public)
list(LENGTH _public _npublic)
if(_npublic LESS 100)
  message(FATAL_ERROR "check_bad_input: only ${_npublic} public names found in ${HEADERS}")
endif()

set(_rows "")
set(_nrows 0)
foreach(_f IN LISTS ROWS)
  file(READ "${_f}" _text)
  string(REGEX MATCHALL "BI_(ROW|PRE|OP|OP_PRE)\\([ \t\n]*mmchal_[a-z0-9_]+" _found "${_text}")
  foreach(_m IN LISTS _found)
    string(REGEX REPLACE "^BI_[A-Z_]+\\([ \t\n]*" "" _name "${_m}")
    list(APPEND _rows "${_name}")
    math(EXPR _nrows "${_nrows} + 1")
  endforeach()
endforeach()

set(_missing "")
foreach(_n IN LISTS _public)
  if(NOT _n IN_LIST _rows)
    list(APPEND _missing "${_n}")
  endif()
endforeach()

set(_undeclared "")
if(LIB AND NM)
  execute_process(COMMAND "${NM}" -g --defined-only "${LIB}" OUTPUT_VARIABLE _nm
                  RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "check_bad_input: ${NM} failed on ${LIB}")
  endif()
  string(REGEX MATCHALL " [A-Z] mmchal_[a-z0-9_]+" _syms "${_nm}")
  foreach(_s IN LISTS _syms)
    string(REGEX REPLACE "^ [A-Z] " "" _s "${_s}")
    if(NOT _s MATCHES "_$" AND NOT _s IN_LIST _public)
      list(APPEND _undeclared "${_s}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES _undeclared)
endif()

if(_missing OR _undeclared)
  if(_missing)
    string(REPLACE ";" "\n  " _m "${_missing}")
    message(SEND_ERROR "public entries without a bad-input row:\n  ${_m}")
  endif()
  if(_undeclared)
    string(REPLACE ";" "\n  " _u "${_undeclared}")
    message(SEND_ERROR "exported by the library but declared in no public header:\n  ${_u}")
  endif()
  message(FATAL_ERROR "check_bad_input: add the rows (tests/core/bad_input_*.c)")
endif()
message(STATUS "check_bad_input: ${_npublic} public entries, ${_nrows} rows, all covered")

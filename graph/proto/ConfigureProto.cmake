# Writes the Task IR schema: the template IN (graph/proto/taskir.proto.in)
# with @TASKIR_BLOCK_TYPES@ replaced by one BlockType enumerator per row of
# DEF (graph/BlockKinds.def), "NAME = VALUE;" from the row's first two
# columns, so the table is the one place a block type is written. OUT is
# rewritten only when its text changes.
#
#   cmake -DIN=taskir.proto.in -DDEF=BlockKinds.def -DOUT=taskir.proto
#         -P ConfigureProto.cmake
foreach(var IN ITEMS IN DEF OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "ConfigureProto.cmake: -D${var}=... is required")
  endif()
endforeach()

file(STRINGS "${DEF}" rows REGEX "^TASKIR_BLOCK_KIND\\(")
set(TASKIR_BLOCK_TYPES "")
foreach(row IN LISTS rows)
  if(NOT row MATCHES "^TASKIR_BLOCK_KIND\\(([A-Z][A-Z0-9_]*), *([0-9]+),")
    message(FATAL_ERROR "${DEF}: a row must start with NAME, VALUE: ${row}")
  endif()
  string(APPEND TASKIR_BLOCK_TYPES "  ${CMAKE_MATCH_1} = ${CMAKE_MATCH_2};\n")
endforeach()
if(TASKIR_BLOCK_TYPES STREQUAL "")
  message(FATAL_ERROR "${DEF}: no TASKIR_BLOCK_KIND rows")
endif()
configure_file("${IN}" "${OUT}" @ONLY)

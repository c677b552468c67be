# cmake -DCLANG=clang++ -DDEF_DIR=dir -DOUT=intrinsics.h -P GenIntrinsicsHeader.cmake
# Expands the intrinsic table into plain declarations, one per line, so that
# diagnostics about intrinsics point at a readable declaration rather than a
# stack of table macros.
set(src "${OUT}.in.cpp")
file(WRITE "${src}"
  "#define BANG_INTRINSIC(NAME, RET, PARAMS, CLASS, UNITS) RET NAME PARAMS;\n"
  "#include <bang/intrinsics.def>\n")
execute_process(COMMAND ${CLANG} -E -P -x c++ -I${DEF_DIR} "${src}"
                OUTPUT_VARIABLE decls RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "expanding the intrinsic table failed: ${err}")
endif()
string(REPLACE ";" ";\n" decls "${decls}")
string(REGEX REPLACE "\n[ \t]+" "\n" decls "${decls}")
string(REGEX REPLACE "\n\n+" "\n" decls "${decls}")
file(WRITE "${OUT}.tmp"
  "// Generated from bang/intrinsics.def by GenIntrinsicsHeader.cmake.\n"
  "// Do not edit: edit the table.\n"
  "${decls}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)

# Writes the compile fuzzer's dictionary: the hand-written keywords of
# mlu.dict plus every intrinsic name of the table (the first argument of each
# row), so a new intrinsic reaches the fuzzer without editing this file.
#   cmake -DDEF=intrinsics.def -DBASE=mlu.dict -DOUT=out.dict -P MakeDict.cmake
file(READ ${BASE} dict)
file(READ ${DEF} table)
string(REGEX MATCHALL "\\((__[a-z_0-9]+)," rows "${table}")
set(names "")
foreach(row IN LISTS rows)
  string(REGEX REPLACE "^\\((__[a-z_0-9]+),$" "\\1" name "${row}")
  list(APPEND names ${name})
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
string(APPEND dict "\n# Intrinsics, from lang/include/bang/intrinsics.def\n")
foreach(name IN LISTS names)
  string(APPEND dict "\"${name}\"\n")
endforeach()
file(WRITE ${OUT}.tmp "${dict}")
file(RENAME ${OUT}.tmp ${OUT})

# cmake -DOUT=file.cpp -DNAME=symbol -DIN=file [-DTEXT=1] -P Embed.cmake
# Writes a C++ source defining `extern const unsigned char NAME[]` and
# `extern const unsigned long NAME_size` with the bytes of IN.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" len)
math(EXPR size "${len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp" "// Generated from ${IN}; do not edit.\n"
  "extern const unsigned char ${NAME}[] = {\n${bytes}0x00};\n"
  "extern const unsigned long ${NAME}_size = ${size};\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)

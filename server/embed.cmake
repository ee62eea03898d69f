# Turns one file into a C array: cmake -DINPUT=f -DOUTPUT=f.c -DNAME=symbol -P embed.cmake
file(READ "${INPUT}" content HEX)
string(LENGTH "${content}" hex_len)
math(EXPR size "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${content}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
  "/* Generated from ${INPUT} by embed.cmake; do not edit. */\n"
  "#include <stddef.h>\n"
  "const unsigned char ${NAME}[] = {\n${bytes}0x00};\n"
  "const size_t ${NAME}_len = ${size};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")

# Compiles one source and checks the result against what the source itself says it expects:
#
#   // expect: compiles               the compile must succeed
#   // expect-error: <text>           the compile must fail and the FIRST error the compiler
#                                     reports must contain <text> (the one line a user reads)
#   // expect-error-later: <text>     the compile must fail and some error must contain <text>
#                                     (for a known cascade: the source's comment says why)
#
# usage: cmake -DCOMPILER=<c++> "-DFLAGS=<flag>;<flag>..." -DSOURCE=<file.cpp> -P check_compile.cmake
#
# The source is compiled with FLAGS followed by SOURCE (give -fsyntax-only in FLAGS: nothing is
# written). One expect line per source.
foreach(var COMPILER SOURCE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_compile.cmake: -D${var}=... is required")
  endif()
endforeach()

file(STRINGS "${SOURCE}" directives REGEX "^// expect(-error|-error-later)?: ")
list(LENGTH directives count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "${SOURCE}: expected exactly one '// expect: compiles', '// expect-error: <text>' or "
                      "'// expect-error-later: <text>' line, found ${count}")
endif()
string(REGEX MATCH "^// (expect|expect-error|expect-error-later): (.*)$" _ "${directives}")
set(kind "${CMAKE_MATCH_1}")
string(STRIP "${CMAKE_MATCH_2}" expected)
if(kind STREQUAL "expect" AND NOT expected STREQUAL "compiles")
  message(FATAL_ERROR "${SOURCE}: '// expect:' takes only 'compiles', not '${expected}'")
endif()

execute_process(COMMAND "${COMPILER}" ${FLAGS} "${SOURCE}" RESULT_VARIABLE rc OUTPUT_VARIABLE output
                ERROR_VARIABLE output)
get_filename_component(name "${SOURCE}" NAME)

if(kind STREQUAL "expect")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: must compile, but the compiler failed (${rc}):\n${output}")
  endif()
  message(STATUS "${name}: compiles, as expected")
  return()
endif()

if(rc EQUAL 0)
  message(FATAL_ERROR "${name}: must not compile (expected an error containing \"${expected}\"), but it compiled:"
                      "\n${output}")
endif()
# Diagnostics: "file:line:col: error: text" (clang, gcc) and "fatal error:". The scan copy has no
# characters that CMake's lists treat specially (; and brackets), so each error is one element.
string(REPLACE ";" "," scan "${output}")
string(REPLACE "[" "(" scan "${scan}")
string(REPLACE "]" ")" scan "${scan}")
string(REGEX MATCHALL "error: [^\n]*" errors "${scan}")
list(LENGTH errors error_count)
if(error_count EQUAL 0)
  message(FATAL_ERROR "${name}: the compiler failed (${rc}) without an error line:\n${output}")
endif()
list(GET errors 0 first)
if(kind STREQUAL "expect-error")
  string(FIND "${first}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${name}: the first error does not say \"${expected}\"; it says\n  ${first}\n"
                        "Full output:\n${output}")
  endif()
else()
  string(FIND "${output}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${name}: no error says \"${expected}\". Full output:\n${output}")
  endif()
endif()
message(STATUS "${name}: fails as expected: \"${expected}\" (${error_count} error line(s) in all; first: ${first})")

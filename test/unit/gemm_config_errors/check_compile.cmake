# Compiles one source and checks the result against what the source itself says it expects:
#
#   // expect: compiles               the compile must succeed
#   // expect-error: <text>           the compile must fail and the FIRST error the compiler
#                                     reports must contain <text> (the one line a user reads)
#   // expect-error-later: <text>     the compile must fail and some error must contain <text>
#                                     (for a known cascade: the source's comment says why)
#
# An expect-error source must fail with that one error line and no follow-on errors, and a source
# that configures a gfx9 architecture (it names arch::Gfx9...) must not have the NVIDIA-only
# classes (the cp.async mainloop, mma.sync wave MMA, staged epilogue, swizzled layout) anywhere in
# its compiler output: a user of a gfx942 configuration should read about nothing else.
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
  if(NOT error_count EQUAL 1)
    message(FATAL_ERROR "${name}: the first error is right, but ${error_count} errors follow-on included (expected 1)."
                        " Full output:\n${output}")
  endif()
else()
  string(FIND "${output}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${name}: no error says \"${expected}\". Full output:\n${output}")
  endif()
endif()
file(READ "${SOURCE}" source_text)
if(source_text MATCHES "arch::Gfx9")
  foreach(nvidia_only IN ITEMS AsyncCopyMainloop MmaSyncWaveMma StagedStoreEpilogue SwizzledLdsLayout)
    string(FIND "${output}" "${nvidia_only}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "${name}: a gfx9 configuration's errors name the NVIDIA-only ${nvidia_only}. Full output:"
                          "\n${output}")
    endif()
  endforeach()
endif()
message(STATUS "${name}: fails as expected: \"${expected}\" (${error_count} error line(s) in all; first: ${first})")

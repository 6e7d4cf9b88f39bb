# What a user without Boost.Context sees. With Boost hidden (CMAKE_DISABLE_FIND_PACKAGE_Boost):
#   1. an installed hiptile asked for COMPONENTS sim is not found, and the message names
#      libboost-context-dev;
#   2. without the component it is found, says in one STATUS line that hiptile::sim was not
#      created, and provides hiptile::hiptile (test/install/without_boost checks the targets);
#   3. hiptile's own configure with the simulator on stops with a single error that names
#      libboost-context-dev and -DHIPTILE_ENABLE_SIM=OFF.
#
#   cmake -DHIPTILE_SOURCE_DIR=<source> -DHIPTILE_BUILD_DIR=<build> -DCONSUMER_DIR=<without_boost>
#         -DWORK_DIR=<scratch dir> -DCOMPILER=<c++ compiler> [-DGENERATOR=<generator>]
#         [-DMAKE_PROGRAM=<path>] -P run_without_boost_test.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var HIPTILE_SOURCE_DIR HIPTILE_BUILD_DIR CONSUMER_DIR WORK_DIR COMPILER)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_without_boost_test.cmake: ${var} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${HIPTILE_BUILD_DIR}" --prefix "${prefix}"
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "without-boost test: cmake --install ${HIPTILE_BUILD_DIR} failed (${rc})")
endif()

set(common_args "-DCMAKE_CXX_COMPILER=${COMPILER}" -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON
                # Only the installed package may be found, not a registry entry or a build tree.
                -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
if(GENERATOR)
  list(APPEND common_args -G "${GENERATOR}")
endif()
if(MAKE_PROGRAM)
  list(APPEND common_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()

# configure(<what> <source> <build name> <expected: PASS|FAIL> <out-var> <cmake args>...)
# Configures <source> and stops the test unless the result is the expected one; <out-var> gets
# stdout and stderr together.
function(configure what source build expected out)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "[${what}] cmake -S ${source} ${shown}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${source}" -B "${WORK_DIR}/${build}" ${common_args} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_VARIABLE output)
  set(result FAIL)
  if(rc EQUAL 0)
    set(result PASS)
  endif()
  if(NOT result STREQUAL expected)
    message(FATAL_ERROR "without-boost test: [${what}] was expected to ${expected} (exit status ${rc}):\n${output}")
  endif()
  set(${out} "${output}" PARENT_SCOPE)
endfunction()

function(require what output regex)
  if(NOT output MATCHES "${regex}")
    message(FATAL_ERROR "without-boost test: [${what}] the output does not match '${regex}':\n${output}")
  endif()
endfunction()

configure("installed package, COMPONENTS sim" "${CONSUMER_DIR}" with-sim FAIL output
          "-DCMAKE_PREFIX_PATH=${prefix}" -DREQUIRE_SIM=ON)
require("installed package, COMPONENTS sim" "${output}" "sim component.*libboost-context-dev")

configure("installed package, no component" "${CONSUMER_DIR}" without-sim PASS output
          "-DCMAKE_PREFIX_PATH=${prefix}")
require("installed package, no component" "${output}"
        "-- hiptile: hiptile::sim not created: Boost.Context >= 1.74 [^\n]*libboost-context-dev[^\n]* not found\n")

configure("hiptile's own configure" "${HIPTILE_SOURCE_DIR}" hiptile FAIL output
          -DHIPTILE_ENABLE_SIM=ON -DHIPTILE_ENABLE_AMD=OFF -DHIPTILE_ENABLE_NVIDIA=OFF)
require("hiptile's own configure" "${output}" "libboost-context-dev.*-DHIPTILE_ENABLE_SIM=OFF")
string(REGEX MATCHALL "CMake Error" errors "${output}")
list(LENGTH errors error_count)
if(NOT error_count EQUAL 1)
  message(FATAL_ERROR "without-boost test: [hiptile's own configure] ${error_count} errors instead of one:\n${output}")
endif()

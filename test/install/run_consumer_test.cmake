# Installs a configured hiptile build into a fresh prefix, runs the installed isa_report from
# there, and builds test/install/consumer against it, once per compiler (a HIP compiler's build
# also runs the installed isa_report on the consumer's ISA), then runs the consumer's simulator
# program. Every step must succeed.
#
#   cmake -DHIPTILE_BUILD_DIR=<build> -DCONSUMER_DIR=<consumer source> -DWORK_DIR=<scratch dir>
#         "-DCOMPILERS=<c++ compiler>|..." -DISA_REPORT=<its path under the prefix>
#         [-DGENERATOR=<generator>] [-DMAKE_PROGRAM=<path>] -P run_consumer_test.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var HIPTILE_BUILD_DIR CONSUMER_DIR WORK_DIR COMPILERS ISA_REPORT)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer_test.cmake: ${var} is not set")
  endif()
endforeach()

function(step what)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "[${what}] ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install test: ${what} failed (${rc}): ${shown}")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
step("install" "${CMAKE_COMMAND}" --install "${HIPTILE_BUILD_DIR}" --prefix "${prefix}")
if(NOT EXISTS "${prefix}/include/hiptile/platform/launch.hpp")
  message(FATAL_ERROR "install test: the headers were not installed under ${prefix}/include")
endif()
# Run as a program (not through python3), so a missing executable bit fails here; its usage line
# must carry the installed name.
set(isa_report "${prefix}/${ISA_REPORT}")
message(STATUS "[run the installed isa_report] ${isa_report} --help")
execute_process(COMMAND "${isa_report}" --help RESULT_VARIABLE rc OUTPUT_VARIABLE help ERROR_VARIABLE help)
get_filename_component(isa_report_name "${isa_report}" NAME)
if(NOT rc EQUAL 0 OR NOT help MATCHES "usage: ${isa_report_name} ")
  message(FATAL_ERROR "install test: the installed isa_report did not run (${rc}): ${isa_report} --help\n${help}")
endif()

set(generator_args)
if(GENERATOR)
  list(APPEND generator_args -G "${GENERATOR}")
endif()
if(MAKE_PROGRAM)
  list(APPEND generator_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()

string(REPLACE "|" ";" COMPILERS "${COMPILERS}")
foreach(compiler IN LISTS COMPILERS)
  get_filename_component(name "${compiler}" NAME)
  set(build "${WORK_DIR}/build-${name}")
  step("configure with ${name}" "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${build}" ${generator_args}
       "-DCMAKE_CXX_COMPILER=${compiler}" "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Release
       # Only the installed package may be found, not a registry entry or a build tree.
       -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
  step("build with ${name}" "${CMAKE_COMMAND}" --build "${build}")
  step("run the ${name} simulator program" "${build}/consumer_sim")
endforeach()

# Installs a configured hiptile build into a fresh prefix and builds test/install/upgrade, a project
# written against hiptile 0.1's documented API, against it, then runs it. The build must succeed
# with deprecation warnings that say what to use instead (each old form used there is still
# accepted, marked deprecated), and the program must compute every problem right.
#
#   cmake -DHIPTILE_BUILD_DIR=<build> -DUPGRADE_DIR=<test/install/upgrade> -DWORK_DIR=<scratch dir>
#         -DCOMPILER=<c++ compiler> [-DGENERATOR=<generator>] [-DMAKE_PROGRAM=<path>] -P run_upgrade_test.cmake
cmake_minimum_required(VERSION 3.25)
foreach(var HIPTILE_BUILD_DIR UPGRADE_DIR WORK_DIR COMPILER)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_upgrade_test.cmake: ${var} is not set")
  endif()
endforeach()

function(step what)
  string(REPLACE ";" " " shown "${ARGN}")
  message(STATUS "[${what}] ${shown}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "upgrade test: ${what} failed (${rc}): ${shown}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
step("install" "${CMAKE_COMMAND}" --install "${HIPTILE_BUILD_DIR}" --prefix "${prefix}")

set(generator_args)
if(GENERATOR)
  list(APPEND generator_args -G "${GENERATOR}")
endif()
if(MAKE_PROGRAM)
  list(APPEND generator_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
set(build "${WORK_DIR}/build")
step("configure" "${CMAKE_COMMAND}" -S "${UPGRADE_DIR}" -B "${build}" ${generator_args}
     "-DCMAKE_CXX_COMPILER=${COMPILER}" "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Release
     -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
step("build" "${CMAKE_COMMAND}" --build "${build}")
# Each old form the program uses is accepted with a warning naming its replacement.
foreach(expected "DefaultGemm selects a configuration per problem since hiptile 0.2"
                 "then call initialize\\(args\\)" "then call operator\\(\\)\\(args, stream\\)")
  if(NOT step_output MATCHES "${expected}")
    message(FATAL_ERROR "upgrade test: the build did not warn '${expected}'")
  endif()
endforeach()
step("run" "${build}/upgrade_sim")
if(NOT step_output MATCHES "upgrade from 0.1: 40 of 40 problems right")
  message(FATAL_ERROR "upgrade test: the program did not report every problem right")
endif()

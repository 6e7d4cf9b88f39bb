# hiptile's CMake helpers, used by hiptile's own build and installed for its users.
#
#   hiptile_find_sim_dependencies([MISSING <out-var>])
#       Creates hiptile::sim: hiptile::hiptile plus Boost.Context (>= 1.74) and threads, which
#       the simulator backend links. Any C++20 host compiler. When a dependency is missing it
#       stops with an error naming it; with MISSING it sets <out-var> to the missing ones instead
#       (empty when hiptile::sim exists) and returns.
#   hiptile_check_hip_compiler(<out-var>)
#       TRUE if the project's C++ compiler can compile HIP (clang >= 17).
#   hiptile_add_hip_executable(<name> SOURCES <src>... [ARCHS <gfx>...])
#       A HIP program: sources compiled as C++ with -x hip and --offload-arch for each arch, no
#       ROCm device libraries (-nogpulib), linked with the HIP runtime (libamdhip64).
#   hiptile_add_hip_isa(<name> SOURCE <src> ARCH <gfx>)
#       An object library whose single "object" is the device assembly of <src> for <gfx>:
#       read it with $<TARGET_OBJECTS:<name>>. scripts/isa_report (installed as
#       hiptile-isa-report, path in HIPTILE_ISA_REPORT) prints its resource usage.
#
# CMake 3.25's HIP language cannot find Debian's HIP layout, so HIP sources are compiled as C++
# with the flags below. Debian's HIP 5.2 headers expect __AMDGCN_WAVEFRONT_SIZE, which clang 22
# no longer defines; it is 64 on every gfx9 target.

set(HIPTILE_DEFAULT_AMD_ARCHS "gfx942;gfx90a")
# Device code is always optimised: at -O0 the HIP headers keep a device __assert_fail that needs
# the ROCm device library, which -nogpulib leaves out.
set(HIPTILE_HIP_COMPILE_FLAGS -x hip -nogpulib -D__AMDGCN_WAVEFRONT_SIZE=64 -Xarch_device -O3)

function(hiptile_find_sim_dependencies)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "MISSING" "")
  set(missing)
  if(NOT TARGET hiptile::sim)
    # QUIET: a missing package gets the one message below, not Boost's generic search report.
    find_package(Threads QUIET)
    if(NOT Threads_FOUND)
      list(APPEND missing "a threads library (Threads)")
    endif()
    find_package(Boost 1.74 QUIET CONFIG COMPONENTS context)
    if(NOT Boost_FOUND OR NOT Boost_context_FOUND)
      list(APPEND missing "Boost.Context >= 1.74 (Debian package libboost-context-dev)")
    endif()
    if(NOT missing)
      add_library(hiptile::sim INTERFACE IMPORTED GLOBAL)
      set_target_properties(hiptile::sim PROPERTIES INTERFACE_LINK_LIBRARIES
                                                    "hiptile::hiptile;Boost::context;Threads::Threads")
    endif()
  endif()
  list(JOIN missing " and " missing)
  if(arg_MISSING)
    set(${arg_MISSING} "${missing}" PARENT_SCOPE)
  elseif(missing)
    message(FATAL_ERROR "hiptile::sim needs ${missing}, which was not found")
  endif()
endfunction()

function(hiptile_check_hip_compiler out)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 17)
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

function(hiptile__require_hip_compiler what)
  hiptile_check_hip_compiler(ok)
  if(NOT ok)
    message(FATAL_ERROR "${what}: HIP needs clang >= 17 as the C++ compiler "
                        "(found ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}); "
                        "configure with -DCMAKE_CXX_COMPILER=clang++-22")
  endif()
endfunction()

function(hiptile_add_hip_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;ARCHS")
  hiptile__require_hip_compiler("hiptile_add_hip_executable(${name})")
  if(NOT arg_ARCHS)
    set(arg_ARCHS ${HIPTILE_DEFAULT_AMD_ARCHS})
  endif()
  find_library(HIPTILE_AMDHIP64 amdhip64 REQUIRED)
  add_executable(${name} ${arg_SOURCES})
  set(arch_flags)
  foreach(arch IN LISTS arg_ARCHS)
    list(APPEND arch_flags --offload-arch=${arch})
  endforeach()
  target_compile_options(${name} PRIVATE ${HIPTILE_HIP_COMPILE_FLAGS} ${arch_flags})
  target_link_options(${name} PRIVATE --hip-link ${arch_flags})
  target_link_libraries(${name} PRIVATE hiptile::hiptile ${HIPTILE_AMDHIP64})
endfunction()

function(hiptile_add_hip_isa name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SOURCE;ARCH" "")
  hiptile__require_hip_compiler("hiptile_add_hip_isa(${name})")
  add_library(${name} OBJECT ${arg_SOURCE})
  target_compile_options(${name} PRIVATE ${HIPTILE_HIP_COMPILE_FLAGS} --offload-arch=${arg_ARCH}
                                         --cuda-device-only -S)
  # clang ignores -MD/-MF in a device-only compile (and -c next to -S), so the build would not see
  # header changes; have the compiler itself write the dependency file the build tool reads.
  set(object $<TARGET_OBJECTS:${name}>)
  target_compile_options(${name} PRIVATE -Wno-unused-command-line-argument
                                         "SHELL:-Xclang -dependency-file -Xclang ${object}.d"
                                         "SHELL:-Xclang -MT -Xclang ${object}")
  target_link_libraries(${name} PRIVATE hiptile::hiptile)
endfunction()

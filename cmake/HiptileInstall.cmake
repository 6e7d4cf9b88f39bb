# Install rules: headers, the CMake helpers, an exported hiptile::hiptile target and the ISA
# report script, so that
#   find_package(hiptile CONFIG REQUIRED)                   # or COMPONENTS sim: see hiptileConfig.cmake.in
#   target_link_libraries(app PRIVATE hiptile::hiptile)     # or hiptile::sim for simulator builds
# works against a `cmake --install` prefix.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(HIPTILE_INSTALL_CMAKEDIR "${CMAKE_INSTALL_DATADIR}/cmake/hiptile")
# scripts/isa_report, renamed to say whose it is in a shared bin/; the package config gives its
# absolute path as HIPTILE_ISA_REPORT.
set(HIPTILE_ISA_REPORT_NAME "hiptile-isa-report")
set(HIPTILE_INSTALL_ISA_REPORT "${CMAKE_INSTALL_BINDIR}/${HIPTILE_ISA_REPORT_NAME}")

install(TARGETS hiptile EXPORT hiptileTargets)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/hiptile" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(EXPORT hiptileTargets NAMESPACE hiptile:: DESTINATION "${HIPTILE_INSTALL_CMAKEDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/cmake/HiptileHelpers.cmake" DESTINATION "${HIPTILE_INSTALL_CMAKEDIR}")
install(PROGRAMS "${PROJECT_SOURCE_DIR}/scripts/isa_report" DESTINATION "${CMAKE_INSTALL_BINDIR}"
        RENAME "${HIPTILE_ISA_REPORT_NAME}")

configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/hiptileConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/hiptileConfig.cmake"
                              INSTALL_DESTINATION "${HIPTILE_INSTALL_CMAKEDIR}"
                              PATH_VARS HIPTILE_INSTALL_ISA_REPORT)
# A header-only library fits any architecture.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/hiptileConfigVersion.cmake"
                                 COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/hiptileConfig.cmake" "${PROJECT_BINARY_DIR}/hiptileConfigVersion.cmake"
        DESTINATION "${HIPTILE_INSTALL_CMAKEDIR}")

# Install rules: headers, the CMake helpers and an exported hiptile::hiptile target, so that
#   find_package(hiptile CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE hiptile::hiptile)   # or hiptile::sim for simulator builds
# works against a `cmake --install` prefix.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(HIPTILE_INSTALL_CMAKEDIR "${CMAKE_INSTALL_DATADIR}/cmake/hiptile")

install(TARGETS hiptile EXPORT hiptileTargets)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/hiptile" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(EXPORT hiptileTargets NAMESPACE hiptile:: DESTINATION "${HIPTILE_INSTALL_CMAKEDIR}")
install(FILES "${PROJECT_SOURCE_DIR}/cmake/HiptileHelpers.cmake" DESTINATION "${HIPTILE_INSTALL_CMAKEDIR}")

configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/hiptileConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/hiptileConfig.cmake"
                              INSTALL_DESTINATION "${HIPTILE_INSTALL_CMAKEDIR}")
# A header-only library fits any architecture.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/hiptileConfigVersion.cmake"
                                 COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/hiptileConfig.cmake" "${PROJECT_BINARY_DIR}/hiptileConfigVersion.cmake"
        DESTINATION "${HIPTILE_INSTALL_CMAKEDIR}")

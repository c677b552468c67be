# bangc_add_gtests: registers every GoogleTest test of an executable as its
# own CTest entry, named PREFIX + Suite.Test, so that a failure names the
# test and `ctest -R` selects one. Tests are listed when CTest runs
# (PRE_TEST), not at build time: building never runs a test program.
#
#   bangc_add_gtests(TARGET PREFIX prefix. [TIMEOUT seconds]
#                    [ENVIRONMENT VAR=VALUE ...])
#
# Every entry gets BANGC_TEST_ENV (the build tree's compile cache) plus
# ENVIRONMENT.
include(GoogleTest)

function(bangc_add_gtests target)
  cmake_parse_arguments(ARG "" "PREFIX;TIMEOUT" "ENVIRONMENT" ${ARGN})
  if(NOT ARG_PREFIX)
    message(FATAL_ERROR "bangc_add_gtests(${target}): PREFIX is required")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  set(env ${BANGC_TEST_ENV} ${ARG_ENVIRONMENT})
  gtest_discover_tests(${target}
    TEST_PREFIX ${ARG_PREFIX}
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT 60
    PROPERTIES ENVIRONMENT "${env}" TIMEOUT ${ARG_TIMEOUT})
endfunction()

# Writes OUTPUT, a header naming the commit the sources are at ("+changes" when the tree differs
# from it, "unknown" outside a git checkout). Run at every build, not only at configure time, so
# that a build made after a commit says so; the file is rewritten only when the commit changed,
# so an unchanged tree recompiles nothing.
set(commit "unknown")
if(GIT)
  execute_process(COMMAND ${GIT} rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE status
                  ERROR_QUIET)
  if(status EQUAL 0)
    execute_process(COMMAND ${GIT} diff --quiet HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                    RESULT_VARIABLE dirty ERROR_QUIET)
    set(commit "${head}")
    if(NOT dirty EQUAL 0)
      string(APPEND commit "+changes")
    endif()
  endif()
endif()
set(text "#pragma once\n\nnamespace piles {\n// The commit these sources are at.\ninline constexpr const char* commit = \"${commit}\";\n}  // namespace piles\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUTPUT} "${text}")
endif()

# The test example_20_hiptile_tune (cmake -DTOOL=<hiptile_tune> -DDB=<file> -P this): the tool tunes
# two shapes into a fresh database; the file must then hold exactly two entry lines and the printed
# table must name both shapes.
set(shapes 512x512x512 16x1024x2048)
file(REMOVE "${DB}" "${DB}.lock")
execute_process(COMMAND "${TOOL}" --db "${DB}" --types f16 --layouts rcr --mode search ${shapes}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "hiptile_tune exited with ${rc}")
endif()
foreach(shape IN LISTS shapes)
  if(NOT out MATCHES "(^|\n)${shape} ")
    message(FATAL_ERROR "the table does not name ${shape}")
  endif()
endforeach()
file(STRINGS "${DB}" entries REGEX "^hiptile-tuning-1\t")
list(LENGTH entries count)
if(NOT count EQUAL 2)
  message(FATAL_ERROR "${DB} holds ${count} entry lines, not 2")
endif()
file(REMOVE "${DB}" "${DB}.lock")

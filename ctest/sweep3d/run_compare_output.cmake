# Runs sweep3d as the original is run (the deck copied to ./input, no argument) under
# mpiexec and compares its report with the original's output line by line, up to the
# timing lines (CPU and elapsed time differ run to run).
# -D MPIEXEC= -D NPFLAG= -D NP= -D EXE= -D GOLDEN= -D WORKDIR= [-D ARGS=]
file(MAKE_DIRECTORY ${WORKDIR})
configure_file(${GOLDEN}/input ${WORKDIR}/input COPYONLY)
execute_process(COMMAND ${MPIEXEC} ${NPFLAG} ${NP} ${EXE} --no-results ${ARGS}
                WORKING_DIRECTORY ${WORKDIR} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sweep3d failed (${rc}): ${err}")
endif()
file(READ ${GOLDEN}/output.txt want)
# A first run on a fresh machine-file cache says, before the report, that it measured this
# host (the models' input; the original has no models): not part of the report.
string(REGEX REPLACE "^machine: [^\n]*\n" "" out "${out}")
foreach(v out want)
  string(FIND "${${v}}" " CPU     time was:" cut)
  string(SUBSTRING "${${v}}" 0 ${cut} ${v})
endforeach()
if(NOT out STREQUAL want)
  file(WRITE ${WORKDIR}/got.txt "${out}")
  file(WRITE ${WORKDIR}/want.txt "${want}")
  message(FATAL_ERROR "report differs from the original's: diff ${WORKDIR}/got.txt ${WORKDIR}/want.txt")
endif()

# The machine file of instrument.probe.cold_default_sets_np2 (no --working-sets): the default
# working sets, 0, 256 KiB, 512 KiB, 1 MiB (the two around this CPU's 1 MiB L2, where the
# apps' blocks sit), 2 MiB, 16 MiB and 64 MiB, each either a cold point, in this order, or
# named in probe.cold_dropped (a loaded host; then with fewer points). No cold keys at all
# (probe.cold_omitted, a host too loaded for any) is accepted as documented.
file(STRINGS "${FILE}" omitted REGEX "^probe\\.cold_omitted = ")
if(omitted)
  message(STATUS "${FILE}: ${omitted} (a loaded host: no cold keys, as documented)")
  return()
endif()
file(STRINGS "${FILE}" dropped REGEX "^probe\\.cold_dropped = ")
set(i 0)
foreach(n 0 262144 524288 1048576 2097152 16777216 67108864)
  math(EXPR next "${i} + 1")
  file(STRINGS "${FILE}" point REGEX "^loggp\\.cold\\.point\\.${next}\\.working_set_bytes = ${n}$")
  if(point)
    set(i ${next})
  elseif(NOT dropped MATCHES "(= |; )${n} B \\(only ")
    message(FATAL_ERROR "expected loggp.cold.point.${next}.working_set_bytes = ${n} (a default working set) "
                        "or ${n} B in probe.cold_dropped in ${FILE}")
  endif()
endforeach()
file(STRINGS "${FILE}" count REGEX "^loggp\\.cold\\.points = ${i}$")
if(NOT count)
  message(FATAL_ERROR "expected loggp.cold.points = ${i} in ${FILE}")
endif()
message(STATUS "${FILE}: ${i} cold points at the default working sets")

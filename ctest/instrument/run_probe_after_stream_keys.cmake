# The machine file of instrument.probe.cold_np2 (--quick --stream-messages 2 --max-bytes 1024):
# two after-stream points, 0 and 2 messages of 1024 B (--stream-bytes 12000 measured at
# --max-bytes), each with an increasing interval and two times, positive numbers of seconds
# below 1 s; and --quick's one streaming working set (4 MiB) either in the keys
# (loggp.after_stream.working_set.1.bytes) or named in probe.after_stream_dropped. On a host so
# loaded that too few repetitions of the spinning series had the ranks arriving as intended, the
# probe writes probe.after_stream_omitted with the reason and no loggp.after_stream.* key:
# accepted.
file(STRINGS "${FILE}" omitted REGEX "^probe\\.after_stream_omitted = ")
file(STRINGS "${FILE}" dropped REGEX "^probe\\.after_stream_dropped = ")
file(STRINGS "${FILE}" lines REGEX "^loggp\\.after_stream\\.")
if(omitted)
  if(lines OR dropped)
    message(FATAL_ERROR "probe.after_stream_omitted with loggp.after_stream.* keys or probe.after_stream_dropped in ${FILE}")
  endif()
  message(STATUS "${FILE}: ${omitted} (a loaded host: no after-stream keys, as documented)")
  return()
endif()
list(FIND lines "loggp.after_stream.working_set.1.bytes = 4194304" streamed)
if(streamed LESS 0)
  if(NOT dropped MATCHES "4194304 B: ")
    message(FATAL_ERROR "expected the 4 MiB working set in loggp.after_stream.working_set.1.bytes or named in "
                        "probe.after_stream_dropped in ${FILE}")
  endif()
elseif(dropped)
  message(FATAL_ERROR "the 4 MiB working set both kept and dropped in ${FILE}: ${dropped}")
endif()
set(times 0)
set(intervals "")
foreach(l ${lines})
  if(l MATCHES "^loggp\\.after_stream\\.point\\.[12]\\.(interval_seconds|allreduce8|second_allreduce8) = (.*)$")
    set(v "${CMAKE_MATCH_2}")
    if(NOT v MATCHES "^(0\\.[0-9]*[1-9][0-9]*|[1-9](\\.[0-9]+)?e-[0-9]+)$")
      message(FATAL_ERROR "expected a time in (0, 1) s: ${l}")
    endif()
    math(EXPR times "${times} + 1")
  endif()
endforeach()
foreach(want "loggp.after_stream.points = 2" "loggp.after_stream.point.1.messages = 0"
             "loggp.after_stream.point.2.messages = 2" "loggp.after_stream.message_bytes = 1024")
  list(FIND lines "${want}" at)
  if(at LESS 0)
    message(FATAL_ERROR "expected the line '${want}' in ${FILE}")
  endif()
endforeach()
if(NOT times EQUAL 6)
  message(FATAL_ERROR "expected 6 times (2 points x 3), found ${times}")
endif()
message(STATUS "${FILE}: 2 after-stream points, 6 times in (0, 1) s")

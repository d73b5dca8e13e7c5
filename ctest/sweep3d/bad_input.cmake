# Bad input: every rank exits non-zero, stdout empty, stderr exactly one line naming the field
# and what was expected. Each bad deck is copied with its grid "1 1" made "1 N", so that the
# grid check passes and the deck's own error is the one reported.
set(_bad
  "missing_record|line 5 field 1 \\(iprint\\): end of file in record 5"
  "missing_field|line 2: record 1 .* is complete but the line goes on"
  "extra_field|line 1: record 1 .* is complete but the line goes on with \"99\""
  "extra_line|line 6: unexpected \"7\" after the last record"
  "not_a_number|line 3 field 2 \\(dy\\): expected a real number, got \"abc\""
  "real_in_integer|line 1 field 3 \\(mk\\): expected an integer, got \"10.0\""
  "npe_zero|line 1 field 1 \\(npe_i\\): npe_i \\(processes in I\\) must be in \\[1, 16777216\\]. got \"0\""
  "npe_mismatch|line 1 field 2 \\(npe_j\\): npe_i\\*npe_j = 2\\*2 = 4 must equal the number of MPI ranks"
  "zero_cells|line 2 field 2 \\(jt_g\\): jt_g \\(cells in J\\) must be in \\[1, 16777216\\]. got \"0\""
  "negative_width|line 3 field 3 \\(dz\\): dz \\(cell width\\) must be in \\[1e-6, 1e6\\] cm. got \"-.1\""
  "width_huge|line 3 field 1 \\(dx\\): dx \\(cell width\\) must be in \\[1e-6, 1e6\\] cm. got \"1e308\""
  "width_tiny|line 3 field 2 \\(dy\\): dy \\(cell width\\) must be in \\[1e-6, 1e6\\] cm. got \"1e-200\""
  "key_width_huge|line 4 \\(dz\\): dz \\(cell width\\) must be in \\[1e-6, 1e6\\] cm. got \"1e308\""
  "mk_zero|line 1 field 3 \\(mk\\): mk \\(k-planes per block. above kt it is clamped to kt\\) must be in \\[1, 16777216\\]. got \"0\""
  "mk_negative|line 1 field 3 \\(mk\\): mk .* must be in \\[1, 16777216\\]. got \"-1\""
  "mmi_zero|line 1 field 4 \\(mmi\\): mmi \\(angles per block\\) must be 1, 2, 3 or 6 \\(a factor of mm\\). got \"0\""
  "mmi_not_a_factor|line 1 field 4 \\(mmi\\): mmi \\(angles per block\\) must be 1, 2, 3 or 6 \\(a factor of mm\\). got \"4\""
  "ncpu_zero|line 1 field 5 \\(ncpu\\): ncpu \\(CPUs per SMP node, for the printed estimate only\\) must be in \\[1, 65536\\]. got \"0\""
  "ncpu_huge|line 1 field 5 \\(ncpu\\): ncpu .* must be in \\[1, 65536\\]. got \"100000\""
  "it_g_int_max|line 2 field 1 \\(it_g\\): it_g \\(cells in I\\) must be in \\[1, 16777216\\]. got \"2147483647\""
  "too_many_cells|line 2 field 3 \\(kt\\): a grid of 16777216\\*16777216\\*16777216 cells is more than the 1099511627776 \\(2\\^40\\) cells"
  "mm_unsupported|line 2 field 4 \\(mm\\): mm \\(angles per octant\\) must be 3 \\(S4\\) or 6 \\(S6\\). got \"8\""
  "isct_unsupported|line 2 field 5 \\(isct\\): isct \\(scattering order\\) must be 0 \\(P0\\) or 1 \\(P1\\). got \"2\""
  "epsi_zero|line 3 field 4 \\(epsi\\): epsi \\(convergence: .*\\) must be in \\[1e-15, 1\\] \\(converge\\) or in .-100000, 0\\) .*0 is the original's endless loop. got \"0\""
  "epsi_nan|line 3 field 4 \\(epsi\\): epsi .* must be in \\[1e-15, 1\\] .*. got \"nan\""
  "epsi_too_small|line 3 field 4 \\(epsi\\): epsi .* must be in \\[1e-15, 1\\] .*. got \"1e-20\""
  "epsi_too_many_iterations|line 3 field 4 \\(epsi\\): epsi .* or in .-100000, 0\\) .*. got \"-1e9\""
  "ifixups_int_min|line 5 field 3 \\(ifixups\\): ifixups \\(fixups: .*\\) must be in \\[-100000, 2147483647\\] .*. got \"-2147483648\""
  "null_value|line 4 field 2 \\(jbc\\): null value"
  "slash_early|line 5 field 2 \\(idsa\\): '/' ends record 5 before all its fields"
  "empty|line 1: the deck is empty"
  "key_unknown|line 2: unknown key \"npe_k\""
  "key_missing|end of file: missing key\\(s\\) ibc jbc kbc iprint idsa ifixups"
  "memory_2e40_cells|it_g\\*jt_g\\*kt: rank 0 with the [12] rank\\(s\\) of its node, for a grid of 1048576\\*1048576\\*1 cells \\([0-9]+ on this rank: flux, sources, faces, messages\\) needs [0-9.]+ TiB, more than the [0-9.]+ [KMGT]?i?B this process can allocate")
foreach(entry ${_bad})
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 name)
  list(GET fields 1 regex)
  file(READ ${CMAKE_CURRENT_LIST_DIR}/bad_decks/${name}.input text)
  foreach(n 1 2)
    string(REGEX REPLACE "^1 1 " "1 ${n} " deck "${text}")
    set(copy ${CMAKE_CURRENT_BINARY_DIR}/bad_input/np${n}/${name}.input)
    file(WRITE ${copy} "${deck}")
    suite_add_error_test(NAME sweep3d.bad_input.${name}.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
                         EXPECT "^sweep3d: error: .*${regex}" COMMAND $<TARGET_FILE:sweep3d> ${copy})
  endforeach()
endforeach()
# A face message larger than an MPI count (2 ranks: on one nothing is sent).
set(copy ${CMAKE_CURRENT_BINARY_DIR}/bad_input/np2/face_message_too_large.input)
file(READ ${CMAKE_CURRENT_LIST_DIR}/bad_decks/face_message_too_large.input text)
string(REGEX REPLACE "^1 1 " "1 2 " deck "${text}")
file(WRITE ${copy} "${deck}")
suite_add_error_test(NAME sweep3d.bad_input.face_message_too_large.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 60
  EXPECT "^sweep3d: error: .*face_message_too_large.input:line 1 field 3 \\(mk\\): a face message of 12884901888 doubles \\(cells of a face line \\* mk \\* mmi\\) is more than an MPI count, 2147483647"
  COMMAND $<TARGET_FILE:sweep3d> ${copy})
# Input files that are not regular files are refused without blocking (a FIFO with no
# writer would block open()), and so is a deck larger than a deck can be.
set(_fifo ${CMAKE_CURRENT_BINARY_DIR}/bad_input/deck.fifo)
if(NOT EXISTS ${_fifo})
  execute_process(COMMAND mkfifo ${_fifo})
endif()
set(_big ${CMAKE_CURRENT_BINARY_DIR}/bad_input/big.input)
string(REPEAT "! a comment line of a deck that is far too large for one\n" 20000 _big_text)
file(WRITE ${_big} "${_big_text}")
set(_not_regular
  "missing_file|does_not_exist: cannot open the input deck: No such file or directory|does_not_exist"
  "fifo|deck.fifo: the input deck is a FIFO, not a regular file|${_fifo}"
  "dev_zero|/dev/zero: the input deck is a character device, not a regular file|/dev/zero"
  "directory|bad_input: the input deck is a directory, not a regular file|${CMAKE_CURRENT_BINARY_DIR}/bad_input"
  "too_large|big.input: the input deck is 1140000 bytes, more than the 1048576 bytes|${_big}")
foreach(entry ${_not_regular})
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 name)
  list(GET fields 1 regex)
  list(GET fields 2 path)
  foreach(n 1 2)
    suite_add_error_test(NAME sweep3d.bad_input.${name}.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
                         EXPECT "^sweep3d: error: .*${regex}" COMMAND $<TARGET_FILE:sweep3d> ${path})
  endforeach()
endforeach()
# Options: every number has a range, named when refused (before it can overflow or crash).
set(_deck ${PROJECT_SOURCE_DIR}/inputs/sweep3d/small.input)
set(_bad_options
  "threads_x|command line:--threads: expected a whole number in \\[1, 64\\] \\(OpenMP threads per rank: the kernel's limit\\), got \"x\"$|--threads x"
  "threads_100000|command line:--threads: expected a whole number in \\[1, 64\\] .*, got \"100000\"|--threads 100000"
  "threads_1e9|command line:--threads: expected a whole number in \\[1, 64\\] .*, got \"1000000000\"|--threads 1000000000"
  "threads_zero|command line:--threads: expected a whole number in \\[1, 64\\] .*, got \"0\"|--threads 0"
  "threads_overflow|command line:--threads: .*, got \"99999999999999999999\"|--threads 99999999999999999999"
  "max_its|command line:--max-its: expected a whole number in \\[0, 100000\\] \\(0: no limit\\), got \"-1\"|--max-its -1"
  "mk|command line:--mk: expected a whole number in \\[1, 16777216\\] \\(k-planes per block\\) or auto, got \"0\"|--mk 0"
  "mmi|command line:--mmi: expected a whole number in \\[1, 6\\] .* or auto, got \"7\"|--mmi 7"
  "mmi_not_a_factor|option --mmi: 4 does not divide mm = 6 \\(1, 2, 3 or 6\\)|--mmi 4"
  "grid|command line:--grid: expected a whole number in \\[1, 16777216\\] for I and J of IxJ, got \"2147483648\"|--grid 1x2147483648"
  "trace_too_large|command line:--trace: expected a whole number in \\[0, 1099511627776\\] .*, got \"2000000000000\"|--trace 2000000000000"
  "trace_memory|command line:--trace: rank 0 with the [12] rank\\(s\\) of its node, for a trace of 1000000000000 events per rank, needs [0-9.]+ TiB, more than the [0-9.]+ [KMGT]?i?B this process can allocate|--trace 1000000000000")
foreach(entry ${_bad_options})
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 name)
  list(GET fields 1 regex)
  list(GET fields 2 args)
  separate_arguments(args UNIX_COMMAND "${args}")
  foreach(n 1 2)
    suite_add_error_test(NAME sweep3d.bad_option.${name}.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
                         EXPECT "^sweep3d: error: ${regex}"
                         COMMAND $<TARGET_FILE:sweep3d> ${_deck} --grid 1x${n} --no-results ${args})
  endforeach()
endforeach()
suite_add_error_test(NAME sweep3d.bad_input.two_decks.np1 RANKS 1 ONE_LINE LABELS mpi TIMEOUT 60
  EXPECT "^sweep3d: error: command line:b: expected one deck only, already have \"a\"$" COMMAND $<TARGET_FILE:sweep3d> a b)

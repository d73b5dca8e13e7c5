# Bad input: every rank exits non-zero, stdout empty, stderr exactly one line naming the field
# and what was expected. Each bad deck is copied with its grid "1 1" made "1 N", so that the
# grid check passes and the deck's own error is the one reported.
set(_bad
  "missing_record|line 5 field 1 \\(iprint\\): end of file in record 5"
  "missing_field|line 2: record 1 .* is complete but the line goes on"
  "extra_field|line 1: record 1 .* is complete but the line goes on with '99'"
  "extra_line|line 6: unexpected '7' after the last record"
  "not_a_number|line 3 field 2 \\(dy\\): expected a real number, got 'abc'"
  "real_in_integer|line 1 field 3 \\(mk\\): expected an integer, got '10.0'"
  "npe_zero|line 1 field 1 \\(npe_i\\): npe_i must be >= 1, got 0"
  "npe_mismatch|line 1 field 2 \\(npe_j\\): npe_i\\*npe_j = 2\\*2 = 4 must equal the number of MPI ranks"
  "zero_cells|line 2 field 2 \\(jt_g\\): jt_g \\(cells in J\\) must be >= 1, got 0"
  "negative_width|line 3 field 3 \\(dz\\): cell width must be a positive finite number, got -0.1"
  "mk_zero|line 1 field 3 \\(mk\\): mk \\(k-planes per block\\) must be >= 1, got 0"
  "mk_negative|line 1 field 3 \\(mk\\): mk \\(k-planes per block\\) must be >= 1, got -1"
  "mmi_zero|line 1 field 4 \\(mmi\\): mmi \\(angles per block\\) must divide mm = 6"
  "mmi_not_a_factor|line 1 field 4 \\(mmi\\): mmi \\(angles per block\\) must divide mm = 6 \\(1, 2, 3 or 6\\), got 4"
  "ncpu_zero|line 1 field 5 \\(ncpu\\): ncpu must be >= 1, got 0"
  "mm_unsupported|line 2 field 4 \\(mm\\): mm \\(angles per octant\\) must be 3 \\(S4\\) or 6 \\(S6\\), got 8"
  "isct_unsupported|line 2 field 5 \\(isct\\): isct \\(scattering order\\) must be 0 \\(P0\\) or 1 \\(P1\\), got 2"
  "epsi_zero|line 3 field 4 \\(epsi\\): epsi must not be 0"
  "null_value|line 4 field 2 \\(jbc\\): null value"
  "slash_early|line 5 field 2 \\(idsa\\): '/' ends record 5 before all its fields"
  "empty|line 1: the deck is empty"
  "key_unknown|line 2: unknown key 'npe_k'"
  "key_missing|end of file: missing key\\(s\\) ibc jbc kbc iprint idsa ifixups")
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
suite_add_error_test(NAME sweep3d.bad_input.missing_file.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 60
  EXPECT "^sweep3d: error: does_not_exist: cannot open the input deck" COMMAND $<TARGET_FILE:sweep3d> does_not_exist)
suite_add_error_test(NAME sweep3d.bad_input.bad_option.np2 RANKS 2 ONE_LINE LABELS mpi TIMEOUT 60
  EXPECT "^sweep3d: error: option --threads: expected a non-negative integer, got 'x'"
  COMMAND $<TARGET_FILE:sweep3d> --threads x)
suite_add_error_test(NAME sweep3d.bad_input.two_decks.np1 RANKS 1 ONE_LINE LABELS mpi TIMEOUT 60
  EXPECT "^sweep3d: error: more than one deck given" COMMAND $<TARGET_FILE:sweep3d> a b)

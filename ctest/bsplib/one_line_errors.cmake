# One line, every process ended, non-zero exit (issue 36): the library's fatal errors and the
# examples' and benchmarks' refusals of their command line and process count.

# The library's errors print once: MPI_Abort's own "Abort(1) on node ..." line is suppressed,
# the exit handler that reports a process leaving inside bsp_begin/bsp_end does not report
# the abort a second time (at p = 1 MPICH's MPI_Abort runs the exit handlers: 4 lines were
# printed), and processes failing at once agree that the lowest prints.
# name|ranks|mode of bsp_t_bad_usage|message|ABORTS or empty (every process exits 1 itself)
set(fatal_cases
  "abort.np1|1|abort|bsp_abort on process 0 in superstep 1: user abort from process 0$|ABORTS"
  "abort.np2|2|abort|bsp_abort on process 1 in superstep 1: user abort from process 1$|ABORTS"
  "abort_every_process.np1|1|abort_every_process|bsp_abort on process 0 in superstep 1: user abort from every process$|ABORTS"
  "abort_every_process.np3|3|abort_every_process|bsp_abort on process 0 in superstep 1: user abort from every process$|ABORTS"
  "exit_without_end.np1|1|exit_without_end|exit on process 0 in superstep 1: the process ended without calling bsp_end|ABORTS"
  "exit_without_end.np2|2|exit_without_end|exit on process 1 in superstep 1: the process ended without calling bsp_end|ABORTS"
  "put_unregistered.np2|2|put_unregistered|bsp_put on process 0 in superstep 1: address .* is not registered|ABORTS"
  "begin_bad_count.np2|2|begin_bad_count|bsp_begin on process 0 in superstep 0: asked for 0 processes|"
  "outside_begin.np2|2|outside_begin|bsp_put: called outside bsp_begin/bsp_end|")
foreach(c ${fatal_cases})
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 name)
  list(GET parts 1 np)
  list(GET parts 2 mode)
  list(GET parts 3 expect)
  list(LENGTH parts n)
  set(aborts "")
  if(n GREATER 4)
    list(GET parts 4 aborts)
  endif()
  suite_add_error_test(NAME bsplib.one_line.${name} RANKS ${np} ONE_LINE ${aborts}
                       LABELS "mpi;unit" TIMEOUT 90 EXPECT "^BSP error: ${expect}"
                       COMMAND $<TARGET_FILE:bsp_t_bad_usage> ${mode})
endforeach()

# Command lines and process counts the examples and benchmarks refuse, before any figure
# (the C examples by bsp_abort before bsp_begin: the program's message alone, no "BSP error").
# name|ranks|program|message|arguments...
set(usage_cases
  "five_hundred_relation.bogus.np1|1|five_hundred_relation|^five_hundred_relation: error: command line:--bogus: unknown option .see five_hundred_relation --help.$|--bogus"
  "five_hundred_relation.junk.np1|1|five_hundred_relation|^five_hundred_relation: ROUNDS must be a whole number in .1, 1000000.. got \"5x\"|5x"
  "five_hundred_relation.zero.np2|2|five_hundred_relation|^five_hundred_relation: ROUNDS must be a whole number in .1, 1000000.. got \"0\"|0"
  "five_hundred_relation.extra.np1|1|five_hundred_relation|five_hundred_relation: unexpected argument \"x\"|2|x"
  "bsp_init_example.bogus.np1|1|bsp_init_example|^bsp_init_example: error: command line:--bogus: unknown option .see bsp_init_example --help.$|--bogus"
  "bsp_init_example.bogus.np2|2|bsp_init_example|^bsp_init_example: error: command line:--bogus: unknown option .see bsp_init_example --help.$|--bogus"
  "bsp_init_example.extra.np2|2|bsp_init_example|^bsp_init_example: unexpected argument \"x\"|x"
  "bsp_put_bench.bogus.np2|2|bsp_put_bench|^bsp_put_bench: error: command line:--bogus: unknown option .see bsp_put_bench --help.$|--bogus"
  "bsp_put_bench.junk.np2|2|bsp_put_bench|^bsp_put_bench: R must be a whole number in .1, 100000.. got \"-3\"|-3"
  "bsp_put_bench.p1|1|bsp_put_bench|^bsp_put_bench: needs 2 or more processes .process 0 puts into process 1.. got 1"
  "bench_empty_sync.bogus.np1|1|bench_empty_sync|^bench_empty_sync: error: command line:--bogus: unknown option .see bench_empty_sync --help.$|--bogus"
  "bench_empty_sync.zero.np2|2|bench_empty_sync|^bench_empty_sync: error: command line:N: expected a whole number in .1, 100000000., got \"0\"|0"
  "bench_small_supersteps.bogus.np1|1|bench_small_supersteps|^bench_small_supersteps: error: command line:--bogus: unknown option .see bench_small_supersteps --help.$|--bogus"
  "bench_small_supersteps.junk.np1|1|bench_small_supersteps|^bench_small_supersteps: error: command line:S: expected a whole number in .1, 10000000., got \"5x\"|5x"
  "bench_put_words.bogus.np1|1|bench_put_words|^bench_put_words: error: command line:--bogus: unknown option .see bench_put_words --help.$|--bogus"
  "bench_put_words.zero.np1|1|bench_put_words|^bench_put_words: error: command line:W: expected a whole number in .1, 16777216., got \"0\"|0"
  "bench_put_words.too_few_words.np3|3|bench_put_words|^bench_put_words: error: command line:W: expected at least p - 1 = 2 words|1"
  "bench_registrations.bogus.np1|1|bench_registrations|^bench_registrations: error: command line:--bogus: unknown option .see bench_registrations --help.$|--bogus"
  "bench_mechanism.bogus.np2|2|bench_mechanism|^bench_mechanism: error: command line:--bogus: unknown option .see bench_mechanism --help.$|--bogus"
  "bench_mechanism.p1|1|bench_mechanism|^bench_mechanism: error: needs 2 or more processes"
  "bench_first_messages.bogus.np2|2|bench_first_messages|^bench_first_messages: error: command line:--bogus: unknown option .see bench_first_messages --help.$|--bogus"
  "bench_first_messages.p1|1|bench_first_messages|^bench_first_messages: error: needs 2 or more processes"
  "bench_put_bandwidth.bogus.np1|1|bench_put_bandwidth|^bench_put_bandwidth: error: command line:--bogus: unknown option .see bench_put_bandwidth --help.$|--bogus"
  "bench_put_bandwidth.p1|1|bench_put_bandwidth|^bench_put_bandwidth: error: needs 2 or more processes .process 0 and process 1 exchange the data.. got 1"
  "bench_put_bandwidth.no_machine_value.np2|2|bench_put_bandwidth|^bench_put_bandwidth: error: command line:--machine: expected a value after it$|--machine"
  "bench_put_sizes.bogus.np2|2|bench_put_sizes|^bench_put_sizes: error: command line:--bogus: unknown option .see bench_put_sizes --help.$|--bogus"
  "bench_put_sizes.p1|1|bench_put_sizes|^bench_put_sizes: error: needs 2 or more processes")
foreach(c ${usage_cases})
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 name)
  list(GET parts 1 np)
  list(GET parts 2 program)
  list(GET parts 3 expect)
  list(LENGTH parts n)
  set(arguments "")
  if(n GREATER 4)
    list(SUBLIST parts 4 -1 arguments)
  endif()
  suite_add_error_test(NAME bsplib.usage.${name} RANKS ${np} ONE_LINE LABELS "mpi;unit"
                       TIMEOUT 90 EXPECT "${expect}"
                       COMMAND $<TARGET_FILE:${program}> ${arguments})
endforeach()

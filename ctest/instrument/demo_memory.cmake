# instrument-demo's up-front memory check counts what the run allocates for --cells and
# --bytes on every rank of the node (2 ranks at --bytes 2^30 once took 8 GiB in 3 s, each
# checked alone): at 2^27 cells and --bytes 2^30 a rank needs 4 GiB, refused against 3 GiB at
# 1 rank and against 7 GiB at 2 ranks (8 GiB on the node). SUITE_MEMORY_AVAILABLE stands in
# for the machine's free memory. And a halo wider than the strip (--bytes above 8 x --cells)
# is refused: it was sent from the ghost cells being received into, and MPICH aborted.
set(_d ${CMAKE_CURRENT_BINARY_DIR}/demo_memory)
file(MAKE_DIRECTORY ${_d})
foreach(n 1 2)
  if(n EQUAL 1)
    set(_available 3)
    set(_need "4 GiB")
  else()
    set(_available 7)
    set(_need "8 GiB \\(4 GiB a rank at 2 ranks on this node\\)")
  endif()
  suite_add_error_test(NAME instrument.demo_memory.bytes_2_30.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    NO_FILE ${_d}/demo.h5
    EXPECT "^instrument-demo: error: command line:--cells 134217728 --bytes 1073741824: a strip of 134217728 cells with halos of 134217728 values needs about ${_need}, more than the ${_available} GiB available$"
    COMMAND env SUITE_MEMORY_AVAILABLE=${_available}GiB $<TARGET_FILE:instrument-demo>
            --cells 134217728 --bytes 1073741824 --steps 2 --warmup 1 --passes 1 --out ${_d}/demo.h5)
  suite_add_error_test(NAME instrument.demo_memory.halo_wider_than_strip.np${n} RANKS ${n} ONE_LINE LABELS mpi TIMEOUT 60
    NO_FILE ${_d}/demo.h5
    EXPECT "^instrument-demo: error: command line:--bytes: expected at most 8 x --cells = 8000 bytes \\(a halo is sent from the strip's own cells\\), got 1073741824$"
    COMMAND $<TARGET_FILE:instrument-demo> --cells 1000 --bytes 1073741824 --steps 2 --warmup 1 --passes 1 --out ${_d}/demo.h5)
endforeach()

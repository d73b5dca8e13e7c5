#!/usr/bin/env bash
# Fuzzing (fuzz/README.md): builds the libFuzzer targets of fuzz/ with clang, ASan and UBSan
# in build-fuzz (installing clang and its runtimes if missing), runs each target for a fixed
# time from its seed corpus, then runs every regression input. Exits non-zero on any finding
# (crash, sanitizer report, uncaught exception, hang, out of memory); the reproducer is in
# build-fuzz/findings/<target>/ and the fuzzer's output in build-fuzz/logs/<target>.log.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]   default 20 s, every target
#   FUZZ_RUNS=1000000 scripts/fuzz.sh [TARGET...]      local long mode: each target until it
#                                                      has run 10^6 inputs; prints a table of
#                                                      executions, exec/s and time
#   FUZZ_RUNS=N FUZZ_FORK=J scripts/fuzz.sh TARGET      long mode in libFuzzer's fork mode:
#                                                      J worker processes; a crash, hang or
#                                                      OOM does not stop the run, and each
#                                                      one is classified afterwards (below)
# Targets are named as in fuzz/ (deck, machine_file, results_structure, ...). Other settings:
# FUZZ_TIMEOUT (seconds one input may take, default 5), BUILD_DIR (default build-fuzz).
# New inputs the fuzzer finds go to build-fuzz/corpus/<target>/, never into the repository.
set -euo pipefail
source "$(dirname "$0")/usage.sh"
script_help "$0" "$@"
cd "$(dirname "$0")/.."
root=$PWD

seconds=20
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
fi
# The targets are checked before anything is installed or built: a typo (or an option this
# script does not take) is one line and exit 2, not minutes of clang's build first.
for t in "$@"; do
  if [ ! -f "fuzz/${t}_fuzzer.cpp" ]; then
    known=$(for src in fuzz/*_fuzzer.cpp; do basename "$src" _fuzzer.cpp; done | tr '\n' ' ')
    echo "fuzz: '$t': expected SECONDS_PER_TARGET first, then target names of fuzz/ (${known% }); -h for help" >&2
    exit 2
  fi
done
runs=${FUZZ_RUNS:-}
jobs=${FUZZ_FORK:-}
if [ -n "$jobs" ] && { [ -z "$runs" ] || ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; }; then
  echo "fuzz: FUZZ_FORK=$jobs needs a positive number of workers and FUZZ_RUNS (long mode)" >&2
  exit 2
fi
timeout_s=${FUZZ_TIMEOUT:-5}
build=${BUILD_DIR:-build-fuzz}
rss_mb=6144  # see the target loop; the machine has 24 GiB and runs one target at a time

# --- clang, libFuzzer and the sanitizer runtimes, OpenMP for clang (idempotent) ----------
bash scripts/install-deps.sh
fuzz_packages=(clang libclang-rt-14-dev libomp-14-dev)
missing=()
for p in "${fuzz_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "fuzz: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- build --------------------------------------------------------------------------------
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSUITE_FUZZ=ON \
  -DSUITE_TESTS=OFF >/dev/null
cmake --build "$build" -j 2 --target fuzz_all >"$build/build.log" 2>&1 || {
  tail -n 40 "$build/build.log"
  echo "fuzz: the build failed (full log: $build/build.log)" >&2
  exit 1
}

# --- run ----------------------------------------------------------------------------------
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for src in fuzz/*_fuzzer.cpp; do
    name=$(basename "$src" _fuzzer.cpp)
    targets+=("$name")
  done
fi

# A finding ends the process: UBSan aborts instead of going on, and every report has a stack.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# No crash inside libhdf5 under the suite's readers is excused: the reader hands libhdf5 only
# files of the checksummed format and no variable-length data (instrument/src/hdf5_read.cpp),
# so a crash there on any bytes is a finding like any other (until 2026-12-01 results_bytes
# kept them apart as the library's defects). The one exception: results_structure builds its
# file through HDF5 before the readers see it, and HDF5's type code has crashed while it did
# (a SEGV in H5T_close_real under the builder's H5Tclose, 2026-11-23: an enum with no member,
# which the builder no longer makes): a crash inside libhdf5 with the builder
# (fuzz::build_h5_file) on the stack is kept apart, counted, and fuzzing goes on.
builder_defects_in=(results_structure)

# 0 when report $2 of target $1 is a crash inside libhdf5 while the harness built its file.
in_builder() {
  [[ " ${builder_defects_in[*]} " == *" $1 "* ]] && [[ $(crash_frame "$2") == *libhdf5* ]] &&
    grep -E '^ +#[0-9]+ .* in fuzz::build_h5_file' "$2" >/dev/null
}

# The frame a sanitizer or libFuzzer report points at: the first stack frame outside the
# fuzzer, the sanitizer runtime and the C/C++ runtime libraries. glibc's frames are named
# libc.so, or, where its debug information is found, by a sysdeps/ source and a name such as
# __memcpy_avx512_unaligned_erms (CI met one: a crash inside HDF5 then read as a finding).
# Every stage reads its whole input (sed, not head; grep without -q): under pipefail a stage
# that stops reading early kills the one before it with SIGPIPE, which filed crashes inside
# HDF5 as findings at random.
crash_frame() {
  # An allocation the allocator refused: frame #0 is always its malloc interceptor, which the
  # symbolizer once left unnamed under load (2026-11-24: one of 81 such reports).
  local skip='^$'
  if grep -qE 'allocator is out of memory|allocation-size-too-big|requested allocation size' "$1"; then
    skip='^ +#0 '
  fi
  grep -E '^ +#[0-9]+ ' "$1" | grep -vE "$skip" |
    grep -vE 'fuzzer::|__asan|__lsan|__ubsan|__sanitizer|__interceptor|libc\.so|libstdc\+\+|sysdeps/|in (malloc|calloc|realloc|free|abort|raise|mem(cpy|move|set|cmp)|str[a-z]*) |in __(mem|str)[a-z0-9_]* ' |
    sed -n '1p'
}

# Fork mode (FUZZ_FORK): libFuzzer runs the target in worker processes and carries on past a
# crash, a hang or an OOM, which the restart loop below cannot do cheaply when crashes are
# frequent (each restart reloads the whole corpus). Every sanitizer
# report goes to its own file (log_path) and is classified afterwards like a crash of the
# restart loop; a hang or OOM leaves no report, so its input is run again alone. Prints
# "EXECUTIONS LIBRARY FINDINGS"; the findings' reports are listed in $found/findings.txt.
run_forked() {  # bin work found log t args...
  local bin=$1 work=$2 found=$3 log=$4 t=$5
  shift 5
  local reports="$found/reports"
  rm -rf "$reports"
  mkdir -p "$reports" "$found/hdf5-library"
  : >"$found/findings.txt"
  local options="log_path=$reports/report"
  ASAN_OPTIONS="$ASAN_OPTIONS:$options" UBSAN_OPTIONS="$UBSAN_OPTIONS:$options" \
    "$bin" -fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 "$@" \
    >"$log" 2>&1 || true  # non-zero whenever a worker crashed: the reports decide
  local execs
  execs=$(sed -n 's/^#\([0-9][0-9]*\): cov:.*/\1/p' "$log" | tail -n 1)
  if ! grep -q '^INFO: fuzzed for [0-9]* iterations' "$log"; then
    echo "fuzz: $t: the fork-mode run ended early (see $log)" >>"$found/findings.txt"
  fi
  local library=0 report frame artefact out
  for report in "$reports"/*; do
    [ -f "$report" ] || continue
    grep -qE 'ERROR: |runtime error' "$report" || continue  # exit statistics only
    frame=$(crash_frame "$report")
    if in_builder "$t" "$report"; then
      library=$((library + 1))
    else
      echo "$report: ${frame:-no frame}" >>"$found/findings.txt"
    fi
  done
  for artefact in "$found"/timeout-* "$found"/oom-*; do
    [ -f "$artefact" ] || continue
    out="$artefact.replay"
    # One that does not recur alone was a worker starved by a loaded machine, not a hang.
    if "$bin" -timeout="$timeout_s" -rss_limit_mb="$rss_mb" -malloc_limit_mb=2048 \
         "$artefact" >"$out" 2>&1; then
      mkdir -p "$found/not-recurring"
      mv "$artefact" "$out" "$found/not-recurring/"
      continue
    fi
    # A replay that ended without a stack (the timeout struck while an OOM report was being
    # symbolised, on a loaded machine) is run once more with time to finish its report.
    if [ -z "$(crash_frame "$out")" ]; then
      "$bin" -timeout=60 -rss_limit_mb="$rss_mb" -malloc_limit_mb=2048 "$artefact" >"$out" 2>&1 || true
    fi
    if in_builder "$t" "$out"; then
      library=$((library + 1))
    else
      echo "$artefact: $(crash_frame "$out")" >>"$found/findings.txt"
    fi
  done
  if [ ! -s "$found/findings.txt" ]; then
    mv "$found"/crash-* "$found"/timeout-* "$found"/oom-* "$found"/*.replay "$found/hdf5-library/" \
      2>/dev/null || true
  fi
  echo "${execs:-0} $library $(wc -l <"$found/findings.txt")"
}

mkdir -p "$build/logs"
findings=()
table=()
for t in "${targets[@]}"; do
  bin="$build/fuzz/fuzz_$t"
  [ -x "$bin" ] || { echo "fuzz: no target fuzz_$t (in fuzz/CMakeLists.txt?)" >&2; exit 1; }
  work="$build/corpus/$t"
  found="$build/findings/$t"
  mkdir -p "$work" "$found"
  seeds=()
  [ -d "fuzz/corpus/$t" ] && seeds+=("fuzz/corpus/$t")
  # One allocation of 2 GiB is a finding (its stack names who asked), but the process may
  # hold more: under ASan a freed buffer stays mapped in the quarantine (when the reader still
  # let libhdf5 read variable-length strings, until 2026-12-01, a few damaged ones in a row
  # took a results_bytes process past an RSS limit of 2 GiB with nothing of ours live). The
  # RSS limit is the process's, the malloc limit the allocation's.
  args=(-timeout="$timeout_s" -rss_limit_mb="$rss_mb" -malloc_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$found/")
  [ -f "fuzz/dict/$t.dict" ] && args+=(-dict="fuzz/dict/$t.dict")
  if [ -n "$runs" ]; then
    args+=(-runs="$runs")
  else
    args+=(-max_total_time="$seconds")
  fi
  log="$build/logs/$t.log"
  : >"$log"
  [ -f "fuzz/lsan/$t.supp" ] && export LSAN_OPTIONS="suppressions=$root/fuzz/lsan/$t.supp"
  start=$(date +%s.%N)
  execs=0
  library=0
  if [ -n "$jobs" ]; then
    read -r execs library nfound < <(run_forked "$bin" "$work" "$found" "$log.run" "$t" \
      "${args[@]}" "$work" "${seeds[@]}")
    status=0
    [ "$nfound" -eq 0 ] || status=1
    cat "$log.run" >>"$log"
  fi
  while [ -z "$jobs" ]; do
    status=0
    # New inputs go to the first directory ($work); the committed seeds are only read.
    "$bin" "${args[@]}" "$work" "${seeds[@]}" >"$log.run" 2>&1 || status=$?
    cat "$log.run" >>"$log"
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log.run" | tail -n 1)
    execs=$((execs + ${n:-0}))
    # A crash inside HDF5 while the harness built its file (in_builder): kept apart, counted,
    # and fuzzing goes on for the rest of the time.
    in_library=0
    if [ "$status" -ne 0 ] && in_builder "$t" "$log.run"; then
      in_library=1
    fi
    if [ "$in_library" -eq 1 ]; then
      library=$((library + 1))
      mkdir -p "$found/hdf5-library"
      mv "$found"/crash-* "$found"/timeout-* "$found"/oom-* "$found/hdf5-library/" 2>/dev/null || true
      if [ -n "$runs" ]; then  # long mode: the executions left
        if [ "$execs" -lt "$runs" ]; then
          args=("${args[@]/#-runs=*/-runs=$((runs - execs))}")
          continue
        fi
      else
        now=$(date +%s)
        left=$((seconds - (now - ${start%.*})))
        if [ "$left" -gt 2 ] && [ "$library" -lt 100 ]; then
          args=("${args[@]/#-max_total_time=*/-max_total_time=$left}")
          continue
        fi
      fi
      status=0
    fi
    break
  done
  end=$(date +%s.%N)
  elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }')
  rate=$(awk -v n="$execs" -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", n / (b - a) }')
  note=""
  [ "$library" -gt 0 ] && note=" ($library crashes inside HDF5 while the harness built a file: $found/hdf5-library/)"
  if [ -n "$jobs" ] && [ -d "$found/not-recurring" ]; then
    note+=" ($(find "$found/not-recurring" -name '*.replay' | wc -l) worker timeouts or OOMs that did not recur alone: $found/not-recurring/)"
  fi
  if [ "$status" -ne 0 ]; then
    findings+=("$t")
    echo "fuzz: $t: FINDING (exit $status) after $execs executions; reproducer in $found/"
    [ -s "$found/findings.txt" ] && sed 's/^/  /' "$found/findings.txt"
    grep -E '^(==[0-9]+== ?ERROR|SUMMARY|.*runtime error|terminate called|  what\(\)|artifact_prefix|Test unit written|.*left open)' \
      "$log.run" | head -n 20 || true
    crash_frame "$log.run" | sed 's/^ */  crashed in: /'
    echo "  (full output: $log)"
  else
    echo "fuzz: $t: $execs executions, ${rate:-?} exec/s, ${elapsed} s, no finding$note"
  fi
  rm -f "$log.run"
  unset LSAN_OPTIONS
  fork_args=""
  [ -n "$jobs" ] && fork_args=" -fork=$jobs -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
  cmd="$bin$fork_args ${args[*]} $work ${seeds[*]}"
  table+=("| $t | $execs | ${rate:-?} | $elapsed | $([ "$status" -eq 0 ] && echo none || echo "exit $status")${note:+; $library in HDF5} | \`${cmd#"$root"/}\` |")
done

# --- regression inputs: every input that ever crashed a target ---------------------------
for t in "${targets[@]}"; do
  dir="fuzz/regressions/$t"
  [ -d "$dir" ] || continue
  mapfile -t inputs < <(find "$dir" -type f ! -name '*.md' | sort)
  [ ${#inputs[@]} -gt 0 ] || continue
  log="$build/logs/$t.regressions.log"
  supp=""
  [ -f "fuzz/lsan/$t.supp" ] && supp="suppressions=$root/fuzz/lsan/$t.supp"
  if LSAN_OPTIONS="$supp" "$build/fuzz/fuzz_$t" -timeout="$timeout_s" -rss_limit_mb="$rss_mb" -malloc_limit_mb=2048 "${inputs[@]}" >"$log" 2>&1; then
    echo "fuzz: $t: ${#inputs[@]} regression inputs pass"
  else
    findings+=("$t (regression)")
    echo "fuzz: $t: a regression input fails again (output: $log)"
    grep -E '^(Running:|==[0-9]+== ?ERROR|SUMMARY|.*runtime error|terminate called|  what\(\))' "$log" | head -n 20 || true
  fi
done

if [ -n "$runs" ]; then
  echo
  echo "| target | executions | exec/s | seconds | findings | command |"
  echo "|---|---:|---:|---:|---|---|"
  printf '%s\n' "${table[@]}"
fi
if [ ${#findings[@]} -gt 0 ]; then
  echo "fuzz: findings in: ${findings[*]}" >&2
  exit 1
fi
echo "fuzz: no findings"

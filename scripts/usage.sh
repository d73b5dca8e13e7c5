# Sourced by the scripts, before they change directory: their -h / --help, and a refusal of
# arguments where a script takes none (it once took `--help` for nothing and began its work).
# A script's usage is its header: the comment lines from line 2 to its `set -euo pipefail`.

# Prints SCRIPT's header and exits 0 when the first of ARGS is -h or --help; else returns.
script_help() {  # SCRIPT ARGS...
  local script=$1
  shift
  if [[ $# -gt 0 && ( $1 == -h || $1 == --help ) ]]; then
    sed -n '2,/^set -euo/p' "$script" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
  fi
}

# script_help, then one line and exit 2 for any other argument: SCRIPT takes none. SETTINGS
# says where its settings are instead ("" when it has none).
script_takes_no_arguments() {  # SCRIPT SETTINGS ARGS...
  local script=$1 settings=$2
  shift 2
  script_help "$script" "$@"
  if [ $# -gt 0 ]; then
    echo "$(basename "$script"): '$1': expected no arguments${settings:+ ($settings)}; -h for help" >&2
    exit 2
  fi
}

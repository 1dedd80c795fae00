# lib.sh - what the shell tests share (sourced, not run): the build
# directory, a scratch directory, counting failures and the closing line.
# Usage, from the repo root:  . harness/t/lib.sh; t_init NAME "$1" SUBDIR
#   fail "what went wrong"      (counts, message on stderr)
#   t_done "summary words"      (exit 1 with the count, or print the summary)

t_init() {
    T_NAME=$1
    O=${2:-build}
    tmp=$O/$3
    mkdir -p "$tmp"
    fails=0
}

fail() {
    echo "$T_NAME: FAIL: $*" >&2
    fails=$((fails + 1))
}

t_done() {
    if [ "$fails" != 0 ]; then
        echo "$T_NAME: $fails failure(s); outputs in $tmp" >&2
        exit 1
    fi
    echo "$T_NAME: $*"
}

#!/bin/sh
# clusters.sh - every broken implementation of examples/broken/ comes out
# of selcheck's diagnosis as one cluster covering all its failures, named
# by its symptom: over the whole suite (but large.lua and lengths.lua)
# where one run per test shows the bug cheaply, else over the case file of
# its row in broken.sh.  What the bug-free build of the same source
# (libnone) fails in the same run is skipped: not the bug's.
# Usage: sh cases/t/clusters.sh BUILD_DIR
set -u
. harness/t/lib.sh
. harness/t/diag_lib.sh
t_init check-cases-clusters "${1:-build}" broken/clusters
rm -f "$tmp"/*.why

# bug, scope (suite: the whole suite with --fast; file: the case file of
# its broken.sh row with --fast; all: that file, every run), what the
# cluster's name must match (grep -E).  The profile and options come from
# the bug's first row in broken.sh.  A bug without a row here runs as
# "all" and is only checked for one cluster.
# shared_scratch is a race: on a loaded machine a concurrent test may pass
# by chance ("... tests with concurrent calls (and 2 passing tests)"), so
# its name is not required to say "only".
rows() {
cat <<'EOF'
nan_canon        suite ^wrong bytes in dst.*tests with a NaN in then or else
negzero          suite ^wrong bytes in dst.*tests with a -0\.0 in then or else
cond_eq1         suite ^wrong bytes in dst.*only tests with cond bytes other than 0 and 1
float_unselected suite ^wrong bytes in dst.*tests with a NaN in then or else
blend            suite ^wrong bytes in dst
bidir_cond       suite ^lenient .*only tests with shapes the two cond rules disagree on
pdpd_cond_axis   suite ^wrong bytes in dst
zero_one         suite ^out-of-bounds access.*tests with an empty output
swap_bcast       file  ^wrong bytes in dst.*tests with then or else broadcast
dense            file  ^out-of-bounds access.*tests with an input broadcast
tail             file  ^wrong bytes in dst: never written .*tests with an output size not a multiple of 16
poison_flip      file  ^wrong bytes in dst
one_alignment    all   in run shift \(misaligned buffers\)
flags_reject     suite ^wrong status
bool_normalize   suite ^wrong bytes in dst.*tests with dtype boolean
addr_cache       suite ^(on a second call at the same addresses \(IO-REUSE-1\): )?wrong bytes in dst
grain_quiet      file  ^wrong bytes in dst
fill_float       file  ^wrong bytes in dst
plan_axis        file  ^wrong bytes in dst
ovf_zero_only    file  ^lenient
split_rem        file  ^wrong bytes in dst: the wrong elements are a tail of dst
inplace_fill     file  ^wrong bytes in dst
shared_scratch   all   ^wrong bytes in dst: in run threads .*tests with concurrent calls
EOF
}

# broken.sh's rows: bug, profile, options, case file, ...
broken_rows() {
    sed -n '/^rows()/,/^EOF/p' cases/t/broken.sh | sed '1,2d;$d'
}

# run LIB PROFILE OPTS SCOPE OUT [--skip ADDR]...: SCOPE is "suite" (but
# large.lua and lengths.lua) or a case file
run() {
    lib=$1 prof=$2 opts=$(echo "$3" | tr ',' ' ') scope=$4 out=$5
    [ "$opts" = - ] && opts=
    shift 5
    if [ "$scope" = suite ]; then
        set -- --skip 'large:*' --skip 'lengths:*' "$@"
    else
        set -- "$@" "$scope"
    fi
    # shellcheck disable=SC2086
    "$O/selcheck" --profile "$prof" $opts --impl "$lib" "$@" >"$out" 2>"$out.err"
}

# What the bug-free build fails under a profile and options, one address
# a line: not the bug's, skipped in its run.
skipfile() {
    echo "$tmp/none-$(echo "$1-$2-$3" | tr -c 'a-z\n' '_').skip"
}

# check BUG PROFILE OPTS SCOPE REGEX: the verdict in $tmp/BUG.why
check() {
    out=$tmp/$1.tap
    bug=$1 prof=$2 opts=$3 scope=$4 want=$5
    set --
    while read -r a; do set -- "$@" --skip "$a"; done <"$(skipfile "$prof" "$opts" "$scope")"
    run "$O/broken/lib$bug.so" "$prof" "$opts" "$scope" "$out" "$@"
    (
        fails=0
        fail() { echo "$*"; fails=$((fails + 1)); }
        if [ "$(tap_failures "$out")" = 0 ]; then
            fail "$bug: no failure over the suite ($out)"
        else
            one_cluster "$out" "$want"
        fi
    ) >"$tmp/$bug.why"
}

for lib in "$O"/broken/lib*.so; do
    bug=$(basename "$lib" .so | sed 's/^lib//')
    [ "$bug" = none ] && continue
    row=$(broken_rows | awk -v b="$bug" '$1 == b { print $2, $3, $4; exit }')
    if [ -z "$row" ]; then
        echo "check-cases-clusters: $bug has no row in broken.sh: not checked" >&2
        continue
    fi
    mine=$(rows | awk -v b="$bug" '$1 == b')
    how=$(printf '%s\n' "$mine" | awk '{ print $2 }')
    want=$(printf '%s\n' "$mine" | sed 's/^[^ ]* *[^ ]* *//')
    # shellcheck disable=SC2086
    set -- $row
    prof=$1 opts=$2 scope=cases/$3
    [ "$how" = suite ] && scope=suite
    if [ "$how" = suite ] || [ "$how" = file ]; then
        if [ "$opts" = - ]; then opts=--fast; else opts=$opts,--fast; fi
    fi
    echo "$bug $prof $opts $scope ${want:-.}"
done >"$tmp/plan"

# The bug-free build's failures, once per profile, options and scope.
awk '{ print $2, $3, $4 }' "$tmp/plan" | sort -u | while read -r prof opts scope; do
    sf=$(skipfile "$prof" "$opts" "$scope")
    run "$O/broken/libnone.so" "$prof" "$opts" "$scope" "$sf.tap"
    grep '^not ok ' "$sf.tap" | grep -v ' # TODO ' |
        sed 's/^not ok [0-9]* - \([^ ]*\) .*/\1/' >"$sf"
    [ "$(grep -c . "$sf")" -le 30 ] ||
        echo "libnone fails $(grep -c . "$sf") tests ($sf.tap)" >"$tmp/none.why"
done

# Two runs at a time: odd and even lines of the plan.
for half in 1 0; do
    awk -v h=$half 'NR % 2 == h' "$tmp/plan" | while read -r bug prof opts scope want; do
        check "$bug" "$prof" "$opts" "$scope" "$want"
    done &
done
wait

for why in "$tmp"/*.why; do
    [ -s "$why" ] && fail "$(cat "$why")"
done
[ "$fails" = 0 ] || t_done
t_done "$(grep -c . "$tmp/plan") broken implementations, each one cluster covering all its failures ($(grep -c ' suite ' "$tmp/plan") over the suite, the others over their case file), named by its symptom"

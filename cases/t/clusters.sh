#!/bin/sh
# clusters.sh - every broken implementation of examples/broken/, over the
# whole suite (but large.lua), comes out of selcheck's diagnosis as one
# cluster covering all its failures, named by its symptom.  What the
# bug-free build of the same source (libnone) fails too is skipped: that
# is not the bug's.  Usage: sh cases/t/clusters.sh BUILD_DIR
set -u
. harness/t/lib.sh
. harness/t/diag_lib.sh
t_init check-cases-clusters "${1:-build}" broken/clusters

# bug, whether one run per test shows it (--fast), what the cluster's
# name must match (grep -E).  The profile and options are the bug's first
# row in broken.sh.  A bug without a row here is run without --fast and
# only checked for one cluster.
rows() {
cat <<'EOF'
nan_canon        fast ^wrong bytes in dst.*tests with a NaN in then or else
negzero          fast ^wrong bytes in dst.*tests with a -0\.0 in then or else
cond_eq1         fast ^wrong bytes in dst.*only tests with cond bytes other than 0 and 1
float_unselected fast ^wrong bytes in dst.*tests with a NaN in then or else
blend            fast ^wrong bytes in dst
bidir_cond       fast ^lenient .*only tests with shapes the two cond rules disagree on
pdpd_cond_axis   fast ^wrong bytes in dst
zero_one         fast ^out-of-bounds access.*tests with an empty output
swap_bcast       fast ^wrong bytes in dst.*tests with then or else broadcast
dense            fast ^out-of-bounds access.*tests with an input broadcast
tail             fast ^wrong bytes in dst: never written .*tests with an output size not a multiple of 16
poison_flip      fast ^wrong bytes in dst
one_alignment    all  in run shift \(misaligned buffers\)
flags_reject     fast ^wrong status
bool_normalize   fast ^wrong bytes in dst.*tests with dtype boolean
addr_cache       fast ^(on a second call at the same addresses \(IO-REUSE-1\): )?wrong bytes in dst
EOF
}

# broken.sh's rows: bug, profile, options, ...
broken_rows() {
    sed -n '/^rows()/,/^EOF/p' cases/t/broken.sh | sed '1,2d;$d'
}

# run LIB PROFILE OPTS OUT [--skip ADDR]...: the suite but large.lua
run() {
    lib=$1 prof=$2 opts=$(echo "$3" | tr ',' ' ') out=$4
    [ "$opts" = - ] && opts=
    shift 4
    # shellcheck disable=SC2086
    "$O/selcheck" --profile "$prof" $opts --skip 'large:*' "$@" --impl "$lib" \
        >"$out" 2>"$out.err"
}

# What the bug-free build fails under a profile and options, one address
# a line: not the bug's, skipped in its run.
skipfile() {
    echo "$tmp/none-$1-$(echo "$2" | tr -c 'a-z\n' '_').skip"
}

# check BUG PROFILE OPTS REGEX: the verdict in $tmp/BUG.why (empty: fine)
check() {
    out=$tmp/$1.tap
    set -- "$1" "$2" "$3" "$4"
    bug=$1 prof=$2 opts=$3 want=$4
    set --
    while read -r a; do set -- "$@" --skip "$a"; done <"$(skipfile "$prof" "$opts")"
    run "$O/broken/lib$bug.so" "$prof" "$opts" "$out" "$@"
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
    row=$(broken_rows | awk -v b="$bug" '$1 == b { print $2, $3; exit }')
    [ -n "$row" ] || row="openvino -"
    mine=$(rows | awk -v b="$bug" '$1 == b')
    fast=$(printf '%s\n' "$mine" | awk '{ print $2 }')
    want=$(printf '%s\n' "$mine" | sed 's/^[^ ]* *[^ ]* *//')
    # shellcheck disable=SC2086
    set -- $row
    opts=$2
    if [ "$fast" = fast ]; then
        if [ "$opts" = - ]; then opts=--fast; else opts=$opts,--fast; fi
    fi
    echo "$bug $1 $opts ${want:-.}"
done >"$tmp/plan"

# The bug-free build's failures, once per profile and options.
awk '{ print $2, $3 }' "$tmp/plan" | sort -u | while read -r prof opts; do
    sf=$(skipfile "$prof" "$opts")
    run "$O/broken/libnone.so" "$prof" "$opts" "$sf.tap"
    grep '^not ok ' "$sf.tap" | grep -v ' # TODO ' |
        sed 's/^not ok [0-9]* - \([^ ]*\) .*/\1/' >"$sf"
    [ "$(grep -c . "$sf")" -le 30 ] ||
        echo "libnone fails $(grep -c . "$sf") tests ($sf.tap)" >"$tmp/none.why"
done

# Two runs at a time: odd and even lines of the plan.
for half in 1 0; do
    awk -v h=$half 'NR % 2 == h' "$tmp/plan" | while read -r bug prof opts want; do
        check "$bug" "$prof" "$opts" "$want"
    done &
done
wait

for why in "$tmp"/*.why; do
    [ -s "$why" ] && fail "$(cat "$why")"
done
[ "$fails" = 0 ] || t_done
t_done "$(grep -c . "$tmp/plan") broken implementations, each one cluster covering all its failures over the suite (but large.lua), named by its symptom"

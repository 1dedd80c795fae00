#!/bin/sh
# diagnose.sh - selcheck's diagnosis and output files (issue 12): each
# misbehaving library of misbehave.c is one cluster of the right class;
# --junit has as many testcases, failures and skips as the TAP, and
# prove's TAP::Formatter::JUnit reads selcheck's streams; --report and
# --matrix pages parse; --results has a line per test and reads back;
# progress goes to stderr only when it is a terminal; the checks reject a
# wrong diagnosis; README.md's sample is what selcheck prints today.
# Usage: sh harness/t/diagnose.sh O
set -u
. harness/t/lib.sh
. harness/t/diag_lib.sh
t_init check-harness-diagnose "${1:-build}" harness/t/diagnose
S=$O/selcheck
ODD=$O/examples/libminimal_oddtail.so

# 1. Each misbehaviour: one cluster, its class; a library without a row
# here is only checked for one cluster.
rows() {
cat <<'EOF'
overrun     openvino ^out-of-bounds access
underrun    openvino ^out-of-bounds access: in run start
read_after  openvino ^out-of-bounds access
read_before openvino ^out-of-bounds access: in run start
input       openvino ^modified an input
dims        openvino ^modified an input
unwritten   openvino ^wrong bytes in dst: .*never written
dims_out    openvino ^out-of-bounds access
hang        openvino ^timeout
abort       openvino ^crash: SIGABRT
exit        openvino ^exit
unsafe      openvino ^wrong bytes in dst: .*in run threads
misaligned  openvino ^crash: SIGBUS: in run shift
oneway      where    ^wrong status
EOF
}
nmis=0
for lib in "$O"/harness/t/libmis_*.so; do
    kind=$(basename "$lib" .so | sed 's/^libmis_//')
    row=$(rows | awk -v k="$kind" '$1 == k')
    profile=$(printf '%s\n' "$row" | awk '{ print $2 }')
    want=$(printf '%s\n' "$row" | sed 's/^[^ ]* *[^ ]* *//')
    "$S" --timeout 1 --profile "${profile:-openvino}" --impl "$lib" \
        harness/t/misbehave.lua >"$tmp/mis_$kind.tap" 2>/dev/null
    one_cluster "$tmp/mis_$kind.tap" "${want:-.}"
    nmis=$((nmis + 1))
done

# 2. Two implementations, every profile, skips (decline.c declines pdpd
# and f64), failures and TODOs: the JUnit, HTML and results files.
"$S" --profile all --fast --impl "$O/harness/t/libdecline.so" --impl "$ODD" \
    --only 'edges:*' --junit "$tmp/two.xml" --report "$tmp/two.html" \
    --results "$tmp/two.tsv" cases/edges.lua >"$tmp/two.tap" 2>"$tmp/two.err"
grep -q ' # SKIP ' "$tmp/two.tap" || fail "two.tap: no SKIP to count"
junit_matches "$tmp/two.tap" "$tmp/two.xml"
html_parses "$tmp/two.html"
one_cluster "$tmp/two.tap" 'only the last element is wrong'
tests=$(grep -c '^\(not \)\{0,1\}ok ' "$tmp/two.tap")
rows_tsv=$(grep -c -v '^#' "$tmp/two.tsv")
[ "$rows_tsv" = $((tests + 1)) ] || fail "two.tsv: $rows_tsv lines for $tests tests (and a header)"
skips=$(awk -F'\t' '$9 == "skip"' "$tmp/two.tsv" | grep -c .)
[ "$skips" = "$(grep '^ok ' "$tmp/two.tap" | grep -c ' # SKIP ')" ] ||
    fail "two.tsv: $skips skips, not the TAP's"

# 3. The matrix of two results files (the reference alone, and the above).
"$S" --fast --impl "$O/libselect_ref.so" --only 'edges:*' \
    --results "$tmp/ref.tsv" cases/edges.lua >"$tmp/ref.tap" 2>&1 ||
    fail "the reference fails edges.lua ($tmp/ref.tap)"
"$S" --matrix "$tmp/matrix.html" "$tmp/ref.tsv" "$tmp/two.tsv" 2>"$tmp/matrix.err" ||
    fail "--matrix: $(cat "$tmp/matrix.err")"
html_parses "$tmp/matrix.html"
for impl in reference decline minimal-oddtail; do
    grep -q "<th>$impl</th>" "$tmp/matrix.html" || fail "matrix.html: no column or row for $impl"
done
if "$S" --matrix "$tmp/bad.html" "$tmp/two.tap" 2>"$tmp/bad.err"; then
    fail "--matrix read a TAP file as results"
fi

# 4. prove's JUnit formatter on a selcheck stream: one testcase per test.
"$S" --fast --impl "$ODD" --only 'edges:*' cases/edges.lua >"$tmp/one.tap" 2>/dev/null
prove --formatter TAP::Formatter::JUnit \
    --exec "$S --fast --impl $ODD --only edges:*" cases/edges.lua \
    >"$tmp/prove.xml" 2>"$tmp/prove.err"
xmllint --noout "$tmp/prove.xml" 2>/dev/null || fail "prove's JUnit does not parse ($tmp/prove.xml)"
pt=$(xmllint --xpath 'count(//testcase)' "$tmp/prove.xml" 2>/dev/null)
pf=$(xmllint --xpath 'count(//testcase/failure)' "$tmp/prove.xml" 2>/dev/null)
[ "$pt/$pf" = "$(grep -c '^\(not \)\{0,1\}ok ' "$tmp/one.tap")/$(tap_failures "$tmp/one.tap")" ] ||
    fail "prove's JUnit: $pt testcases, $pf failures; the TAP: $(grep -c '^\(not \)\{0,1\}ok ' "$tmp/one.tap")/$(tap_failures "$tmp/one.tap")"

# 5. Progress: on a terminal (script's pty) a status line, elsewhere none.
script -qec "$S --only 'spec_examples:*' >/dev/null" /dev/null >"$tmp/pty.out" 2>&1
grep -Eq '\[[0-9]+/[0-9]+\] 0 failed +[0-9.]+s +spec_examples:' "$tmp/pty.out" ||
    fail "no progress line on a terminal: $(head -c 200 "$tmp/pty.out")"
"$S" --only 'spec_examples:*' >/dev/null 2>"$tmp/notty.err"
[ ! -s "$tmp/notty.err" ] || fail "stderr not a terminal, yet: $(head -c 200 "$tmp/notty.err")"

# 6. The checks themselves: a second cluster, or a count that is not the
# TAP's, must fail them.
neg() {
    ( fails=0; fail() { fails=$((fails + 1)); }; one_cluster "$1" .; [ "$fails" != 0 ] ) ||
        fail "one_cluster accepted $1"
}
sed 's/^# cluster 1: .*/&\n# cluster 2: another [misbehave]/' "$tmp/mis_overrun.tap" >"$tmp/neg1.tap"
sed 's/^#   count: .*/#   count: 7/' "$tmp/mis_overrun.tap" >"$tmp/neg2.tap"
neg "$tmp/neg1.tap"
neg "$tmp/neg2.tap"

# 7. README.md's sample failure and diagnosis is today's output.
sh harness/t/readme_sample.sh "$O" 2>"$tmp/readme.err" ||
    fail "$(tail -1 "$tmp/readme.err")"

t_done "$nmis misbehaving libraries one cluster each; JUnit ($tests tests, 2 implementations, skips), prove's JUnit, HTML, results, matrix; progress only on a terminal; README sample current"

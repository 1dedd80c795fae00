#!/bin/sh
# examples.sh - selcheck against examples/minimal.c and its two broken
# copies, over the whole suite: the example passes everything; the copy
# that skips the last element of odd-sized outputs fails exactly there,
# with a YAML block naming that element; the copy that crashes on rank-0
# input is reported as a crash on exactly the rank-0 tests and the run
# completes.  Each broken copy comes out as one cluster in the diagnosis,
# named by its symptom; the odd tail's JUnit and HTML files parse and
# agree with its TAP.  Usage: sh examples/t/examples.sh O
set -u
. harness/t/lib.sh
. harness/t/diag_lib.sh
t_init check-examples "${1:-build}" examples/t

# The whole suite, every profile, against libNAME.so; the exit status goes
# to NAME.rc.  The broken copies run once per test (--fast): their bugs
# show in the first run.
run() {
    "$O/selcheck" --profile all $2 --impl "$O/examples/lib$1.so" \
        >"$tmp/$1.tap" 2>"$tmp/$1.err"
    echo $? >"$tmp/$1.rc"
}
run minimal "" &
run minimal_oddtail "--fast --junit $tmp/oddtail.xml --report $tmp/oddtail.html" &
run minimal_rank0crash --fast &
wait

# Every test line is there: the plan and the count of ok/not ok agree.
complete() {
    plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$1")
    lines=$(grep -c '^\(not \)\{0,1\}ok ' "$1")
    [ -n "$plan" ] && [ "$plan" = "$lines" ] || fail "$1: plan $plan, $lines lines"
}

rc=$(cat "$tmp/minimal.rc")
[ "$rc" = 0 ] || fail "minimal: exit $rc ($(grep -c '^not ok' "$tmp/minimal.tap") failures, $tmp/minimal.tap)"
complete "$tmp/minimal.tap"
total=$(grep -c '^ok ' "$tmp/minimal.tap")

# Odd tail: each failure is a byte mismatch at index N-1 of N (N odd),
# 1 mismatch, and a failure happens wherever an output is odd-sized.
rc=$(cat "$tmp/minimal_oddtail.rc")
[ "$rc" = 1 ] || fail "minimal_oddtail: exit $rc, want 1"
complete "$tmp/minimal_oddtail.tap"
awk '
/^not ok / && !/ # TODO / { n++; name = $0; idx = ""; mm = ""; msg = "" }
/^  message: / { msg = $0 }
/^    index: / { idx = $2 }
/^  mismatches: / { mm = $2 }
/^  \.\.\.$/ && name != "" {
    split(mm, p, "/")
    if (msg !~ /wrong bytes in dst/ || p[1] != 1 || p[2] % 2 != 1 || idx != p[2] - 1) {
        print "not the last element of an odd output: " name " (" msg ", index " idx ", " mm ")"
        bad++
    }
    name = ""
}
END { if (n == 0) { print "no failure at all"; bad++ } exit bad != 0 }
' "$tmp/minimal_oddtail.tap" >"$tmp/oddtail.why" || fail "minimal_oddtail: $(head -3 "$tmp/oddtail.why")"

# Rank-0 crash: a test crashed if and only if one of its shapes is rank 0
# ("_" in cond:then:else), each crash is named, the others pass.
rc=$(cat "$tmp/minimal_rank0crash.rc")
[ "$rc" = 1 ] || fail "minimal_rank0crash: exit $rc, want 1"
complete "$tmp/minimal_rank0crash.tap"
awk '
/^(not )?ok / {
    d = $0; sub(/^(not )?ok [0-9]+ - /, "", d); split(d, f, " ")
    k = split(f[2], s, ":"); r0 = 0
    for (i = 1; i <= k; i++) if (s[i] == "_") r0 = 1
    failed = $0 ~ /^not ok/ && $0 !~ / # TODO /  # TODO lines are not failures
    pending = failed; crashes += failed; zeros += r0
    if (r0 != failed) { print (r0 ? "rank 0 but no crash: " : "failed without rank 0: ") $0; bad++ }
}
/^  message: / && pending {
    if ($0 !~ /crashed: killed by SIGSEGV/) { print "not reported as a crash: " $0; bad++ }
    pending = 0
}
END { if (crashes == 0) { print "no crash reported"; bad++ } exit bad != 0 }
' "$tmp/minimal_rank0crash.tap" >"$tmp/rank0.why" || fail "minimal_rank0crash: $(head -3 "$tmp/rank0.why")"

# The diagnosis: one cluster each, covering every failure, named by the
# symptom; the odd tail's other outputs.
one_cluster "$tmp/minimal_oddtail.tap" '^wrong bytes in dst: only the last element is wrong, never written .*; tests with an odd-sized output'
one_cluster "$tmp/minimal_rank0crash.tap" '^crash: SIGSEGV; only tests with a rank-0 input'
junit_matches "$tmp/minimal_oddtail.tap" "$tmp/oddtail.xml"
html_parses "$tmp/oddtail.html"

[ "$fails" = 0 ] || t_done
odd=$(grep '^not ok' "$tmp/minimal_oddtail.tap" | grep -vc ' # TODO ')
r0=$(grep '^not ok' "$tmp/minimal_rank0crash.tap" | grep -vc ' # TODO ')
t_done "minimal passes $total tests; odd tail caught in $odd (each at its last element); rank-0 crash reported in exactly its $r0 rank-0 tests; one cluster each; JUnit and HTML parse"

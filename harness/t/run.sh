#!/bin/sh
# run.sh - the harness's own tests, for both front ends: exit codes 0/1/2,
# script errors reported with file and line while the run goes on, the
# sandbox, --list and --only, the repro line.  Usage: sh harness/t/run.sh O
set -u
. harness/t/lib.sh
t_init check-harness-run "${1:-build}" harness/t/run
T=harness/t
REF=$O/libselect_ref.so

# expect_rc RC DESCRIPTION COMMAND...: the exit status, stdout and stderr
# land in $tmp/out and $tmp/err.
expect_rc() {
    want=$1 what=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    [ "$got" = "$want" ] || fail "$what: exit $got, want $want ($*)"
}

has() { grep -q -- "$1" "$tmp/out" || fail "$2: no line matching '$1' in stdout"; }
has_err() { grep -q -- "$1" "$tmp/err" || fail "$2: no line matching '$1' in stderr"; }

for S in "$O/selcheck" "$O/selcheck-jit"; do
    n=$(basename "$S")
    # 0: all pass; the plan matches the lines; literal data checked.
    expect_rc 0 "$n good" "$S" --impl "$REF" --profile all "$T/good.lua"
    has '^TAP version 13$' "$n good"
    plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tmp/out")
    lines=$(grep -c '^ok ' "$tmp/out")
    [ -n "$plan" ] && [ "$plan" = "$lines" ] || fail "$n good: plan $plan, $lines ok lines"
    has '^ok [0-9]* - good:example_3x2\[i8\] 3x2:3x2:3x2 numpy \[openvino reference\] seed=1 digest=[0-9a-f]\{16\}$' "$n good"

    # 1: script errors are failing lines with file:line, the rest runs.
    expect_rc 1 "$n script errors" "$S" --impl "$REF" "$T/bad_syntax.lua" \
        "$T/bad_field.lua" "$T/good.lua"
    has "^not ok [0-9]* - script error: $T/bad_syntax.lua:5: " "$n syntax error"
    has "^not ok [0-9]* - script error: $T/bad_field.lua:5: unknown field 'shape' in case{}" "$n unknown field"
    has '^ok [0-9]* - bad_field:before\[f32\]' "$n before the bad case"
    has '^ok [0-9]* - bad_field:after\[f32\]' "$n after the bad case"
    has '^ok [0-9]* - good:scalar\[u8\]' "$n the next file"
    [ "$(grep -c '^not ok' "$tmp/out")" = 2 ] || fail "$n: want exactly 2 failures"

    # Bad requests: each one failing line naming file, line and problem.
    expect_rc 1 "$n bad input" "$S" --impl "$REF" "$T/bad_input.lua"
    B="$T/bad_input.lua"
    for m in "$B:4: huge\[u8\] shape: too large for the harness" \
             "$B:5: shapes.x: negative dim" \
             "$B:6: shapes.x: rank 5000 is beyond the harness limit" \
             "$B:7: case{} takes one table, got string" \
             "$B:8: dtypes: unknown dtype 'f17'" \
             "$B:9: unknown rule id 'NO-SUCH-RULE'" \
             "$B:10: inexact\[f16\] then (x) data: 0.10000000000000001 as f16: not exact" \
             "$B:11: cond bytes other than 0 and 1 need rule COND-NZ-1" \
             "$B:12: id 'Bad-Id'" \
             "$B:14: duplicate id 'dup' (also at line 13)" \
             "$B:15: then (x) data has 3 elements"; do
        grep -q "script error: $m" "$tmp/out" || fail "$n bad input: no '$m'"
    done
    [ "$(grep -c '^not ok' "$tmp/out")" = 11 ] || fail "$n bad input: want 11 failures"

    # The sandbox holds; print goes to stderr, never into TAP.
    expect_rc 0 "$n sandbox" "$S" --impl "$REF" "$T/sandbox.lua"
    has_err 'print goes to stderr' "$n sandbox"
    grep -q 'print goes' "$tmp/out" && fail "$n: print reached stdout"

    # Scripts are untrusted too (issue 17): no re-entry into case{}; a
    # case{} that errors, even inside pcall, is dropped; a memory limit;
    # the same stack-overflow message with its line in both front ends;
    # special files refused; control characters never reach TAP.
    expect_rc 1 "$n re-entered case{}" "$S" --impl "$REF" "$T/reenter.lua"
    has "^not ok [0-9]* - script error: $T/reenter.lua:7: case{} called while another case{} is being read" "$n re-entry"
    has '^ok [0-9]* - reenter:before\[f32\]' "$n before the re-entry"
    [ "$(grep -c '^ok' "$tmp/out")" = 1 ] || fail "$n re-entry: a case read from inside case{} ran"
    expect_rc 0 "$n case{} erroring in pcall" "$S" --impl "$REF" "$T/pcall_case.lua"
    has '^1\.\.1$' "$n the half-read case is dropped"
    has '^ok 1 - pcall_case:after\[f32\]' "$n the script goes on"
    expect_rc 1 "$n memory bomb" "$S" --impl "$REF" "$T/mem_bomb.lua"
    has "^not ok 1 - script error: script $T/mem_bomb.lua ran past its memory limit (256 MiB)" "$n memory limit"
    expect_rc 1 "$n stack overflow" "$S" --impl "$REF" "$T/stack_overflow.lua"
    has "^not ok 1 - script error: $T/stack_overflow.lua:3: stack overflow$" "$n stack overflow"
    rm -f "$tmp/fifo.lua" && mkfifo "$tmp/fifo.lua"
    expect_rc 1 "$n FIFO as a case file" timeout 20 "$S" --impl "$REF" "$tmp/fifo.lua"
    has "script error: $tmp/fifo.lua: not a regular file" "$n FIFO refused"
    lib="$tmp/lib
ok 999 - injected.so"
    cp "$REF" "$lib"
    expect_rc 0 "$n newline in --impl" "$S" --impl "$lib" --only 'good:scalar[u8]' "$T/good.lua"
    grep -q '^ok 999' "$tmp/out" && fail "$n: a newline in --impl reached TAP as a line"
    has '^# impl: .*ok 999 - injected.so' "$n the path, on its comment line"

    # --list runs nothing; --only picks one address (brackets literal).
    expect_rc 0 "$n list" "$S" --list --profile all "$T/good.lua"
    has '^good:row_broadcast\[f16\] 4x1:1x3:4x3 numpy \[where\]$' "$n list"
    expect_rc 1 "$n list with a script error" "$S" --list "$T/bad_field.lua"
    has_err "bad_field.lua:5: unknown field" "$n list error"
    expect_rc 0 "$n only" "$S" --impl "$REF" --only 'good:scalar[u8]' "$T/good.lua"
    has '^1\.\.1$' "$n only"
    expect_rc 0 "$n only glob" "$S" --impl "$REF" --only 'good:*[f32]' \
        --skip '*bad*' "$T/good.lua"
    has '^1\.\.1$' "$n only glob"

    # 2: usage and setup errors, one line on stderr, nothing on stdout
    # (the worker's words reach it with '_' for spaces: h_wspawn.c).
    expect_rc 2 "$n unknown option" "$S" --frobnicate "$T/good.lua"
    has_err "unknown option '--frobnicate'" "$n unknown option"
    expect_rc 2 "$n missing file" "$S" --impl "$REF" "$T/no_such_file.lua"
    has_err 'cannot read case file' "$n missing file"
    expect_rc 2 "$n no sel_get_impl" "$S" --impl "$O/harness/t/libnosym.so" "$T/good.lua"
    has_err 'does.not.export.sel_get_impl' "$n no sel_get_impl"
    expect_rc 2 "$n wrong ABI" "$S" --impl "$O/harness/t/libbadabi.so" "$T/good.lua"
    has_err 'ABI.version.2' "$n wrong ABI"
    expect_rc 2 "$n missing library" "$S" --impl "$tmp/nonexistent.so" "$T/good.lua"
    has_err 'cannot.load' "$n missing library"
    expect_rc 2 "$n unknown profile" "$S" --profile nope "$T/good.lua"
    has_err "unknown profile 'nope'" "$n unknown profile"
    expect_rc 2 "$n missing value" "$S" --seed
    has_err "needs a value" "$n missing value"
    expect_rc 2 "$n bad timeout" "$S" --timeout 0 "$T/good.lua"
    [ -s "$tmp/out" ] && fail "$n: a setup error printed to stdout"
    [ "$(wc -l <"$tmp/err")" = 1 ] || fail "$n: a setup error is not one line"
done

# A match that backtracks for hours inside one C call (string.find): the
# hook never runs.  At top level the script's probe (a child) is stopped
# at the limit + 2 s: a script error, the next file runs (selcheck); in a
# fill function the watchdog bails out naming it (selcheck-jit; the same
# code serves both front ends); the two at once.
"$O/selcheck" --timeout 1 --impl "$REF" "$T/find_hang.lua" "$T/good.lua" >"$tmp/find1" 2>&1 &
p1=$!
"$O/selcheck-jit" --timeout 1 --impl "$REF" "$T/find_fill.lua" >"$tmp/find2" 2>&1 &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
[ $r1 = 1 ] && grep -q "^not ok 1 - script error: $T/find_hang.lua: script ran past its time limit (6 s) in code no hook stops" "$tmp/find1" &&
    grep -q '^ok [0-9]* - good:scalar\[u8\]' "$tmp/find1" ||
    fail "top-level string.find not stopped as a script error: exit $r1 ($tmp/find1)"
[ $r2 = 2 ] && grep -q '^Bail out! selcheck: fill.x of find_fill:find_in_fill\[f32\] .* ran past its time limit (6 s)' "$tmp/find2" ||
    fail "string.find in a fill not stopped: exit $r2 ($tmp/find2)"

# A test larger than the memory left is refused by name, before any of it
# is allocated (h_mem.c; SELCHECK_MEM_AVAILABLE stands in for the
# machine's figure), and the run goes on.
for S in selcheck selcheck-jit; do
    SELCHECK_MEM_AVAILABLE=1024 "$O/$S" --impl "$REF" "$T/mem_need.lua" >"$tmp/mem" 2>&1 ||
        fail "$S mem_need.lua: exit $?, want 0"
    grep -q '^ok 1 - mem_need:big\[u8\] .* # SKIP needs about 1792 MiB of memory, 1024 MiB available here' "$tmp/mem" ||
        fail "$S mem_need.lua: the large test was not refused ($tmp/mem)"
    grep -q '^ok 2 - mem_need:small\[u8\]' "$tmp/mem" || fail "$S mem_need.lua: the run did not go on"
done

# Both front ends print the same TAP for the self-test scripts too.
"$O/selcheck" --impl "$REF" --profile all "$T/good.lua" "$T/bad_field.lua" >"$tmp/a" 2>/dev/null
"$O/selcheck-jit" --impl "$REF" --profile all "$T/good.lua" "$T/bad_field.lua" >"$tmp/b" 2>/dev/null
cmp -s "$tmp/a" "$tmp/b" || fail "selcheck and selcheck-jit differ on harness/t"

t_done "exit codes, script errors, sandbox, script limits, --list/--only: all as expected"

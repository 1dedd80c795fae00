#!/bin/sh
# custom.sh - fill and check functions in case scripts, for both front
# ends: the buffer API on every dtype (t/custom.lua, all passing), misuse
# reported with file, line and message (t/custom_bad.lua), the same TAP
# from both; a runaway fill stopped (t/custom_hang.lua).
# Usage: sh harness/t/custom.sh O
set -u
. harness/t/lib.sh
t_init check-harness-custom "${1:-build}" harness/t/custom
T=harness/t
REF=$O/libselect_ref.so

# The runaway fill takes 6 s per front end: start both first.
"$O/selcheck" --timeout 1 --impl "$REF" "$T/custom_hang.lua" \
    >"$tmp/hang-lua54.tap" 2>"$tmp/hang-lua54.err" &
p1=$!
"$O/selcheck-jit" --timeout 1 --impl "$REF" "$T/custom_hang.lua" \
    >"$tmp/hang-luajit.tap" 2>"$tmp/hang-luajit.err" &
p2=$!

for S in selcheck selcheck-jit; do
    "$O/$S" --profile all --impl "$REF" "$T/custom.lua" >"$tmp/good-$S.tap" 2>&1
    rc=$?
    [ "$rc" = 0 ] || fail "$S custom.lua: exit $rc ($(grep -m1 'message' "$tmp/good-$S.tap"))"
    "$O/$S" --impl "$REF" "$T/custom_bad.lua" >"$tmp/bad-$S.tap" 2>&1
    rc=$?
    [ "$rc" = 1 ] || fail "$S custom_bad.lua: exit $rc, want 1"
done
n=$(grep -c '^ok' "$tmp/good-selcheck.tap")
[ "$n" -ge 40 ] || fail "custom.lua: only $n tests passed"
cmp -s "$tmp/good-selcheck.tap" "$tmp/good-selcheck-jit.tap" ||
    fail "custom.lua: the front ends differ ($tmp/good-*.tap)"
cmp -s "$tmp/bad-selcheck.tap" "$tmp/bad-selcheck-jit.tap" ||
    fail "custom_bad.lua: the front ends differ ($tmp/bad-*.tap)"

B="$T/custom_bad.lua"
for m in "oob\[f32\] fill.x: $B:9: x\[4\]: out of range: x has 4 elements" \
         "readonly\[f32\] fill.x: $B:10: y is read-only here" \
         "inexact\[f32\] fill.x: $B:11: x\[1\] = 0.10000000000000001: want a number exact in f32" \
         "nan\[f32\] fill.x: $B:12: x\[1\] = nan: want a number exact in f32, not NaN" \
         "bits\[f16\] fill.y: $B:13: y\[1\] = 70000: want an f16 bit pattern 0..65535" \
         "notnum\[i8\] fill.y: $B:14: y\[0\] = <string>: want an integer -128..127" \
         "nonzero\[f32\] fill.cond: wrote 2 at \[1\]: cond bytes other than 0 and 1 need rule COND-NZ-1" \
         "stale\[f32\] fill.y: $B:18: x: used after its fill or check function returned" \
         "the case's check fails on the reference's output: the property fails" \
         "nil\[f32\] check: want true, or false and a message; got nil" \
         "field\[f32\] check: $B:21: dst has no field 'foo'" \
         "wide\[i64\] check: $B:22: x\[0\]: beyond 2^53, not exact as a number" \
         "nested\[f32\] check: $B:23: case{} belongs at the top of the script" \
         "rand\[f32\] fill.x: $B:24: rand(m, n): want integers m <= n" \
         "raise\[f32\] fill.x: $B:25: from the fill" \
         "$B:7: fill: want {cond = f, x = f, y = f}" \
         "$B:7: fill.x: want a function(buf, t)" \
         "$B:7: fill: names no input" \
         "$B:7: unknown field 'z' in fill" \
         "$B:7: check: want a function(out, t)"; do
    grep -q "message: \".*$m" "$tmp/bad-selcheck.tap" || fail "custom_bad.lua: no message '$m'"
done
[ "$(grep -c '^not ok' "$tmp/bad-selcheck.tap")" = 20 ] ||
    fail "custom_bad.lua: want 20 failures, got $(grep -c '^not ok' "$tmp/bad-selcheck.tap")"

wait $p1
rc1=$?
wait $p2
rc2=$?
H="$T/custom_hang.lua"
[ "$rc1" = 1 ] || fail "selcheck custom_hang.lua: exit $rc1, want 1"
grep -q "message: \"script error: $H:5: spin\[f32\] fill.x: $H:7: script ran past its time limit (6 s)\"" \
    "$tmp/hang-lua54.tap" || fail "selcheck custom_hang.lua: no time limit message"
grep -q '^ok 2 - custom_hang:after\[f32\]' "$tmp/hang-lua54.tap" ||
    fail "selcheck custom_hang.lua: the run did not go on"
[ "$rc2" = 2 ] || fail "selcheck-jit custom_hang.lua: exit $rc2, want 2"
grep -q "^Bail out! selcheck: fill.x of custom_hang:spin\[f32\] ($H:7) ran past its time limit (6 s) in code no hook stops" \
    "$tmp/hang-luajit.tap" || fail "selcheck-jit custom_hang.lua: no Bail out! line"

t_done "$n fill/check tests pass with the same TAP from both front ends; 20 misuses reported alike; a runaway fill stopped"

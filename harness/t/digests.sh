#!/bin/sh
# digests.sh - the data each test runs on does not depend on the front end
# or the implementation: the cases with computed operands (values.lua:
# SLEEF classes, patterns; custom.lua and guarded_math.lua: fill
# functions) under every profile, with selcheck and selcheck-jit against
# the reference and with selcheck-jit against the optimized backend at
# every ISA level this machine runs.  Every test must pass and print the
# same address, profile and digest=... in every run.
# Usage: sh harness/t/digests.sh O
set -u
. harness/t/lib.sh
t_init check-harness-digests "${1:-build}" harness/t/digests
FILES="cases/values.lua cases/custom.lua cases/guarded_math.lua"
runs=""

# run NAME ENV... SELCHECK IMPL: the TAP in $tmp/NAME.tap, the digests in
# $tmp/NAME.dig ("address profile digest" per test).
run() {
    name=$1
    shift
    if ! env "$@" --fast --profile all $FILES >"$tmp/$name.tap" 2>"$tmp/$name.err"; then
        echo "check-harness-digests: $name: a test failed or the run stopped ($tmp/$name.tap)" >&2
        grep -m3 -A3 '^not ok' "$tmp/$name.tap" >&2
        exit 1
    fi
    sed -n 's/^ok [0-9]* - \([^ ]*\) .* \[\([a-z]*\) [^]]*\] seed=[0-9]* digest=\([0-9a-f]\{16\}\)$/\1 \2 \3/p' \
        "$tmp/$name.tap" >"$tmp/$name.dig"
    runs="$runs $name"
}

run lua54-ref "$O/selcheck" --impl "$O/libselect_ref.so"
run luajit-ref "$O/selcheck-jit" --impl "$O/libselect_ref.so"
isas=$("$O/opt/opt_ktest" --supported)
for isa in $isas; do
    run "luajit-opt-$isa" SEL_ISA="$isa" "$O/selcheck-jit" --impl "$O/libselect_opt.so"
done

n=$(wc -l <"$tmp/lua54-ref.dig")
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tmp/lua54-ref.tap")
[ "$n" -gt 0 ] && [ "$n" = "$plan" ] || {
    echo "check-harness-digests: $n digests for a plan of $plan tests" >&2
    exit 1
}
for r in $runs; do
    cmp -s "$tmp/lua54-ref.dig" "$tmp/$r.dig" || {
        echo "check-harness-digests: $r differs from lua54-ref:" >&2
        diff "$tmp/lua54-ref.dig" "$tmp/$r.dig" | head -5 >&2
        exit 1
    }
done
sleef=$(grep -c ':sleef_\|^guarded_math:' "$tmp/lua54-ref.dig")
fills=$(grep -c '^custom:\|^guarded_math:' "$tmp/lua54-ref.dig")
echo "check-harness-digests: $n tests ($sleef on SLEEF operands, $fills with fill functions), same digests from selcheck and selcheck-jit on the reference and on the optimized backend at" $isas

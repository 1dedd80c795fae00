#!/bin/sh
# wfuzz.sh - the protocol fuzzer: the judge (built with ASan+UBSan) against
# selcheck-worker-fuzz, whose replies wfuzz.c mangles, for several seeds:
# selcheck must end normally (exit 0 or 1, a complete plan), with no
# sanitizer report, and name the mangled replies as forged or corrupt.
# Usage: sh harness/t/wfuzz.sh O SEEDS
set -u
. harness/t/lib.sh
t_init check-harness-wfuzz "${1:-build}" harness/t/wfuzz
seeds=${2:-8}
forged=0 tests=0
s=1
while [ "$s" -le "$seeds" ]; do
    out=$tmp/seed$s
    SELCHECK_WORKER=$O/harness/t/selcheck-worker-fuzz SELCHECK_WFUZZ=$s \
        "$O/selcheck" --timeout 1 --fast --profile all --impl "$O/libselect_ref.so" \
        cases/spec_examples.lua cases/errors.lua harness/t/misbehave.lua \
        >"$out.tap" 2>"$out.err"
    rc=$?
    plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$out.tap")
    lines=$(grep -Ec '^(not )?ok ' "$out.tap")
    if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
        fail "seed $s: exit $rc: $(head -3 "$out.err")"
    elif grep -Eq 'runtime error|AddressSanitizer|LeakSanitizer' "$out.err"; then
        fail "seed $s: $(grep -Em1 'runtime error|Sanitizer' "$out.err")"
    elif [ -z "$plan" ] || [ "$plan" != "$lines" ]; then
        fail "seed $s: plan $plan, $lines test lines"
    fi
    forged=$((forged + $(grep -c '^  message: "forged or corrupt reply' "$out.tap")))
    tests=$((tests + lines))
    s=$((s + 1))
done
[ "$forged" -gt 0 ] || fail "no reply was caught as forged or corrupt"
t_done "$seeds seeds, $tests tests, $forged replies caught as forged or corrupt; no sanitizer report"

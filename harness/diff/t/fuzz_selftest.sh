#!/bin/sh
# fuzz_selftest.sh - tests the fuzz target: the reproducer linked against a
# deliberately broken opt (t/fuzz_broken.c) must report each bug on the seed
# corpus with the right message, and report nothing without a bug.
# Usage: sh harness/diff/t/fuzz_selftest.sh O
set -u
O=${1:-build}
bin=$O/diff/fuzz_repro_broken
log=$O/fuzz/selftest.log
mkdir -p "$O/fuzz"
fails=0 n=0

# bug name, then the message the target must print for it
for pair in "tail:execute bytes: dst element" \
            "input_write:execute bytes: then element" \
            "scalar_else:infer status: ref SEL_OK, opt SEL_ERR_SHAPE" \
            "dims_out:infer shape:" \
            "order:opt SEL_ERR_DTYPE; ERR-ORDER-1 says SEL_ERR_ATTR"; do
    bug=${pair%%:*} want=${pair#*:}
    n=$((n + 1))
    if FUZZ_BUG=$bug "$bin" harness/diff/fuzz_corpus >"$log" 2>&1; then
        echo "check-fuzz-selftest: bug '$bug' not caught" >&2
        fails=$((fails + 1))
    elif ! grep -q "MISMATCH: .*$want" "$log"; then
        echo "check-fuzz-selftest: bug '$bug': want 'MISMATCH: $want', got:" >&2
        grep -v '^    ' "$log" | head -5 >&2
        fails=$((fails + 1))
    fi
done
FUZZ_BUG= "$bin" harness/diff/fuzz_corpus >"$log" 2>&1 || {
    echo "check-fuzz-selftest: a report without any bug:" >&2
    head -5 "$log" >&2
    fails=$((fails + 1))
}
[ "$fails" = 0 ] || exit 1
echo "check-fuzz-selftest: all $n deliberate opt bugs reported, none without"

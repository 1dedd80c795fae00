#!/bin/sh
# run_impl.sh - one implementation through the whole suite under every
# profile, for the expectations and the matrix: OUT.tap (the TAP),
# OUT.results (selcheck --results), OUT.html (--report), OUT.err (stderr).
# Usage: run_impl.sh SELCHECK LIB OUT   Exit 0 unless selcheck could not run.
set -u
sc=$1 lib=$2 out=$3
mkdir -p "$(dirname "$out")"
"$sc" --profile all --impl "$lib" --results "$out.results" --report "$out.html" >"$out.tap.tmp" 2>"$out.err"
st=$?
if [ $st -gt 1 ] || ! tail -1 "$out.tap.tmp" | grep -q '^# [0-9]* tests:'; then
    echo "run_impl: $sc --profile all --impl $lib stopped (exit $st):" >&2
    tail -5 "$out.err" >&2
    rm -f "$out.tap.tmp"
    exit 1
fi
mv "$out.tap.tmp" "$out.tap"
echo "run_impl: $(basename "$out"): $(tail -1 "$out.tap" | sed 's/^# //')"

#!/bin/sh
# verdicts.sh - an adapter's known failures and leniencies (its expectation
# file, examples/adapters/expect/<name>.txt) against what selcheck's TAP says.
# Usage: verdicts.sh check|update TAPDIR EXPECTDIR NAME...
#   check   exit 1 naming every test whose verdict changed, either way
#   update  rewrite the expectation files from the TAP (keeps their header)
# An expectation file: a header of '#' lines, then per reason a line
# '## <reason>' followed by '<fail|todo> <file:id[dtype]> <profile>' lines.
set -u
mode=$1 tapdir=$2 expdir=$3; shift 3
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
bad=0

# TAP -> "verdict<TAB>address profile<TAB>reason", one per not-ok test.
observed() {
    awk '
    function flush() { if (key != "") print verdict "\t" key "\t" reason; key = "" }
    /^(ok|not ok) / { flush() }
    /^not ok / {
        line = $0
        verdict = (line ~ / # TODO /) ? "todo" : "fail"
        reason = ""
        if (verdict == "todo") { reason = line; sub(/.* # TODO /, "", reason) }
        sub(/^not ok [0-9]+ - /, "", line); sub(/ seed=.*/, "", line)
        addr = line; sub(/ .*/, "", addr)
        prof = line; sub(/.*\[/, "", prof); sub(/ .*/, "", prof)
        key = addr " " prof
        next
    }
    key != "" && verdict == "fail" && reason == "" && /^  message: / {
        reason = $0; sub(/^  message: "?/, "", reason); sub(/"$/, "", reason)
        # one reason per rule set, not per element index or run
        sub(/ at element [0-9]+ \(run [a-z]+\)$/, "", reason)
        sub(/ \(run [a-z]+\)/, "", reason)
    }
    key != "" && verdict == "fail" && /^  rules: / && reason ~ /^wrong bytes/ {
        r = $0; sub(/^  rules: /, "", r); reason = reason " " r
    }
    END { flush() }' "$1" | LC_ALL=C sort -u
}

for name in "$@"; do
    tap=$tapdir/$name.tap exp=$expdir/$name.txt
    [ -s "$tap" ] || { echo "verdicts: $tap missing or empty" >&2; exit 2; }
    tail -1 "$tap" | grep -q '^# [0-9]* tests:' ||
        { echo "verdicts: $tap is not a whole run (no closing line)" >&2; exit 2; }
    observed "$tap" >"$tmp/obs"
    cut -f1,2 "$tmp/obs" | tr '\t' ' ' | LC_ALL=C sort -u >"$tmp/now"
    if [ "$mode" = update ]; then
        { if [ -f "$exp" ]; then sed -n '/^#[^#]/p;/^#$/p' "$exp"; else
              echo "# $name: the tests it is known to fail (fail) or to accept leniently"
              echo "# (todo) under selcheck --profile all; make adapters-expect rewrites it."
          fi
          LC_ALL=C sort -t "$(printf '\t')" -k3,3 -k1,1 -k2,2 "$tmp/obs" |
              awk -F '\t' '$3 != last { print "## " $3; last = $3 } { print $1 " " $2 }'
        } >"$tmp/new"
        mv "$tmp/new" "$exp"
        echo "verdicts: $exp: $(grep -c '^fail ' "$exp") fail, $(grep -c '^todo ' "$exp") todo"
        continue
    fi
    [ -f "$exp" ] || { echo "verdicts: $exp missing (make adapters-expect writes it)" >&2; bad=1; continue; }
    grep -E '^(fail|todo) ' "$exp" | LC_ALL=C sort -u >"$tmp/want"
    LC_ALL=C comm -13 "$tmp/want" "$tmp/now" | sed "s/^/verdicts: $name: new: /" >"$tmp/d"
    LC_ALL=C comm -23 "$tmp/want" "$tmp/now" | sed "s/^/verdicts: $name: gone: /" >>"$tmp/d"
    if [ -s "$tmp/d" ]; then
        head -20 "$tmp/d" >&2
        echo "verdicts: $name: $(wc -l <"$tmp/d") verdict(s) changed against $exp" >&2
        bad=1
    else
        echo "verdicts: $name: as expected ($(grep -c '^fail' "$tmp/now") fail, $(grep -c '^todo' "$tmp/now") todo)"
    fi
done
exit $bad

#!/bin/sh
# matrix_md.sh - MATRIX.md from selcheck results files (--results): the
# implementation x profile summary and each implementation's findings in
# plain words; then checks that every implementation's totals agree with
# the closing line of its TAP (DIR/<impl>.tap beside DIR/<impl>.results).
# Usage: matrix_md.sh OUT.md DIR IMPL...      Exit 1 when they disagree.
set -u
out=$1 dir=$2; shift 2
files=""
for i in "$@"; do files="$files $dir/$i.results"; done
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT

# What a wrong-bytes failure did, from its TAP diagnostic (expected and
# got of the first mismatch): impl<TAB>n<TAB>class.
for i in "$@"; do
    awk '
    /^not ok / { n = $3; impl = $0; sub(/.*\[[a-z]+ /, "", impl); sub(/\].*/, "", impl); e = ""; c = "" }
    /^    expected: / { e = $0 }
    /^    got: / && n != "" {
        g = $0
        if (e ~ /payload|snan/ && g ~ /\(-?nan\)/) c = "nan"
        else if (e ~ /\(-0(\.0)?\)/ && g ~ /\(0(\.0)?\)/) c = "negzero"
        else if (e ~ /nonzero byte/ && g ~ /\(true\)/) c = "boolnorm"
        else if (g ~ /never written/) c = "unwritten"
        else if (g ~ /did not choose/) c = "otherbranch"
        else c = "other"
        print impl "\t" n "\t" c; n = ""
    }' "$dir/$i.tap"
done >"$tmp"

# shellcheck disable=SC2086
awk -F '\t' -v map="$tmp" '
# Plain words for a failing or lenient test, from its verdict, rules and
# reason; the first rule of the list that the test names decides.
function finding(v, rules, reason, how,    r) {
    if (v == "todo") {
        if (reason ~ /does not have \(DT-PROFILE-1\)/) return "handles dtypes or modes the profile does not have (DT-PROFILE-1)"
        if (reason ~ /bidirectional/) return "lets cond add or grow dimensions (bidirectional) where the profile broadcasts it one way (BC-NUMPY-3, BC-NUMPY-5)"
        if (rules ~ /DT-SAME-1/) return "accepts (promotes) mixed then/else dtypes (DT-SAME-1)"
        if (rules ~ /DT-COND-1/) return "accepts a cond that is not boolean (DT-COND-1)"
        if (rules ~ /DT-DST-1/) return "accepts a dst of another dtype (DT-DST-1)"
        if (rules ~ /SHAPE-OVF-1/) return "accepts shapes whose element count or byte size overflows (SHAPE-OVF-1)"
        if (rules ~ /SHAPE-NEG-1/) return "accepts negative dims (SHAPE-NEG-1)"
        if (rules ~ /DT-UNKNOWN-1/) return "accepts a dtype value that is not a sel_dtype (DT-UNKNOWN-1)"
        r = rules; sub(/,.*/, "", r)
        return "accepts what the profile rejects (" r ")"
    }
    if (reason ~ /^wrong bytes/) {
        if (rules ~ /COND-NZ-1/ && how != "nan" && how != "negzero") return "a cond byte other than 0 and 1 does not pick then (COND-NZ-1)"
        if (how == "nan") return "canonicalises NaNs: payloads and signalling NaNs of the selected element are lost (BITS-1)"
        if (how == "negzero") return "turns a selected -0.0 into +0.0 (BITS-1)"
        if (how == "boolnorm") return "rewrites boolean then/else bytes other than 0 and 1 as 1 (DT-BOOLDATA-1)"
        if (how == "unwritten") return "leaves dst elements unwritten (OP-SELECT-1)"
        if (how == "otherbranch") return "picks the element cond did not choose (OP-SELECT-1)"
        r = rules; sub(/,.*/, "", r)
        return "writes wrong bytes (" r ")"
    }
    if (reason ~ /expected SEL_ERR_DTYPE/) return "reports a shape error where a dtype error comes first (ERR-ORDER-1)"
    if (reason ~ /^rejected a valid case/) {
        r = rules; sub(/,.*/, "", r)
        return "rejects valid cases (" r ")"
    }
    r = reason; sub(/ \(run [a-z]+\)/, "", r)
    return r
}
BEGIN { while ((getline l < map) > 0) { split(l, q, "\t"); cls[q[1], q[2]] = q[3] } }
/^# / || $1 == "n" { next }
{
    impl = $2; prof = $3; v = $9
    if (!(impl in seen)) { seen[impl] = 1; order[++ni] = impl }
    if (!(prof in pseen)) { pseen[prof] = 1; porder[++np] = prof }
    c[impl, prof, v]++; t[impl, v]++
    if (v == "fail" || v == "todo") {
        f = (v == "fail" ? "fails: " : "lenient: ") finding(v, $8, $11, cls[impl, $1])
        if (!((impl, f) in fc)) { fo[impl, ++nf[impl]] = f; ex[impl, f] = $12 }
        fc[impl, f]++
    }
}
END {
    print "# The conformance matrix"
    print ""
    print "Written by `make matrix` from selcheck runs under every profile"
    print "(`--profile all --results`); the page is `index.html` beside this file."
    print "Cells: passed / failed / skipped / lenient (`# TODO`)."
    print ""
    printf "| implementation |"
    for (p = 1; p <= np; p++) printf " %s |", porder[p]
    print " all |"
    printf "|---|"
    for (p = 1; p <= np; p++) printf "---|"
    print "---|"
    for (i = 1; i <= ni; i++) {
        m = order[i]
        printf "| %s |", m
        for (p = 1; p <= np; p++)
            printf " %d / %d / %d / %d |", c[m, porder[p], "ok"], c[m, porder[p], "fail"], c[m, porder[p], "skip"], c[m, porder[p], "todo"]
        printf " %d / %d / %d / %d |\n", t[m, "ok"], t[m, "fail"], t[m, "skip"], t[m, "todo"]
    }
    print ""
    print "## Findings"
    for (i = 1; i <= ni; i++) {
        m = order[i]
        print ""
        if (!nf[m]) { print "- **" m "**: passes every test it runs (" t[m, "skip"] " skipped as not supported)."; continue }
        print "- **" m "**:"
        # largest first
        for (a = 1; a <= nf[m]; a++) idx[a] = a
        for (a = 1; a <= nf[m]; a++) for (b = a + 1; b <= nf[m]; b++)
            if (fc[m, fo[m, idx[b]]] > fc[m, fo[m, idx[a]]]) { x = idx[a]; idx[a] = idx[b]; idx[b] = x }
        for (a = 1; a <= nf[m]; a++) {
            f = fo[m, idx[a]]
            printf "  - %s: %d tests", f, fc[m, f]
            if (ex[m, f] != "" && f ~ /^fails/) printf "; e.g. `%s`", ex[m, f]
            print ""
        }
    }
}' $files >"$out.tmp" || exit 1
mv "$out.tmp" "$out"

# The totals of each results file against its TAP closing line.
bad=0
for i in "$@"; do
    want=$(tail -1 "$dir/$i.tap" | sed -n 's/^# [0-9]* tests: \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped, \([0-9]*\) todo.*/\1 \2 \3 \4/p')
    name=$(sed -n 's/^# set\timpl\t\([^ ]*\).*/\1/p' "$dir/$i.results")
    got=$(grep "^| $name |" "$out" | awk -F '|' '{ print $(NF-1) }' | tr -d '/' | tr -s ' ' | sed 's/^ //; s/ $//')
    if [ -z "$want" ] || [ "$want" != "$got" ]; then
        echo "matrix_md: $i: MATRIX.md says '$got', its TAP '$want'" >&2; bad=1
    fi
done
[ $bad = 0 ] && echo "matrix_md: $out agrees with the TAP of $# implementations"
exit $bad

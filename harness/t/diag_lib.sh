# diag_lib.sh - checks of selcheck's diagnosis and output files, shared by
# the shell tests (sourced after lib.sh, whose fail() they call):
#   one_cluster TAP REGEX    exactly one cluster, named to match REGEX
#                            (grep -E), covering every failure of TAP
#   junit_matches TAP XML    XML parses; as many testcases, failures and
#                            skips as TAP has tests, not-ok and SKIP lines
#   html_parses HTML         xmllint --html reads it without a complaint

# Failures of a TAP file: not ok lines that are not TODO.
tap_failures() {
    grep '^not ok ' "$1" | grep -vc ' # TODO '
}

one_cluster() {
    n=$(grep -c '^# cluster ' "$1")
    want=$(tap_failures "$1")
    name=$(sed -n 's/^# cluster 1: //p' "$1")
    count=$(sed -n 's/^#   count: //p' "$1" | head -1)
    if [ "$n" != 1 ]; then
        fail "$1: $n clusters, want 1: $(grep '^# cluster ' "$1" | head -3 | tr '\n' '|')"
    elif [ "$count" != "$want" ]; then
        fail "$1: the cluster has $count failures, the TAP $want"
    elif ! printf '%s\n' "$name" | grep -Eq "$2"; then
        fail "$1: cluster '$name' does not match /$2/"
    fi
}

junit_matches() {
    xmllint --noout "$2" 2>"$2.err" || { fail "$2: not XML: $(head -2 "$2.err")"; return; }
    tests=$(grep -c '^\(not \)\{0,1\}ok ' "$1")
    nfail=$(tap_failures "$1")
    skips=$(grep '^ok ' "$1" | grep -c ' # SKIP ')
    cases=$(xmllint --xpath 'count(//testcase)' "$2")
    jfails=$(xmllint --xpath 'count(//testcase/failure)' "$2")
    jskips=$(xmllint --xpath 'count(//testcase/skipped)' "$2")
    [ "$cases/$jfails/$jskips" = "$tests/$nfail/$skips" ] ||
        fail "$2: testcases/failures/skips $cases/$jfails/$jskips, TAP $tests/$nfail/$skips"
}

html_parses() {
    xmllint --html --noout "$1" >"$1.err" 2>&1 && [ ! -s "$1.err" ] ||
        fail "$1: xmllint --html: $(head -2 "$1.err")"
    ! grep -Eiq '(src|href)="(https?:)?//' "$1" ||
        fail "$1: refers to something outside the page"
}

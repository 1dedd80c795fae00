#!/bin/sh
# man.sh - `make check-pkg-man`: the man pages render with man -l and lint
# clean under groff -ww; selcheck.1 documents exactly the options --help
# prints; --version says VERSION; sel_get_impl.3's example builds and runs.
# usage: man.sh O VERSION   (from the top of the tree)
set -e
O=$1 version=$2
P=harness/pkg
t=$O/pkg/t-man
rm -rf "$t" && mkdir -p "$t"
fail() { echo "check-pkg-man: FAIL: $*" >&2; exit 1; }

command -v man >/dev/null || fail "man is not installed (Debian package man-db)"

# 1. Each page renders (man -l, as a user reads it) with the sections the
#    issue asks for, and groff -ww reports nothing.
render() {
    MANWIDTH=80 man -l "$1" > "$t/page.txt" 2> "$t/man.err" || fail "man -l $1 failed: $(cat "$t/man.err")"
    [ ! -s "$t/man.err" ] || fail "man -l $1: $(cat "$t/man.err")"
    shift
    for s in NAME SYNOPSIS DESCRIPTION "$@" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
        grep -q "^$s\$" "$t/page.txt" || fail "the page has no $s section"
    done
}
lint() {
    groff -ww -z -b -man "$1" 2> "$t/groff.err" || true
    [ ! -s "$t/groff.err" ] || fail "groff -ww $1: $(cat "$t/groff.err")"
}
render $P/selcheck.1 OPTIONS "EXIT STATUS"
lint $P/selcheck.1
render $P/sel_get_impl.3 "RETURN VALUE"
lint $P/sel_get_impl.3

# 2. The options of --help against the entries of OPTIONS, both ways:
#    an option line of --help starts with spaces and a dash; an entry of
#    the page is the line after .TP in the OPTIONS section.
help_opts() {
    "$1" --help | grep -E '^ +-' | grep -oE -- '--[a-z][a-z0-9-]*' | LC_ALL=C sort -u
}
page_opts() {
    awk '/^\.SH/ { on = ($2 == "OPTIONS") } on && prev == ".TP" { print } { prev = $0 }' "$1" |
        sed 's/\\-/-/g' | grep -oE -- '--[a-z][a-z0-9-]*' | LC_ALL=C sort -u
}
sync() {
    help_opts "$1" > "$t/help.txt"
    page_opts "$2" > "$t/page_opts.txt"
    [ -s "$t/help.txt" ] || fail "$1 --help lists no options"
    only_help=$(LC_ALL=C comm -23 "$t/help.txt" "$t/page_opts.txt" | tr '\n' ' ')
    only_page=$(LC_ALL=C comm -13 "$t/help.txt" "$t/page_opts.txt" | tr '\n' ' ')
    [ -z "$only_help$only_page" ] && return 0
    echo "check-pkg-man: $2 and $1 --help differ:${only_help:+ in --help only: $only_help;}${only_page:+ in the page only: $only_page}" >&2
    return 1
}
sync "$O/selcheck" $P/selcheck.1 || fail "document each option in OPTIONS of $P/selcheck.1 (a .TP entry), as --help prints it"
sync "$O/selcheck-jit" $P/selcheck.1 || fail "selcheck-jit (its page is selcheck.1) differs"
n_opts=$(wc -l < "$t/help.txt")
# The environment variables --help names are under ENVIRONMENT.
for v in $("$O/selcheck" --help | sed -n 's/^Environment: *//p' | grep -oE '[A-Z][A-Z0-9_]{2,}'); do
    awk '/^\.SH/ { on = ($2 == "ENVIRONMENT") } on' $P/selcheck.1 | grep -q "^\.B $v\$" ||
        fail "--help names $v; selcheck.1 has no entry for it under ENVIRONMENT"
done
# Every variable the installed programs and libraries read has an entry
# under ENVIRONMENT, and every entry is read: the names passed to getenv in
# the tree's C sources that are strings in the built programs (a test
# program's variables are in neither).
grep -rhoE --include='*.c' 'getenv\("[A-Z0-9_]+"\)' harness opt ref | sed 's/getenv("\(.*\)")/\1/' |
    LC_ALL=C sort -u > "$t/env_src.txt"
cat "$O/selcheck" "$O/selcheck-jit" "$O/selcheck-worker" "$O/libselect_ref.so" \
    "$O/libselect_opt.so" > "$t/bins"
while read -r v; do
    if grep -aqw -- "$v" "$t/bins"; then echo "$v"; fi
done < "$t/env_src.txt" > "$t/env_code.txt"
rm -f "$t/bins"
awk '/^\.SH/ { on = ($2 == "ENVIRONMENT") } on && prev == ".TP" { print } { prev = $0 }' $P/selcheck.1 |
    sed -n 's/^\.B \([A-Z0-9_]*\)$/\1/p' | LC_ALL=C sort -u > "$t/env_page.txt"
cmp -s "$t/env_code.txt" "$t/env_page.txt" ||
    fail "the variables selcheck and its libraries read and ENVIRONMENT of selcheck.1 differ: $(LC_ALL=C comm -3 "$t/env_code.txt" "$t/env_page.txt" | tr -d '\t' | tr '\n' ' ')"
n_env=$(wc -l < "$t/env_code.txt")
# The comparison must be able to fail: a page without --seed, and one
# with an option selcheck lacks, are each reported by name.
sed '/^\.BI \\-\\-seed /d' $P/selcheck.1 > "$t/mutant.1"
! sync "$O/selcheck" "$t/mutant.1" 2> "$t/mutant.err" && grep -q 'in --help only: --seed' "$t/mutant.err" ||
    fail "a page missing --seed was not reported"
sed 's/^\.B \\-\\-fast$/.B \\-\\-fastest/' $P/selcheck.1 > "$t/mutant.1"
! sync "$O/selcheck" "$t/mutant.1" 2> "$t/mutant.err" && grep -q 'in the page only: --fastest' "$t/mutant.err" ||
    fail "a page with an unknown --fastest was not reported"

# 3. --version: VERSION, from both front ends.
for p in selcheck selcheck-jit; do
    v=$("$O/$p" --version)
    case $v in "selcheck $version ("*")") ;; *) fail "$p --version printed '$v', want 'selcheck $version (...)'" ;; esac
done

# 4. The example of sel_get_impl.3 (the first .EX block) is a library
#    selcheck accepts: it builds with -Werror, and every test is a skip.
awk '/^\.EX/ { n++; on = (n == 1); next } /^\.EE/ { on = 0 } on' $P/sel_get_impl.3 > "$t/stub.c"
cc -std=c11 -Wall -Wextra -Werror -fPIC -shared -Ispec "$t/stub.c" -o "$t/libstub.so"
"$O/selcheck" --impl "$t/libstub.so" --profile onednn --fast > "$t/stub.tap" ||
    fail "selcheck failed the example of sel_get_impl.3 (see $t/stub.tap)"
n_skip=$(grep -c '^ok .*# SKIP' "$t/stub.tap")
[ "$n_skip" -gt 0 ] && [ "$n_skip" = "$(grep -c '^ok' "$t/stub.tap")" ] ||
    fail "the example of sel_get_impl.3 should make every test a skip"

echo "check-pkg-man: selcheck.1 and sel_get_impl.3 render and lint clean; selcheck.1 documents the $n_opts options of --help (both front ends), and a missing or extra entry is caught, and the $n_env environment variables the code reads; --version says $version; the ABI page's example builds and its $n_skip tests skip"

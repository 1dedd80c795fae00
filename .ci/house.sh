#!/bin/sh
# house.sh - the tree's shape rules (CONTRIBUTING.md, "Conventions"): no
# source file over 500 lines and no function over 80 in spec/ ref/ opt/
# harness/ outside tests (t/ folders), measured with universal-ctags; and
# no circle between the objects of one program (A uses a symbol B defines
# and B, directly or not, one of A's), read from the built objects with nm.
# Usage: sh .ci/house.sh O        Exit 1 on a breach, naming it.
set -u
O=${1:-build}
fails=0
bad() { echo "check-house: $*" >&2; fails=$((fails + 1)); }

src=$(git ls-files 'spec/*' 'ref/*' 'opt/*' 'harness/*' 2>/dev/null |
      grep -E '\.(c|h|lua)$' | grep -v '/t/' | grep -v '^ref/test_ref\.c$' |
      grep -v '^opt/opt_ktest\.c$')
nfiles=0 nfuncs=0
for f in $src; do
    [ -f "$f" ] || continue
    nfiles=$((nfiles + 1))
    n=$(wc -l <"$f")
    [ "$n" -le 500 ] || bad "$f has $n lines (at most 500)"
done
long=$(ctags --fields=+ne --kinds-c=f -x --_xformat='%N %F %n %e' \
           $(echo "$src" | grep -E '\.[ch]$') 2>/dev/null |
       awk '{ n++; len = $4 - $3 + 1; if (len > 80) print $2 ":" $3 " " $1 "() has " len " lines (at most 80)" }
            END { print "#count " n }')
nfuncs=$(echo "$long" | sed -n 's/^#count //p')
echo "$long" | grep -v '^#count' | while IFS= read -r l; do [ -n "$l" ] && echo "check-house: $l" >&2; done
nlong=$(echo "$long" | grep -vc '^#count')
fails=$((fails + nlong))

# Circles: per program, the objects it links (tests excluded).
circles() { # NAME OBJ...
    name=$1; shift
    for o in "$@"; do [ -f "$o" ] || { bad "$name: $o not built (make first)"; return; }; done
    for o in "$@"; do
        nm --defined-only -g "$o" | awk -v o="$o" 'NF == 3 { print "D", o, $3 }'
        nm -u "$o" | awk -v o="$o" '{ print "U", o, $NF }'
    done | awk -v name="$name" '
        $1 == "D" { def[$3] = $2; next }
        { use[++nu] = $2 SUBSEP $3 }
        END {
            for (i = 1; i <= nu; i++) {
                split(use[i], p, SUBSEP); d = def[p[2]]
                if (d != "" && d != p[1]) e[p[1], d] = p[2]
            }
            for (k in e) { split(k, q, SUBSEP); r[q[1], q[2]] = 1; node[q[1]]; node[q[2]] }
            for (m in node) for (a in node) if ((a, m) in r) for (b in node) if ((m, b) in r) r[a, b] = 1
            for (k in e) { split(k, q, SUBSEP)
                if ((q[2], q[1]) in r && q[1] < q[2]) print name ": circle between " q[1] " and " q[2] " (" e[k] ")" }
        }'
}
out=$( {
    circles selcheck $(ls "$O"/harness/*.o | grep -v fuzz) "$O"/harness/lua54/*.o
    circles opt "$O"/opt/opt_*.o
    circles ref "$O"/ref/ref_*.o
} 2>&1 )
if [ -n "$out" ]; then echo "$out" | sed 's/^/check-house: /' >&2; fails=$((fails + $(echo "$out" | wc -l))); fi

[ "$fails" = 0 ] || { echo "check-house: $fails breach(es)" >&2; exit 1; }
echo "check-house: $nfiles files of at most 500 lines, $nfuncs functions of at most 80, no circle in selcheck, opt or ref"

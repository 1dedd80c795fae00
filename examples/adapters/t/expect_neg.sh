#!/bin/sh
# expect_neg.sh - the expectation check can fail: on a copy of the
# expectation files with one known verdict dropped (it must be reported as
# "new") and one invented (reported as "gone"), verdicts.sh must exit 1.
# Usage: expect_neg.sh TAPDIR EXPECTDIR
set -u
tapdir=$1 expdir=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# The adapter with the most known verdicts, so there is one to drop.
name=$(for f in "$expdir"/*.txt; do
           echo "$(grep -c '^\(fail\|todo\) ' "$f") $(basename "$f" .txt)"; done |
       sort -rn | head -1 | cut -d' ' -f2)
cp "$expdir"/*.txt "$tmp/"
dropped=$(grep -m1 '^\(fail\|todo\) ' "$tmp/$name.txt")
grep -v -x -F "$dropped" "$expdir/$name.txt" >"$tmp/$name.txt"
echo "fail cases:invented_case[f32] where" >>"$tmp/$name.txt"
sh "$(dirname "$0")/verdicts.sh" check "$tapdir" "$tmp" "$name" >"$tmp/out" 2>&1
st=$?
fails=0
[ $st = 1 ] || { echo "expect_neg: verdicts.sh exited $st, want 1" >&2; fails=1; }
grep -q -F "$name: new: $dropped" "$tmp/out" ||
    { echo "expect_neg: the dropped verdict was not reported: $dropped" >&2; fails=1; }
grep -q -F "$name: gone: fail cases:invented_case[f32] where" "$tmp/out" ||
    { echo "expect_neg: the invented verdict was not reported" >&2; fails=1; }
[ $fails = 0 ] || { cat "$tmp/out" >&2; exit 1; }
echo "expect_neg: an edited $name.txt fails the check (dropped: $dropped; invented: 1)"

#!/bin/sh
# readme_sample.sh - README.md's sample failure and diagnosis ("Checking
# your implementation", step 3) is the output of a real run, between its
# two sample markers; this checks it is still what selcheck prints, or
# with --update writes it.  Usage: sh harness/t/readme_sample.sh O [--update]
set -u
O=${1:?usage: readme_sample.sh O [--update]}
out=$O/harness/t/readme_sample
mkdir -p "$out"

# The odd-tail example over edges.lua: the first failure's block, then the
# diagnosis; paths as a reader's build/ has them.
"$O/selcheck" --impl "$O/examples/libminimal_oddtail.so" --only 'edges:*' \
    cases/edges.lua >"$out/run.tap" 2>"$out/run.err"
{
    echo
    echo "\$ build/selcheck --impl build/examples/libminimal_oddtail.so --only 'edges:*' cases/edges.lua"
    sed -n '/^not ok /,/^  \.\.\.$/p' "$out/run.tap" | sed '/^  \.\.\.$/q'
    echo "..."
    sed -n '/^# diagnosis/,$p' "$out/run.tap"
    echo
} | sed -e "s|$O/|build/|g" -e 's/^/       /' -e 's/^ *$//' >"$out/sample.txt"

# README.md with the block between the markers replaced by the sample.
awk -v f="$out/sample.txt" '
/<!-- sample begin/ { print; while ((getline l < f) > 0) print l; skip = 1; next }
/<!-- sample end/ { skip = 0 }
!skip' README.md >"$out/README.md"

if [ "${2:-}" = --update ]; then
    cp "$out/README.md" README.md
    echo "readme_sample: README.md's sample updated"
elif ! grep -q '<!-- sample begin' README.md; then
    echo "readme_sample: README.md has no sample markers" >&2
    exit 1
elif ! cmp -s "$out/README.md" README.md; then
    diff README.md "$out/README.md" | head -20 >&2
    echo "readme_sample: README.md's sample is not what selcheck prints now;" \
        "sh harness/t/readme_sample.sh $O --update" >&2
    exit 1
fi

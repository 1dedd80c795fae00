#!/bin/sh
# browser.sh - the matrix as a person sees it, in headless Chromium (Debian
# chromium): index.html renders with its summary and a row for every
# implementation; a link of the rule grid leads to a failing case and its
# repro line on the implementation's report page; a screenshot is kept.
# Usage: browser.sh DIR IMPL...     (DIR holds index.html, <impl>.html)
set -u
dir=$(cd "$1" && pwd) || exit 2; shift
command -v chromium >/dev/null 2>&1 ||
    { echo "browser: chromium missing: apt-get install -y chromium" >&2; exit 2; }
prof=$(mktemp -d) || exit 2
trap 'rm -rf "$prof"' EXIT
# No network, no first-run, nothing in the background; a fresh profile.
chrome() {
    timeout 60 chromium --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update \
        --disable-sync --user-data-dir="$prof" "$@" 2>>"$prof/log"
}
fails=0
bad() { echo "browser: $*" >&2; fails=$((fails + 1)); }

chrome --dump-dom "file://$dir/index.html" >"$prof/index.dom"
grep -q '<h2>Implementation x profile</h2>' "$prof/index.dom" ||
    bad "index.html did not render its summary (see $prof/log)"
for i in "$@"; do
    name=$(sed -n 's/^# set\timpl\t\([^ ]*\).*/\1/p' "$dir/$i.results")
    grep -q "<tr><th>$name</th>" "$prof/index.dom" || bad "no row for $name ($i) in index.html"
done
grep -q -E '(src|href)="(https?:)?//|url\((https?:)?//|@import' "$prof/index.dom" &&
    bad "index.html refers to the network"

# A failing case: the first link of the rule grid to one, followed to
# the implementation's report page, where that test and its repro line are.
link=$(grep -o 'href="[a-z_]*\.html#test-[0-9]*"' "$prof/index.dom" | head -1 | sed 's/^href="//; s/"$//')
if [ -z "$link" ]; then
    grep -q '<b>[0-9]* failed' "$prof/index.dom" && bad "index.html has failures but no link to one"
else
    page=${link%%#*} id=${link#*#}
    chrome --dump-dom "file://$dir/$link" >"$prof/target.dom"
    sed -n "/id=\"$id\"/,/<\/div>/p" "$prof/target.dom" >"$prof/case.dom"
    grep -q 'not ok' "$prof/case.dom" || bad "$link leads to no failing case"
    grep -q 'selcheck --impl' "$prof/case.dom" || bad "$link shows no repro line"
    echo "browser: index.html -> $link: $(grep -o 'not ok [0-9]* - <code>[^<]*' "$prof/case.dom" | head -1 | sed 's/<code>//')"
fi

chrome --screenshot="$dir/index.png" --window-size=1400,1800 "file://$dir/index.html" >/dev/null
[ -s "$dir/index.png" ] || bad "no screenshot"
[ $fails = 0 ] || exit 1
echo "browser: index.html renders in $(chromium --version 2>/dev/null | head -1) with $# implementations; screenshot $dir/index.png"

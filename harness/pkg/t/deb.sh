#!/bin/sh
# deb.sh - `make check-pkg-deb`: the .deb's fields and dependencies, its
# files against inst.sh's list, its man pages, lintian without errors, and
# the README's new-user commands run on it.
# usage: deb.sh O VERSION DEB   (from the top of the tree)
set -e
O=$1 version=$2 deb=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
t=$(cd "$O" && pwd)/pkg/t-deb
rm -rf "$t" && mkdir -p "$t"
fail() { echo "check-pkg-deb: FAIL: $*" >&2; exit 1; }

# 1. The control fields: the version of VERSION, this architecture, and
#    the runtime packages of Lua 5.4, LuaJIT and SLEEF.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = selcheck ] || fail "Package is $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version is $(field Version), VERSION says $version"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture is $(field Architecture)"
deps=$(field Depends)
for p in 'liblua5\.4-[0-9]' 'libluajit' 'libsleef[0-9]' 'libc6'; do
    echo "$deps" | grep -qE "(^|, )$p" || fail "Depends lacks $p: $deps"
done

# 2. Its files are those of a DESTDIR install (PREFIX=/usr), with the man
#    pages compressed and the copyright and changelog a package has; the
#    same bytes, but for the stripped programs and libraries.
dest=$t/dest
sh harness/pkg/inst.sh install "$O" "$dest" /usr "$version"
(cd "$dest/usr" && find . ! -type d | sed 's|^\./||') |
    sed -e 's|^share/man/\(man[0-9]/.*\)$|share/man/\1.gz|' |
    { cat; echo share/doc/selcheck/copyright; echo share/doc/selcheck/changelog.gz; } |
    LC_ALL=C sort > "$t/want.txt"
dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./usr/||' | LC_ALL=C sort > "$t/deb.txt"
cmp -s "$t/want.txt" "$t/deb.txt" ||
    { diff "$t/want.txt" "$t/deb.txt" >&2; fail "the .deb's files differ from make install's (< install, > .deb)"; }
dpkg -x "$deb" "$t/x"
n_same=0
for f in $(cd "$dest/usr" && find . -type f | sed 's|^\./||'); do
    case $f in
    bin/* | libexec/selcheck/* | lib/selcheck/*.so) continue ;;
    share/man/*) zcat "$t/x/usr/$f.gz" | cmp -s - "$dest/usr/$f" || fail "$f.gz in the .deb is not the installed $f" ;;
    *) cmp -s "$t/x/usr/$f" "$dest/usr/$f" || fail "$f in the .deb differs from the installed one" ;;
    esac
    n_same=$((n_same + 1))
done

# 3. lintian: no errors; its warnings and notes are printed.
lintian -I --fail-on error "$deb" > "$t/lintian.txt" 2> "$t/lintian.err" ||
    { cat "$t/lintian.txt" "$t/lintian.err" >&2; fail "lintian reports errors"; }
grep -E '^[EWI]: ' "$t/lintian.txt" | sed 's/^/check-pkg-deb: lintian: /' || true

# 4. The README's new-user commands (the block after the marker line),
#    run as written in an empty directory with the .deb and a fresh HOME.
awk '/<!-- check-pkg-deb runs the block below -->/ { on = 1; next }
     on && /^    / { sub(/^    /, ""); print; seen = 1; next }
     on && seen && !/^$/ { exit }' README.md > "$t/newuser.sh"
grep -q 'dpkg -x' "$t/newuser.sh" || fail "no new-user block after the marker in README.md"
mkdir -p "$t/user/home"
cp "$deb" "$t/user/"
(cd "$t/user" && env -u SELCHECK_HOME -u PKG_CONFIG_PATH HOME="$t/user/home" sh -e "$t/newuser.sh") \
    > "$t/newuser.tap" 2> "$t/newuser.err" ||
    { tail -5 "$t/newuser.err" >&2; fail "the README's new-user commands failed (see $t/newuser.tap)"; }
# selcheck exited 0; TODO lines (a profile's lenient points) are no failure.
n=$(grep -c '^ok' "$t/newuser.tap")
bad=$(grep '^not ok' "$t/newuser.tap" | grep -vc '# TODO' || true)
[ "$n" -gt 1000 ] && [ "$bad" = 0 ] || fail "the new user's run: $n ok, $bad not ok"
grep -q "^# impl: minimal (.*/libyours.so)" "$t/newuser.tap" || fail "the new user's run did not check libyours.so"
u=$t/user/home/selcheck/usr

# 5. The unpacked man pages (selcheck-jit.1.gz is a
#    link) render with man -l.
for m in man1/selcheck.1.gz man1/selcheck-jit.1.gz man3/sel_get_impl.3.gz; do
    MANWIDTH=80 man -l "$u/share/man/$m" 2>&1 | grep -q '^NAME$' || fail "man -l $m does not render"
done

# 6. luajit finds the module by the default path when the tree is /usr;
#    here the unpacked tree stands for /usr, so its share/lua/5.1 replaces
#    /usr/share/lua/5.1 in that default.
(cd / && luajit -e "package.path = package.path:gsub('/usr/share/lua/5.1/', '$u/share/lua/5.1/')" \
    -e "assert(package.searchpath('selcheck', package.path) == '$u/share/lua/5.1/selcheck.lua')
        local sel = require 'selcheck'
        assert(sel.load('$u/lib/selcheck/libselect_opt.so').abi_version == sel.SEL_ABI_VERSION)") ||
    fail "luajit cannot use the unpacked module"

echo "check-pkg-deb: $(basename "$deb"): $(wc -l < "$t/deb.txt") files, as make install puts them ($n_same of them byte for byte, the rest stripped); Depends: $deps; lintian: $(grep -c '^E: ' "$t/lintian.txt" || true) errors, $(grep -c '^W: ' "$t/lintian.txt" || true) warnings; the README's new-user commands pass $n tests"

#!/bin/sh
# install.sh - `make check-pkg-install`: make install into a temporary
# DESTDIR, an implementer's build with nothing but pkg-config, the installed
# selcheck and LuaJIT module run from /, then make uninstall.
# usage: install.sh O VERSION   (from the top of the tree; MAKE may be set)
set -e
O=$1 version=$2
MAKE=${MAKE:-make}
t=$(cd "$O" && pwd)/pkg/t-install
root=$t/dest
rm -rf "$t" && mkdir -p "$t"
fail() { echo "check-pkg-install: FAIL: $*" >&2; exit 1; }
inst() { sh harness/pkg/inst.sh "$1" "$O" "$root" /usr "$version"; }
files() { (cd "$root/usr" && find . ! -type d | sed 's|^\./||' | LC_ALL=C sort); }

# 1. Exactly the files of inst.sh's list, modes included.
$MAKE -s --no-print-directory O="$O" install DESTDIR="$root" PREFIX=/usr >/dev/null
inst list | LC_ALL=C sort > "$t/want.txt"
files > "$t/got.txt"
cmp -s "$t/want.txt" "$t/got.txt" ||
    { diff "$t/want.txt" "$t/got.txt" >&2; fail "installed files differ from inst.sh's list (< list, > installed)"; }
for f in bin/selcheck bin/selcheck-jit libexec/selcheck/selcheck-worker; do [ -x "$root/usr/$f" ] || fail "$f not executable"; done
[ ! -e "$root/usr/bin/selcheck-worker" ] || fail "the worker is in bin (it is for selcheck only: libexec/selcheck)"
[ -z "$(find "$root/usr" -type f ! -path '*/bin/*' ! -path '*/libexec/*' -perm /111)" ] || fail "data files installed executable"

# 2. Both front ends say the version of harness/pkg/VERSION.
for p in selcheck selcheck-jit; do
    v=$("$root/usr/bin/$p" --version)
    case $v in "selcheck $version ("*) ;; *) fail "$p --version printed '$v', want 'selcheck $version (...)'" ;; esac
done

# 3. From /, with no source tree to fall back on: the installed spec, cases
#    and default implementation (lib/selcheck/libselect_opt.so).
cd /
env -u SELCHECK_HOME "$root/usr/bin/selcheck" --only 'spec_examples:*' > "$t/default.tap" ||
    fail "the installed selcheck failed the spec examples (see $t/default.tap)"
grep -q "^# impl: opt ($root/usr/bin/../lib/selcheck/libselect_opt.so)" "$t/default.tap" ||
    fail "the default --impl is not the installed libselect_opt.so: $(grep '^# impl' "$t/default.tap")"
n_default=$(grep -c '^ok' "$t/default.tap")

# 4. An implementation built with nothing but `pkg-config --cflags selcheck`
#    (the .pc's prefix relocated by PKG_CONFIG_SYSROOT_DIR), from the
#    installed copy of examples/minimal.c; the header comes from the install.
export PKG_CONFIG_PATH="$root/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$root"
cflags=$(pkg-config --cflags selcheck)
[ "$(echo $cflags)" = "-I$root/usr/include/selcheck" ] || fail "pkg-config --cflags selcheck gave '$cflags'"
[ "$(pkg-config --modversion selcheck)" = "$version" ] || fail "selcheck.pc has version $(pkg-config --modversion selcheck)"
# pkgconf puts the sysroot in front of the variables too.
for v in casedir specdir reflib optlib selcheck; do
    p=$(pkg-config --variable=$v selcheck)
    case $p in "$root/usr/"*) ;; *) fail "pkg-config --variable=$v selcheck names $p, outside $root/usr" ;; esac
    [ -e "$p" ] || fail "pkg-config --variable=$v selcheck names $p, which is not installed"
done
src=$root/usr/share/doc/selcheck/examples/minimal.c
cc -std=c11 -Wall -Wextra -Werror -O2 -fPIC -shared $cflags "$src" -o "$t/libyours.so"
cc -std=c11 -MM $cflags "$src" | grep -q "$root/usr/include/selcheck/select.h" ||
    fail "minimal.c did not compile against the installed select.h"
cc -std=c11 -O2 -fPIC -shared -DBUG_ODD_TAIL $cflags "$src" -o "$t/libyours_oddtail.so"

# 5. The installed selcheck judges it: the example passes every test, its
#    odd-tail copy fails (so the run checks something).
env -u SELCHECK_HOME "$root/usr/bin/selcheck" --impl "$t/libyours.so" --fast > "$t/yours.tap" ||
    fail "the installed selcheck failed examples/minimal.c built with pkg-config (see $t/yours.tap)"
n_yours=$(grep -c '^ok' "$t/yours.tap")
[ "$n_yours" -gt 1000 ] || fail "only $n_yours tests ran against libyours.so"
st=0
env -u SELCHECK_HOME "$root/usr/bin/selcheck-jit" --impl "$t/libyours_oddtail.so" --fast \
    --only 'edges:*' > "$t/oddtail.tap" || st=$?
[ "$st" = 1 ] || fail "the installed selcheck-jit exited $st on the odd-tail copy, want 1"
n_odd=$(grep -c '^not ok' "$t/oddtail.tap")

# 6. The LuaJIT module from the installed share/lua/5.1, driving the
#    installed reference: the rows of a 3x2 select, exact bits.
out=$(luajit -e "package.path = '$root/usr/share/lua/5.1/?.lua;' .. package.path" -e "
    assert(package.searchpath('selcheck', package.path) == '$root/usr/share/lua/5.1/selcheck.lua')
    local sel = require 'selcheck'
    local impl = sel.load('$root/usr/lib/selcheck/libselect_ref.so')
    local c = sel.tensor('boolean', {3, 1}, {0, 1, 0})
    local x = sel.tensor('f32', {3, 2}, {-1, 0, 1, 2, 3, 4})
    local y = sel.tensor('f32', {1, 2}, {'0x7fc00001', '0x80000000'})
    print(table.concat(assert(impl:execute(c, x, y, {mode = 'numpy'})):hex(), ' '))")
want="0x7fc00001 0x80000000 0x3f800000 0x40000000 0x7fc00001 0x80000000"
case $out in *"$want"*) ;; *) fail "the installed LuaJIT module printed '$out', want the bits $want" ;; esac
cd - >/dev/null

# 7. make uninstall removes exactly that: files of other packages stay, and
#    only directories shared with them are left.
touch "$root/usr/bin/other" "$root/usr/share/man/man1/other.1"
$MAKE -s --no-print-directory O="$O" uninstall DESTDIR="$root" PREFIX=/usr >/dev/null
left=$(files | tr '\n' ' ')
[ "$left" = "bin/other share/man/man1/other.1 " ] || fail "after uninstall, files left: $left"
rm "$root/usr/bin/other" "$root/usr/share/man/man1/other.1"
dirs=$(cd "$root/usr" && find . -mindepth 1 -type d | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' ')
want_dirs="bin include lib lib/pkgconfig libexec share share/doc share/lua share/lua/5.1 share/man share/man/man1 share/man/man3 "
[ "$dirs" = "$want_dirs" ] || fail "after uninstall, directories left: $dirs; want $want_dirs"

echo "check-pkg-install: $(wc -l < "$t/want.txt") files installed and uninstalled; the installed selcheck passes $n_default spec examples from / with its default implementation and $n_yours tests of minimal.c built with only pkg-config; selcheck-jit fails its odd-tail copy $n_odd times; the installed LuaJIT module runs"

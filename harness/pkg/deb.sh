#!/bin/sh
# deb.sh - turns a tree staged by `make install PREFIX=/usr` into a .deb
# with the Debian tools: strips, compresses the man pages, adds copyright
# and changelog, takes Depends from dpkg-shlibdeps, builds with dpkg-deb.
# usage: deb.sh WORK VERSION ARCH OUT.deb   (from the top of the tree)
# WORK/debian/selcheck is the staged tree, where dpkg-shlibdeps wants it.
set -e
[ $# -eq 4 ] || { echo "usage: deb.sh WORK VERSION ARCH OUT.deb" >&2; exit 2; }
work=$1 version=$2 arch=$3 out=$4
stage=$work/debian/selcheck
P=harness/pkg
doc=$stage/usr/share/doc/selcheck

# What dh_strip does: no debug sections, no .comment/.note in the package.
strip --remove-section=.comment --remove-section=.note "$stage"/usr/bin/* \
    "$stage"/usr/libexec/selcheck/selcheck-worker
strip --remove-section=.comment --remove-section=.note --strip-unneeded \
    "$stage"/usr/lib/selcheck/*.so

# Man pages compressed (-n: no name or time stamp, so builds repeat);
# the link (selcheck-jit.1) follows their target's new name.
man1=$stage/usr/share/man/man1
gzip -9nf "$man1/selcheck.1" "$stage/usr/share/man/man3/sel_get_impl.3"
for l in "$man1"/*.1; do
    [ -L "$l" ] || continue
    to=$(readlink "$l")
    rm "$l" && ln -s "$to.gz" "$l.gz"
done

# A native package's changelog, dated by the last commit (reproducible).
install -m 644 $P/copyright "$doc/copyright"
when=$(git log -1 --format=%ct 2>/dev/null || date +%s)
{
    echo "selcheck ($version) unstable; urgency=medium"
    echo
    echo "  * Release $version: see /usr/share/doc/selcheck/README.md."
    echo
    echo " -- selcheck maintainers <maintainers@users.noreply.a-seed-827a4521.example>  $(LC_ALL=C date -u -R -d "@$when")"
} > "$doc/changelog"
gzip -9nf "$doc/changelog"

# dpkg-shlibdeps reads debian/control for the package's name (a minimal
# one, generated next to the stage), and finds the package's root by its
# DEBIAN directory.
mkdir -p "$stage/DEBIAN"
printf 'Source: selcheck\n\nPackage: selcheck\nArchitecture: any\n' > "$work/debian/control"
s=debian/selcheck/usr
deps=$(cd "$work" && dpkg-shlibdeps -O $s/bin/selcheck $s/bin/selcheck-jit $s/libexec/selcheck/selcheck-worker \
    $s/lib/selcheck/libselect_ref.so $s/lib/selcheck/libselect_opt.so | sed -n 's/^shlibs:Depends=//p')
[ -n "$deps" ] || { echo "deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

find "$stage" -type d -exec chmod 755 {} +
(cd "$stage" && find usr -type f | LC_ALL=C sort | xargs md5sum) > "$stage/DEBIAN/md5sums"
size=$(du -sk --apparent-size "$stage/usr" | cut -f1)
sed -e "s#@VERSION@#$version#" -e "s#@ARCH@#$arch#" -e "s#@SIZE@#$size#" \
    -e "s#@DEPENDS@#$deps#" $P/control.in > "$stage/DEBIAN/control"
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
# SOURCE_DATE_EPOCH: dpkg-deb dates the archive and clamps file times to
# the last commit, so the same tree gives the same .deb.
SOURCE_DATE_EPOCH=$when dpkg-deb --root-owner-group -Zxz --build "$stage" "$out"

#!/bin/sh
# inst.sh - what `make install` puts where, written once: installs it,
# uninstalls exactly it, or lists it (paths under PREFIX, for the checks).
# usage: inst.sh install|uninstall|list O DESTDIR PREFIX VERSION
set -e
[ $# -eq 5 ] || { echo "usage: inst.sh install|uninstall|list O DESTDIR PREFIX VERSION" >&2; exit 2; }
act=$1 O=$2 root=$3$4 prefix=$4 version=$5
case $act in install|uninstall|list) ;; *) echo "inst.sh: unknown action $act" >&2; exit 2 ;; esac

# The directories only selcheck puts files in, deepest first: uninstall
# removes them once empty.  Every other directory is left in place.
own_dirs="libexec/selcheck lib/selcheck include/selcheck share/selcheck/spec share/selcheck/cases
share/selcheck share/doc/selcheck/examples share/doc/selcheck"

# put MODE DIR FILE...: the files into $root/DIR.
put() {
    mode=$1 dir=$2
    shift 2
    for f in "$@"; do
        case $act in
        install) install -d "$root/$dir" && install -m "$mode" "$f" "$root/$dir/" ;;
        uninstall) rm -f "$root/$dir/${f##*/}" ;;
        list) echo "$dir/${f##*/}" ;;
        esac
    done
}

# link DIR NAME TARGET: a relative symbolic link.
link() {
    case $act in
    install) install -d "$root/$1" && ln -sf "$3" "$root/$1/$2" ;;
    uninstall) rm -f "$root/$1/$2" ;;
    list) echo "$1/$2" ;;
    esac
}

# selcheck.pc names the installed paths, so it is made for this PREFIX.
if [ "$act" = install ]; then
    mkdir -p "$O/pkg"
    sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" \
        harness/pkg/selcheck.pc.in > "$O/pkg/selcheck.pc"
fi

# selcheck starts the worker (the sandbox an implementation runs in) from
# ../libexec/selcheck: a program for selcheck, not a command for users.
put 755 bin "$O/selcheck" "$O/selcheck-jit"
put 755 libexec/selcheck "$O/selcheck-worker"
# The two backends: selcheck's default --impl, found as ../lib/selcheck
# from bin; plugins loaded with dlopen, so not in the linker's path.
put 644 lib/selcheck "$O/libselect_ref.so" "$O/libselect_opt.so"
put 644 lib/pkgconfig "$O/pkg/selcheck.pc"
put 644 include/selcheck spec/select.h
# spec/ and cases/, found as ../share/selcheck from bin.
put 644 share/selcheck/spec spec/select.md spec/profiles.lua
put 644 share/selcheck/cases cases/*.lua cases/README.md
put 644 share/man/man1 harness/pkg/selcheck.1
link share/man/man1 selcheck-jit.1 selcheck.1
put 644 share/man/man3 harness/pkg/sel_get_impl.3
# Where luajit's default package.path looks under /usr and /usr/local.
put 644 share/lua/5.1 harness/ffi/selcheck.lua harness/ffi/selcheck_values.lua
put 644 share/doc/selcheck README.md spec/select.md
put 644 share/doc/selcheck/examples examples/minimal.c

if [ "$act" = uninstall ]; then
    for d in $own_dirs; do
        [ -d "$root/$d" ] || continue
        rmdir "$root/$d" 2>/dev/null || echo "uninstall: kept $root/$d: files not installed by selcheck are in it" >&2
    done
fi
exit 0

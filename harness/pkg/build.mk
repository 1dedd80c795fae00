# harness/pkg/build.mk - selcheck installed the way a Debian tool is:
# `make install`/`uninstall` (PREFIX, DESTDIR), the pkg-config file, the
# man pages, `make deb`.  `make check-pkg` runs this folder's checks.

P_DIR := harness/pkg
# The version, written once in harness/pkg/VERSION: `selcheck --version`,
# selcheck.pc and the .deb all take it from here.
PKG_VERSION := $(shell cat $(P_DIR)/VERSION)
PKG_ARCH := $(shell dpkg --print-architecture 2>/dev/null || echo unknown)
PKG_DEB := $(O)/selcheck_$(PKG_VERSION)_$(PKG_ARCH).deb

$(O)/harness/h_main.o: CFLAGS_ALL += -DH_VERSION='"$(PKG_VERSION)"'
$(O)/harness/h_main.o: $(P_DIR)/VERSION

# What inst.sh installs: built here, or sources it copies.
P_BUILT := $(O)/selcheck $(O)/selcheck-jit $(O)/selcheck-worker \
    $(O)/libselect_ref.so $(O)/libselect_opt.so
P_SOURCES := $(P_DIR)/inst.sh $(P_DIR)/selcheck.pc.in $(P_DIR)/selcheck.1 \
    $(P_DIR)/sel_get_impl.3 spec/select.h spec/select.md spec/profiles.lua \
    $(wildcard cases/*.lua) cases/README.md harness/ffi/selcheck.lua \
    harness/ffi/selcheck_values.lua README.md examples/minimal.c
P_INST = sh $(P_DIR)/inst.sh

.PHONY: install-pkg uninstall deb
INSTALL += install-pkg
install-pkg: $(P_BUILT)
	$(P_INST) install $(O) "$(DESTDIR)" "$(PREFIX)" $(PKG_VERSION)

# Removes what install-pkg put in place, by the same list (inst.sh).
uninstall:
	$(P_INST) uninstall $(O) "$(DESTDIR)" "$(PREFIX)" $(PKG_VERSION)

# The .deb: a PREFIX=/usr install staged under $(O)/pkg/deb, made into a
# package by deb.sh (dpkg-shlibdeps, dpkg-deb).
P_WORK := $(O)/pkg/deb
deb: $(PKG_DEB)
$(PKG_DEB): $(P_BUILT) $(P_SOURCES) $(P_DIR)/deb.sh $(P_DIR)/control.in $(P_DIR)/copyright
	rm -rf $(P_WORK)
	$(P_INST) install $(O) $(P_WORK)/debian/selcheck /usr $(PKG_VERSION)
	sh $(P_DIR)/deb.sh $(P_WORK) $(PKG_VERSION) $(PKG_ARCH) $@

.PHONY: check-pkg check-pkg-install check-pkg-man check-pkg-deb
CHECK_PKG := check-pkg-install check-pkg-man check-pkg-deb
CHECK += $(CHECK_PKG)
check-pkg: $(CHECK_PKG)

# make install into a temporary DESTDIR: exactly inst.sh's list; an
# implementation built with nothing but `pkg-config --cflags selcheck`;
# the installed selcheck and LuaJIT module run from /; make uninstall.
check-pkg-install: $(P_BUILT)
	MAKE="$(MAKE)" sh $(P_DIR)/t/install.sh $(O) $(PKG_VERSION)

# The man pages render cleanly and match --help option for option;
# --version prints VERSION; the ABI page's example builds and runs.
check-pkg-man: $(P_BUILT)
	sh $(P_DIR)/t/man.sh $(O) $(PKG_VERSION)

# The .deb: its fields and dependencies, its files against inst.sh's list,
# lintian without errors, and the README's new-user commands run on it.
check-pkg-deb: $(PKG_DEB)
	sh $(P_DIR)/t/deb.sh $(O) $(PKG_VERSION) $(PKG_DEB)

# harness/pkg/build.mk - selcheck installed the way a Debian tool is:
# `make install`/`uninstall` (PREFIX, DESTDIR), the pkg-config file, the
# man pages, `make deb`.  `make check-pkg` runs this folder's checks.

P_DIR := harness/pkg
# The version, written once in harness/pkg/VERSION: `selcheck --version`,
# selcheck.pc and the .deb all take it from here.
PKG_VERSION := $(shell cat $(P_DIR)/VERSION)

$(O)/harness/h_main.o: CFLAGS_ALL += -DH_VERSION='"$(PKG_VERSION)"'
$(O)/harness/h_main.o: $(P_DIR)/VERSION

# Makefile - build, test, benchmark and install selcheck.
# Each directory adds its own rules in <dir>/build.mk (targets, and entries
# in the lists below); this file holds the shared flags, the dependency
# check and the top-level targets.  Build output goes to $(O).

O        ?= build
PREFIX   ?= /usr/local
DESTDIR  ?=
SAN      ?=
CC       := $(if $(filter tsan,$(SAN)),clang,$(CC))

WARN     := -std=c11 -Wall -Wextra -Werror
OPTFLAGS ?= -O2 -g
SANFLAGS_asan := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SANFLAGS_tsan := -fsanitize=thread -fno-omit-frame-pointer
SANFLAGS := $(SANFLAGS_$(SAN))
CFLAGS_ALL = $(WARN) $(OPTFLAGS) $(SANFLAGS) -fPIC -D_POSIX_C_SOURCE=200809L -Ispec $(CFLAGS)
LDFLAGS_ALL = $(SANFLAGS) $(LDFLAGS)

# Filled by the fragments.
ALL        :=   # files `make` builds
CHECK      :=   # phony targets `make check` runs, in this order
CHECK_LONG :=   # phony targets `make check-long` adds
BENCH      :=   # phony targets `make bench` runs
INSTALL    :=   # phony targets `make install` runs

.PHONY: all check check-long check-asan check-tsan bench install run deps clean
all:

# The Debian packages first, before the fragments ask pkg-config for flags
# (.ci/deps installs them as root, or prints the apt-get command and fails).
# Once per top-level make; `make deps` and `make clean` skip it.
ifeq ($(MAKELEVEL),0)
ifeq ($(filter deps clean,$(MAKECMDGOALS)),)
# Packages only long runs use (.ci/packages/long/) come in for those goals.
DEPS_LONG := $(if $(filter check-long check-adapters-browser check-arm64 check-arm64-cases%,$(MAKECMDGOALS)),long)
ifneq ($(shell sh .ci/deps $(DEPS_LONG) >&2; echo $$?),0)
$(error missing Debian packages: see the lines above)
endif
endif
endif

include ref/build.mk
include opt/build.mk
include opt/arm64.mk
include harness/build.mk
include harness/t/build.mk
include harness/bench/build.mk
include harness/diff/build.mk
include harness/ffi/build.mk
include harness/pkg/build.mk
include examples/build.mk
include examples/adapters/build.mk
include cases/build.mk

# After the fragments, so that $(ALL) is complete.
all: $(ALL)

$(O):
	@mkdir -p $@

deps:
	@sh .ci/deps long

check: all
	@$(MAKE) --no-print-directory check-house $(CHECK) check-asan check-tsan
	@echo "make check: all passed"

# The optimized backend under the sanitizers, each in its own build tree
# (the harness's check-harness-asan/-tsan do the same for the harness and
# the reference): the whole suite and a difftest slice under AddressSanitizer
# + UndefinedBehaviorSanitizer; the threaded paths under ThreadSanitizer.
# Their builds run two jobs (the machine's two cores): opt's permute loops
# take a minute to compile under each sanitizer.
SAN_PROVE = prove -j2 --timer
check-asan:
	@$(MAKE) --no-print-directory -j2 O=$(O)/asan SAN=asan all
	$(SAN_PROVE) --exec "$(O)/asan/selcheck --profile all --impl $(O)/asan/libselect_opt.so" cases/*.lua
	$(O)/asan/difftest --seed 2 --count 1500

check-tsan:
	@$(MAKE) --no-print-directory -j2 O=$(O)/tsan SAN=tsan $(O)/tsan/selcheck $(O)/tsan/libselect_opt.so $(O)/tsan/difftest $(O)/tsan/opt/opt_kpool
	TSAN_OPTIONS=halt_on_error=1 $(O)/tsan/opt/opt_kpool
	TSAN_OPTIONS=halt_on_error=1 $(O)/tsan/difftest --seed 3 --count 400 --threads 2,3 --jobs 3
	TSAN_OPTIONS=halt_on_error=1 SEL_NUM_THREADS=3 $(SAN_PROVE) --exec "$(O)/tsan/selcheck --profile where --impl $(O)/tsan/libselect_opt.so" cases/large.lua cases/aliasing.lua

check-long: all
	@$(MAKE) --no-print-directory $(CHECK) $(CHECK_LONG)
	@echo "make check-long: all passed"

bench: all
	@$(MAKE) --no-print-directory $(BENCH)

# The tree's shape: files, functions, circles (.ci/house.sh).
.PHONY: check-house
check-house: all
	@sh .ci/house.sh $(O)

# The main job: the whole suite against the optimized backend, and against
# IMPL=path/to/lib.so when given.  PROFILE picks the profile.  The TAP,
# JUnit, HTML report and results file go to $(O)/run/; the terminal gets
# the diagnosis (the clusters, or "no failures") and the summary line.
PROFILE ?= openvino
RUN_DIR = $(O)/run
run: all
	@mkdir -p $(RUN_DIR)
	@$(O)/selcheck --profile $(PROFILE) --impl $(O)/libselect_opt.so $(if $(IMPL),--impl $(IMPL)) \
	    --junit $(RUN_DIR)/junit.xml --report $(RUN_DIR)/report.html \
	    --results $(RUN_DIR)/results.tsv >$(RUN_DIR)/selcheck.tap; st=$$?; \
	sed -n -e '/^# failures by rule/,$$d' -e '$$d' -e '/^# diagnosis/,$$p' $(RUN_DIR)/selcheck.tap; \
	tail -n 1 $(RUN_DIR)/selcheck.tap; \
	echo "full TAP: $(RUN_DIR)/selcheck.tap  JUnit: $(RUN_DIR)/junit.xml  HTML: $(RUN_DIR)/report.html  results: $(RUN_DIR)/results.tsv"; \
	exit $$st

install: all $(INSTALL)

clean:
	rm -rf $(O)

.DELETE_ON_ERROR:

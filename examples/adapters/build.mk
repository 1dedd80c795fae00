# examples/adapters/build.mk - real libraries behind the ABI, one shared
# library each in $(O)/adapters/<name>.so exporting only sel_get_impl; the
# check that their verdicts match examples/adapters/expect/ (check-adapters)
# and the conformance matrix (make matrix, check-adapters-browser).

ADP_NAMES := numpy_where torch_where eigen_select xtensor_where \
             opencv_copyto onnxruntime_where
ADP_LIBS := $(ADP_NAMES:%=$(O)/adapters/%.so)
ADP_DIR := examples/adapters
# ONNX Runtime from npm (onnxruntime-node ships linux x64 libonnxruntime.so.1).
ADP_ORT_VERSION := 1.20.1
ADP_ORT := $(O)/adapters/onnxruntime/libonnxruntime.so.1

ADP_CXXFLAGS = -std=c++17 -Wall -Wextra -Werror $(OPTFLAGS) $(SANFLAGS) -fPIC \
               -Ispec $(CXXFLAGS)
ADP_LINK = -shared -Wl,--version-script=$(ADP_DIR)/exports.map $(LDFLAGS_ALL)
ADP_DEPS := $(ADP_DIR)/adapt.h $(ADP_DIR)/exports.map spec/select.h

$(O)/adapters/numpy_where.so: $(ADP_DIR)/numpy_where.c $(ADP_DEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fvisibility=hidden -isystem /usr/include/python3.11 \
	    $$(pkg-config --cflags-only-I python3-embed | sed 's/-I/-isystem /g') \
	    -isystem $$(/usr/bin/python3 -c 'import numpy; print(numpy.get_include())') \
	    $< $(ADP_LINK) $$(pkg-config --libs python3-embed) -ldl -lpthread -o $@

$(O)/adapters/eigen_select.so: $(ADP_DIR)/eigen_select.cpp $(ADP_DEPS)
	@mkdir -p $(@D)
	$(CXX) $(ADP_CXXFLAGS) -fvisibility=hidden \
	    $$(pkg-config --cflags eigen3 | sed 's/-I/-isystem /g') $< $(ADP_LINK) -o $@

$(O)/adapters/xtensor_where.so: $(ADP_DIR)/xtensor_where.cpp $(ADP_DEPS)
	@mkdir -p $(@D)
	$(CXX) $(ADP_CXXFLAGS) -fvisibility=hidden $< $(ADP_LINK) -o $@

$(O)/adapters/opencv_copyto.so: $(ADP_DIR)/opencv_copyto.cpp $(ADP_DEPS)
	@mkdir -p $(@D)
	$(CXX) $(ADP_CXXFLAGS) -fvisibility=hidden \
	    $$(pkg-config --cflags opencv4 | sed 's/-I/-isystem /g') $< $(ADP_LINK) \
	    -lopencv_core -o $@

$(O)/adapters/torch_where.so: $(ADP_DIR)/torch_where.cpp $(ADP_DEPS)
	@mkdir -p $(@D)
	$(CXX) $(ADP_CXXFLAGS) -fvisibility=hidden $< $(ADP_LINK) \
	    -ltorch_cpu -lc10 -o $@

$(ADP_ORT): $(ADP_DIR)/fetch_ort.sh
	@sh $< $(ADP_ORT_VERSION) $(@D)

# Linked to the fetched library, found next to the adapter at run time.
$(O)/adapters/onnxruntime_where.so: $(ADP_DIR)/onnxruntime_where.c \
        $(ADP_DIR)/ort_model.c $(ADP_DIR)/ort.h $(ADP_DEPS) $(ADP_ORT)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fvisibility=hidden $(ADP_DIR)/onnxruntime_where.c \
	    $(ADP_DIR)/ort_model.c $(ADP_LINK) -L$(dir $(ADP_ORT)) \
	    -l:libonnxruntime.so.1 -Wl,-rpath,'$$ORIGIN/onnxruntime' -lpthread -o $@

# Not in sanitizer trees (check-asan builds `all` there): the libraries
# are not built for it, and the adapters are not what those checks test.
ifeq ($(SAN),)
ALL += $(ADP_LIBS)
endif

# One whole run per implementation (every profile): its TAP and results
# file under $(O)/matrix/, for the expectations and the matrix.
ADP_IMPLS := ref opt minimal $(ADP_NAMES)
ADP_LIB_ref := $(O)/libselect_ref.so
ADP_LIB_opt := $(O)/libselect_opt.so
ADP_LIB_minimal := $(O)/examples/libminimal.so
$(foreach n,$(ADP_NAMES),$(eval ADP_LIB_$(n) := $(O)/adapters/$(n).so))
ADP_SUITE := $(wildcard cases/*.lua) spec/select.md spec/profiles.lua

define ADP_RUN_RULE
$(O)/matrix/$(1).tap: $(O)/selcheck $(ADP_LIB_$(1)) $(ADP_SUITE) $(ADP_DIR)/t/run_impl.sh
	@sh $(ADP_DIR)/t/run_impl.sh $(O)/selcheck $(ADP_LIB_$(1)) $(O)/matrix/$(1)
endef
$(foreach i,$(ADP_IMPLS),$(eval $(call ADP_RUN_RULE,$(i))))
ADP_TAPS := $(ADP_NAMES:%=$(O)/matrix/%.tap)

.PHONY: check-adapters check-adapters-exports check-adapters-verdicts \
        check-adapters-expect-neg adapters-expect adapters-taps
CHECK_ADAPTERS := check-adapters-exports check-adapters-verdicts \
                  check-adapters-expect-neg
CHECK += $(CHECK_ADAPTERS)
check-adapters: $(CHECK_ADAPTERS)

# Each adapter exports sel_get_impl and nothing else.
check-adapters-exports: $(ADP_LIBS)
	@for l in $^; do \
	    syms=$$(nm -D --defined-only $$l | awk '{print $$3}' | grep -v '^_' | sort | tr '\n' ' '); \
	    if [ "$$syms" != "sel_get_impl " ]; then \
	        echo "check-adapters-exports: $$l exports: $$syms" >&2; exit 1; fi; \
	done; echo "check-adapters-exports: $(words $^) adapters export only sel_get_impl"

# The runs two at a time (one worker each), whatever -j make was given.
adapters-taps: $(O)/selcheck $(ADP_LIBS)
	@$(MAKE) --no-print-directory -j2 $(ADP_TAPS)

# Every adapter's failures and leniencies are exactly its expectation file.
check-adapters-verdicts: adapters-taps
	@sh $(ADP_DIR)/t/verdicts.sh check $(O)/matrix $(ADP_DIR)/expect $(ADP_NAMES)

# An edited expectation (one known verdict dropped, one invented) fails.
check-adapters-expect-neg: adapters-taps
	@sh $(ADP_DIR)/t/expect_neg.sh $(O)/matrix $(ADP_DIR)/expect

# The conformance matrix: ref, opt, minimal and every adapter under every
# profile; index.html by selcheck --matrix (harness/h_report.c), a report
# page per implementation (--report), MATRIX.md (matrix_md.sh, checked
# against each TAP's closing line).
ADP_MATRIX_TAPS := $(ADP_IMPLS:%=$(O)/matrix/%.tap)
.PHONY: matrix check-adapters-browser
matrix: $(O)/selcheck $(ADP_LIBS) $(ADP_LIB_ref) $(ADP_LIB_opt) $(ADP_LIB_minimal)
	@$(MAKE) --no-print-directory -j2 $(ADP_MATRIX_TAPS)
	@cd $(O)/matrix && $(CURDIR)/$(O)/selcheck --matrix index.html \
	    $(ADP_IMPLS:%=%.results)
	@sh $(ADP_DIR)/matrix_md.sh $(O)/matrix/MATRIX.md $(O)/matrix $(ADP_IMPLS)
	@echo "matrix: $(O)/matrix/index.html, $(O)/matrix/MATRIX.md"

# The page in headless Chromium: renders, a row per implementation, a
# failing case reached by its link; keeps $(O)/matrix/index.png.
CHECK_LONG += check-adapters-browser
check-adapters-browser: matrix
	@sh $(ADP_DIR)/t/browser.sh $(O)/matrix $(ADP_IMPLS)

# After a deliberate change: rewrite examples/adapters/expect/*.txt.
adapters-expect: adapters-taps
	@sh $(ADP_DIR)/t/verdicts.sh update $(O)/matrix $(ADP_DIR)/expect $(ADP_NAMES)

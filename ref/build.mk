# ref/build.mk - the reference: libselect_ref.so (exports sel_get_impl
# only), libselect_ref.a (the oracle the harness links), and its unit test.

REF_SRC := ref/ref_shape.c ref/ref_select.c
REF_OBJ := $(REF_SRC:%.c=$(O)/%.o)

$(O)/ref/%.o: ref/%.c ref/ref.h ref/ref_internal.h spec/select.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -fvisibility=hidden -c $< -o $@

$(O)/libselect_ref.a: $(REF_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(O)/libselect_ref.so: $(REF_OBJ) $(O)/ref/ref_export.o
	$(CC) -shared $(LDFLAGS_ALL) $^ -o $@

$(O)/ref/test_ref: ref/test_ref.c $(O)/libselect_ref.a
	$(CC) $(CFLAGS_ALL) -Iref $< $(O)/libselect_ref.a $(LDFLAGS_ALL) -o $@

ALL += $(O)/libselect_ref.a $(O)/libselect_ref.so $(O)/ref/test_ref

.PHONY: check-ref check-ref-unit check-ref-exports check-header
CHECK_REF := check-header check-ref-unit check-ref-exports
CHECK += $(CHECK_REF)
check-ref: $(CHECK_REF)

check-ref-unit: $(O)/ref/test_ref
	$(O)/ref/test_ref

# The library exports sel_get_impl and nothing else of the project.
check-ref-exports: $(O)/libselect_ref.so
	@syms=$$(nm -D --defined-only $< | awk '{print $$3}' | grep -v '^_' | sort | tr '\n' ' '); \
	if [ "$$syms" != "sel_get_impl " ]; then \
	    echo "check-ref-exports: $< exports: $$syms" >&2; exit 1; fi; \
	echo "check-ref-exports: $< exports only sel_get_impl"

# The ABI header compiles as C89 and as C++.
check-header: spec/select.h
	@mkdir -p $(O)/header
	@printf '#include "select.h"\nint main(void){return (int)sel_dtype_size(SEL_DT_U8) - 1 + (int)*sel_status_name(SEL_OK) - 83 + (int)*sel_dtype_name(SEL_DT_F32) - 102 + (int)*sel_broadcast_name(SEL_BROADCAST_PDPD) - 112;}\n' > $(O)/header/t.c
	@cp $(O)/header/t.c $(O)/header/t.cpp
	$(CC) -std=c89 -pedantic -Wall -Wextra -Werror -Ispec $(O)/header/t.c -o $(O)/header/t89
	c++ -std=c++98 -pedantic -Wall -Wextra -Werror -Ispec $(O)/header/t.cpp -o $(O)/header/tcxx
	$(O)/header/t89 && $(O)/header/tcxx

/* ffi_layout.c - prints the ABI of spec/select.h as the C compiler sees it:
 * every struct's size and alignment, every field's offset, size and kind,
 * every enum and #define value.  harness/ffi/t/ffi_layout.lua compares this
 * with the LuaJIT cdef of harness/ffi/selcheck.lua.
 *
 * Output, one item per line:
 *   struct <name> <size> <align>
 *   field <struct> <field> <offset> <size> <kind>   kind: i32 u32 i64 u64 ptr
 *   const <NAME> <value>
 * Every field of the ABI is a fixed-width integer or a pointer; _Generic
 * names the integers and anything else is reported as "ptr".  A field added
 * to the header but not listed here still shows up as a size difference.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "select.h"

#define KIND(e) _Generic((e), int32_t: "i32", uint32_t: "u32", \
                         int64_t: "i64", uint64_t: "u64", default: "ptr")

#define STRUCT(T) \
    printf("struct %s %zu %zu\n", #T, sizeof(T), _Alignof(T))
#define FIELD(T, f) \
    printf("field %s %s %zu %zu %s\n", #T, #f, offsetof(T, f), \
           sizeof(((T *)0)->f), KIND(((T *)0)->f))

/* Every constant of the header, by its own name. */
#define CONSTANTS(X) \
    X(SEL_ABI_VERSION) X(SEL_MAX_RANK) X(SEL_DT_FIRST) X(SEL_DT_LAST) \
    X(SEL_COND_BIDIRECTIONAL) \
    X(SEL_DT_BOOLEAN) X(SEL_DT_F64) X(SEL_DT_F32) X(SEL_DT_F16) \
    X(SEL_DT_BF16) X(SEL_DT_F8E4M3) X(SEL_DT_F8E5M2) X(SEL_DT_I64) \
    X(SEL_DT_I32) X(SEL_DT_I16) X(SEL_DT_I8) X(SEL_DT_U64) X(SEL_DT_U32) \
    X(SEL_DT_U16) X(SEL_DT_U8) \
    X(SEL_BROADCAST_NONE) X(SEL_BROADCAST_NUMPY) X(SEL_BROADCAST_PDPD) \
    X(SEL_OK) X(SEL_ERR_SHAPE) X(SEL_ERR_DTYPE) X(SEL_ERR_ATTR) \
    X(SEL_ERR_UNSUPPORTED) X(SEL_ERR_ARG) X(SEL_ERR_NOMEM)

#define ROW(name) {#name, (long long)(name)},
static const struct {
    const char *name;
    long long value;
} constants[] = {CONSTANTS(ROW)};
#define NCONST (sizeof constants / sizeof constants[0])

/* The header's name helpers know every enum value; each one they name
 * must be in the list above with that value, so a value added to the
 * header cannot be missed here.  Returns the number of misses. */
static int listed(const char *prefix, const char *lower, long long v)
{
    char name[64];
    size_t i, n = (size_t)snprintf(name, sizeof name, "%s", prefix);
    for (i = 0; lower[i] && n + 1 < sizeof name; i++)
        name[n++] = (char)(lower[i] >= 'a' && lower[i] <= 'z' ?
                           lower[i] - 'a' + 'A' : lower[i]);
    name[n] = '\0';
    for (i = 0; i < NCONST; i++)
        if (strcmp(constants[i].name, name) == 0 && constants[i].value == v)
            return 0;
    fprintf(stderr, "ffi_layout: %s = %lld is not listed in ffi_layout.c\n",
            name, v);
    return 1;
}

int main(void)
{
    int miss = 0, v;
    size_t i;

    STRUCT(sel_tensor);
    FIELD(sel_tensor, dtype);
    FIELD(sel_tensor, rank);
    FIELD(sel_tensor, dims);
    FIELD(sel_tensor, data);
    STRUCT(sel_broadcast);
    FIELD(sel_broadcast, type);
    FIELD(sel_broadcast, axis);
    FIELD(sel_broadcast, flags);
    STRUCT(sel_impl);
    FIELD(sel_impl, abi_version);
    FIELD(sel_impl, name);
    FIELD(sel_impl, supports);
    FIELD(sel_impl, infer);
    FIELD(sel_impl, execute);
    for (i = 0; i < NCONST; i++)
        printf("const %s %lld\n", constants[i].name, constants[i].value);

    for (v = 0; v < 256; v++) {
        if (strcmp(sel_dtype_name(v), "?") != 0)
            miss += listed("SEL_DT_", sel_dtype_name(v), v);
        if (strcmp(sel_broadcast_name(v), "?") != 0)
            miss += listed("SEL_BROADCAST_", sel_broadcast_name(v), v);
        if (strcmp(sel_status_name(v), "SEL_ERR_?") != 0)
            miss += listed("", sel_status_name(v), v);
    }
    return miss ? 1 : 0;
}

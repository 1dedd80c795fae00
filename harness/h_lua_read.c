/* h_lua_read.c - reading Lua values for case{} and the profiles: records
 * with known fields only, arrays without holes, numbers both front ends
 * read the same way, literals, dims and shapes, dtype names, and the
 * compound fields of case{} (expect, dst, dtype_override).  Each reader
 * reports a problem on the case (file, line, message) and returns -1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h_dtype.h"
#include "h_lua.h"

char * h_lua_dupstr(const char *s)
{
    return strcpy(h_realloc(NULL, strlen(s) + 1), s);
}

static int in_list(const char *const *list, const char *k)
{
    for (; *list; list++)
        if (strcmp(*list, k) == 0)
            return 1;
    return 0;
}

/* Unknown keys of a record.  lua_next's order differs between Lua 5.4 and
 * LuaJIT, so the first unknown key in name order is the one reported. */
int h_lua_keys(lua_State *L, int idx, const char *const *known,
                      const char *what, h_case *c)
{
    char first[64] = "", list[400] = "";
    int bad = 0, other = 0;
    size_t used = 0;

    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            other = 1;
            continue;
        }
        if (!in_list(known, lua_tostring(L, -1)) &&
            (!bad || strcmp(lua_tostring(L, -1), first) < 0)) {
            snprintf(first, sizeof first, "%s", lua_tostring(L, -1));
            bad = 1;
        }
    }
    for (; *known && used < sizeof list; known++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                 used ? ", " : "", *known);
    if (bad)
        h_case_fail(c, "unknown field '%s' in %s (fields: %s)", first, what,
                    list);
    else if (other)
        h_case_fail(c, "%s has a key that is not a name (fields: %s)", what,
                    list);
    return bad || other ? -1 : 0;
}

/* Length of an array, or -1 when the table has other keys or holes. */
long h_lua_array_len(lua_State *L, int idx)
{
    long n = (long)lua_rawlen(L, idx), count = 0;

    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TNUMBER || lua_tonumber(L, -1) < 1 ||
            lua_tonumber(L, -1) > (lua_Number)n ||
            lua_tonumber(L, -1) != (lua_Number)(long)lua_tonumber(L, -1)) {
            lua_pop(L, 1);
            return -1;
        }
        count++;
    }
    return count == n ? n : -1;
}

/* A number as the double both front ends hold.  A Lua 5.4 integer that a
 * double cannot hold is refused: LuaJIT would have rounded it. */
int h_lua_num(lua_State *L, int idx, double *out, h_case *c,
                   const char *what)
{
#if !H_LUAJIT
    if (lua_isinteger(L, idx)) {
        lua_Integer v = lua_tointeger(L, idx);
        if ((lua_Integer)(double)v != v || (double)v >= 9223372036854775808.0) {
            h_case_fail(c, "%s: integer %lld is not exact as a double; write "
                        "it as a hex string", what, (long long)v);
            return -1;
        }
        *out = (double)v;
        return 0;
    }
#endif
    (void)c;
    (void)what;
    *out = lua_tonumber(L, idx);
    return 0;
}

int h_lua_lit(lua_State *L, int idx, h_lit *l, h_case *c,
                   const char *what)
{
    memset(l, 0, sizeof *l);
    switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
        l->kind = H_LIT_NUM;
        return h_lua_num(L, idx, &l->num, c, what);
    case LUA_TBOOLEAN:
        l->kind = H_LIT_BOOL;
        l->bits = (uint64_t)lua_toboolean(L, idx);
        return 0;
    case LUA_TSTRING:
        l->kind = H_LIT_HEX;
        if (h_parse_hex(lua_tostring(L, idx), &l->bits) == 0)
            return 0;
        h_case_fail(c, "%s: '%s' is not a hex string like \"0x7fc00001\"",
                    what, lua_tostring(L, idx));
        return -1;
    default:
        h_case_fail(c, "%s: a %s where a number or hex string belongs", what,
                    lua_typename(L, lua_type(L, idx)));
        return -1;
    }
}

int h_lua_lits(lua_State *L, int idx, h_lits *out, h_case *c,
                    const char *what)
{
    long n, i;

    if (lua_type(L, idx) != LUA_TTABLE || (n = h_lua_array_len(L, idx)) < 0) {
        h_case_fail(c, "%s: want an array of numbers or hex strings", what);
        return -1;
    }
    out->n = (size_t)n;
    out->v = h_realloc(NULL, (size_t)n * sizeof *out->v);
    for (i = 0; i < n; i++) {
        int bad;
        lua_rawgeti(L, idx, (int)i + 1);
        bad = h_lua_lit(L, lua_gettop(L), &out->v[i], c, what);
        lua_pop(L, 1);
        if (bad)
            return -1;
    }
    return 0;
}

/* An integer (dims, axis, raw values): a number below 2^53 or a hex
 * string, which may give any 64-bit pattern (read as int64). */
int h_lua_int(lua_State *L, int idx, int64_t *out, h_case *c,
                   const char *what)
{
    h_lit l;

    if (h_lua_lit(L, idx, &l, c, what))
        return -1;
    if (l.kind == H_LIT_HEX) {
        *out = (int64_t)l.bits;
        return 0;
    }
    if (l.kind == H_LIT_NUM && l.num > -9007199254740992.0 &&
        l.num < 9007199254740992.0 && (double)(int64_t)l.num == l.num) {
        *out = (int64_t)l.num;
        return 0;
    }
    h_case_fail(c, "%s: want an integer (hex string beyond 2^53)", what);
    return -1;
}

int h_lua_dims(lua_State *L, int idx, h_shape *sh, h_case *c,
                    const char *what)
{
    long n, i;

    if (lua_type(L, idx) != LUA_TTABLE || (n = h_lua_array_len(L, idx)) < 0) {
        h_case_fail(c, "%s: want an array of dims", what);
        return -1;
    }
    if (n > H_RANK_CAP) {
        h_case_fail(c, "%s: %ld dims; past %d write {rank = N, fill = F}",
                    what, n, H_RANK_CAP);
        return -1;
    }
    sh->rank = (int32_t)n;
    for (i = 0; i < n; i++) {
        int bad;
        lua_rawgeti(L, idx, (int)i + 1);
        bad = h_lua_int(L, lua_gettop(L), &sh->dims[i], c, what);
        lua_pop(L, 1);
        if (bad)
            return -1;
        if (!sh->raw && sh->dims[i] < 0) {
            h_case_fail(c, "%s: negative dim (use {dims = {...}} to pass one "
                        "on purpose)", what);
            return -1;
        }
    }
    return 0;
}

/* One shape of the table form: {4, 1}, {} for rank 0, or a raw request
 * {dims = {...}} / {rank = 9, fill = 1}. */
int h_lua_shape(lua_State *L, int idx, h_shape *sh, h_case *c,
                     const char *what)
{
    static const char *const raw_fields[] = {"dims", "fill", "rank", NULL};
    int64_t rank = 0, fill = 1;
    int t, bad = 0, has_dims, has_rank;

    memset(sh, 0, sizeof *sh);
    if (lua_type(L, idx) != LUA_TTABLE) {
        h_case_fail(c, "%s: want a table of dims", what);
        return -1;
    }
    lua_getfield(L, idx, "dims");
    lua_getfield(L, idx, "rank");
    t = lua_gettop(L);
    if (lua_isnil(L, t - 1) && lua_isnil(L, t)) {
        lua_pop(L, 2);
        return h_lua_dims(L, idx, sh, c, what);
    }
    has_dims = !lua_isnil(L, t - 1);
    has_rank = !lua_isnil(L, t);
    sh->raw = 1;
    bad = h_lua_keys(L, idx, raw_fields, what, c);
    if (!bad && has_dims)
        bad = h_lua_dims(L, t - 1, sh, c, what);
    if (!bad && has_rank)
        bad = h_lua_int(L, t, &rank, c, what);
    lua_getfield(L, idx, "fill");
    if (!bad && !lua_isnil(L, -1))
        bad = h_lua_int(L, lua_gettop(L), &fill, c, what);
    lua_pop(L, 3);
    if (bad || !has_rank)
        return bad;
    if (rank > H_RANK_MAX || rank < -H_RANK_MAX) {
        h_case_fail(c, "%s: rank %lld is beyond the harness limit %d", what,
                    (long long)rank, H_RANK_MAX);
        return -1;
    }
    for (; sh->rank < rank && sh->rank < H_RANK_CAP; sh->rank++)
        sh->dims[sh->rank] = fill;
    sh->fill = fill;
    sh->rank = (int32_t)rank;
    return 0;
}

int h_lua_shapes(lua_State *L, int idx, h_case *c)
{
    static const char *const names[] = {"cond", "x", "y", NULL};
    char err[300];
    int k, bad = 0;

    if (lua_type(L, idx) == LUA_TSTRING) {
        if (h_parse_shapes(lua_tostring(L, idx), c->shape, err, sizeof err)) {
            h_case_fail(c, "%s", err);
            return -1;
        }
        return 0;
    }
    if (lua_type(L, idx) != LUA_TTABLE ||
        h_lua_keys(L, idx, names, "shapes", c)) {
        h_case_fail(c, "shapes: want \"cond:then:else\" or {cond=, x=, y=}");
        return -1;
    }
    for (k = 0; k < 3 && !bad; k++) {
        char what[32];
        snprintf(what, sizeof what, "shapes.%s", names[k]);
        lua_getfield(L, idx, names[k]);
        if (lua_isnil(L, -1)) {
            h_case_fail(c, "shapes: %s is missing", names[k]);
            bad = -1;
        } else {
            bad = h_lua_shape(L, lua_gettop(L), &c->shape[k], c, what);
        }
        lua_pop(L, 1);
    }
    return bad;
}

/* A dtype: a name, or a number passed as the raw value (DT-UNKNOWN-1). */
int h_lua_dtype(lua_State *L, int idx, int32_t *out, h_case *c,
                     const char *what)
{
    int64_t v;

    if (lua_type(L, idx) == LUA_TSTRING) {
        if ((*out = h_dt_parse(lua_tostring(L, idx))) != 0)
            return 0;
        h_case_fail(c, "%s: unknown dtype '%s'", what, lua_tostring(L, idx));
        return -1;
    }
    if (h_lua_int(L, idx, &v, c, what))
        return -1;
    *out = (int32_t)v;
    return 0;
}

int h_lua_strings(lua_State *L, int idx, char ***out, int *n, char *err,
                  size_t errn)
{
    long len, i;

    if (lua_type(L, idx) == LUA_TSTRING) {
        *out = h_realloc(NULL, sizeof **out);
        (*out)[0] = h_lua_dupstr(lua_tostring(L, idx));
        *n = 1;
        return 0;
    }
    if (lua_type(L, idx) != LUA_TTABLE || (len = h_lua_array_len(L, idx)) < 0) {
        snprintf(err, errn, "want an array of strings");
        return -1;
    }
    *out = h_realloc(NULL, (size_t)len * sizeof **out);
    *n = 0;
    for (i = 0; i < len; i++) {
        lua_rawgeti(L, idx, (int)i + 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            lua_pop(L, 1);
            snprintf(err, errn, "want an array of strings");
            return -1;
        }
        (*out)[(*n)++] = h_lua_dupstr(lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    return 0;
}

/* One expectation: "invalid", {status=}, {shape=, data=}, or a shape. */
static int get_expect1(lua_State *L, int idx, h_expect *e, h_case *c)
{
    static const char *const fields[] = {"data", "shape", "status", NULL};
    int bad = 0;

    if (lua_type(L, idx) == LUA_TSTRING &&
        strcmp(lua_tostring(L, idx), "invalid") == 0) {
        e->kind = H_E_INVALID;
        return 0;
    }
    if (lua_type(L, idx) != LUA_TTABLE) {
        h_case_fail(c, "expect: want \"invalid\", a shape, {shape=, data=} "
                    "or {status=}");
        return -1;
    }
    lua_getfield(L, idx, "shape");
    lua_getfield(L, idx, "data");
    lua_getfield(L, idx, "status");
    if (lua_isnil(L, -1) && lua_isnil(L, -2) && lua_isnil(L, -3)) {
        lua_pop(L, 3);
        e->kind = H_E_SHAPE;
        return h_lua_dims(L, idx, &e->shape, c, "expect");
    }
    bad = h_lua_keys(L, idx, fields, "expect", c);
    if (!bad && !lua_isnil(L, -1)) {
        e->kind = H_E_INVALID;
        if (lua_type(L, -1) != LUA_TSTRING ||
            (e->status = h_status_parse(lua_tostring(L, -1))) <= SEL_OK ||
            !lua_isnil(L, -2) || !lua_isnil(L, -3)) {
            h_case_fail(c, "expect.status: an error status like "
                        "\"SEL_ERR_SHAPE\", without shape or data");
            bad = -1;
        }
    } else if (!bad) {
        e->kind = lua_isnil(L, -2) ? H_E_SHAPE : H_E_DATA;
        if (lua_isnil(L, -3)) {
            h_case_fail(c, "expect: data needs a shape");
            bad = -1;
        }
        if (!bad)
            bad = h_lua_dims(L, lua_gettop(L) - 2, &e->shape, c, "expect.shape");
        if (!bad && e->kind == H_E_DATA)
            bad = h_lua_lits(L, lua_gettop(L) - 1, &e->data, c, "expect.data");
    }
    lua_pop(L, 3);
    return bad;
}

int h_lua_expect(lua_State *L, int idx, h_case *c)
{
    static const char *const rules[] = {"bidirectional", "oneway", NULL};
    int k, per, bad = 0;

    if (lua_type(L, idx) == LUA_TTABLE) {
        lua_getfield(L, idx, "oneway");
        lua_getfield(L, idx, "bidirectional");
        per = !lua_isnil(L, -1) || !lua_isnil(L, -2);
        lua_pop(L, 2);
        if (per) {
            c->per_rule = 1;
            if (h_lua_keys(L, idx, rules, "expect", c))
                return -1;
            for (k = 0; k < 2 && !bad; k++) {
                lua_getfield(L, idx, k ? "bidirectional" : "oneway");
                if (!lua_isnil(L, -1))
                    bad = get_expect1(L, lua_gettop(L), &c->expect[k], c);
                lua_pop(L, 1);
            }
            return bad;
        }
    }
    if (get_expect1(L, idx, &c->expect[0], c))
        return -1;
    c->expect[1] = c->expect[0]; /* shares data; h_suite_drop_last knows */
    return 0;
}

int h_lua_dst(lua_State *L, int idx, h_case *c)
{
    static const char *const fields[] = {"dims", "dtype", NULL};
    int bad;

    if (lua_type(L, idx) != LUA_TTABLE || h_lua_keys(L, idx, fields, "dst", c)) {
        h_case_fail(c, "dst: want {dtype=, dims=}");
        return -1;
    }
    lua_getfield(L, idx, "dtype");
    bad = !lua_isnil(L, -1) &&
          h_lua_dtype(L, lua_gettop(L), &c->dst_dtype, c, "dst.dtype");
    c->has_dst_dtype = !lua_isnil(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, idx, "dims");
    c->dst_shape.raw = 1;
    if (!bad && !lua_isnil(L, -1)) {
        c->has_dst_dims = 1;
        bad = h_lua_dims(L, lua_gettop(L), &c->dst_shape, c, "dst.dims");
    }
    lua_pop(L, 1);
    return bad ? -1 : 0;
}

int h_lua_override(lua_State *L, int idx, h_case *c)
{
    static const char *const names[] = {"cond", "x", "y", NULL};
    int k, bad = 0;

    if (lua_type(L, idx) != LUA_TTABLE ||
        h_lua_keys(L, idx, names, "dtype_override", c)) {
        h_case_fail(c, "dtype_override: want {cond=, x=, y=}");
        return -1;
    }
    for (k = 0; k < 3 && !bad; k++) {
        lua_getfield(L, idx, names[k]);
        if (!lua_isnil(L, -1)) {
            c->has_override[k] = 1;
            bad = h_lua_dtype(L, lua_gettop(L), &c->override_dt[k], c,
                            "dtype_override");
        }
        lua_pop(L, 1);
    }
    return bad;
}

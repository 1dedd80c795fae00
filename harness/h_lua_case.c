/* h_lua_case.c - case{}: reads the table a script passes into an h_case,
 * field by field, with a clear message naming file and line for anything
 * unknown or of the wrong type.  The meaning of the fields is
 * cases/README.md; the readers are h_lua_read.c; cross-field checks are
 * in h_case.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h_dtype.h"
#include "h_lua.h"
#include "h_sleef.h"

static const char *const case_fields[] = {
    "alias", "axis", "btype", "check", "concurrent", "cond", "dst",
    "dtype_override", "dtypes", "expect", "fill", "flags", "id", "mode",
    "null", "offset", "profiles", "reuse", "rules", "shapes", "values", NULL};

static int get_dtypes(lua_State *L, int idx, h_case *c)
{
    long n, i;

    if (lua_type(L, idx) == LUA_TSTRING &&
        strcmp(lua_tostring(L, idx), "profile") == 0)
        return 0;
    if (lua_type(L, idx) == LUA_TSTRING) {
        c->dtypes = h_realloc(NULL, sizeof *c->dtypes);
        c->ndtypes = 1;
        return h_lua_dtype(L, idx, c->dtypes, c, "dtypes");
    }
    if (lua_type(L, idx) != LUA_TTABLE || (n = h_lua_array_len(L, idx)) <= 0) {
        h_case_fail(c, "dtypes: want \"profile\" or an array of dtype names");
        return -1;
    }
    c->dtypes = h_realloc(NULL, (size_t)n * sizeof *c->dtypes);
    c->ndtypes = (int)n;
    for (i = 0; i < n; i++) {
        int bad;
        lua_rawgeti(L, idx, (int)i + 1);
        bad = lua_type(L, -1) != LUA_TSTRING ||
              h_lua_dtype(L, lua_gettop(L), &c->dtypes[i], c, "dtypes");
        lua_pop(L, 1);
        if (bad) {
            h_case_fail(c, "dtypes: want dtype names");
            return -1;
        }
    }
    return 0;
}

static int get_profiles(lua_State *L, int idx, h_case *c,
                        const h_profiles *p)
{
    char **names = NULL, err[100];
    int n = 0, i, k, bad = 0;

    if (h_lua_strings(L, idx, &names, &n, err, sizeof err)) {
        h_case_fail(c, "profiles: %s", err);
        bad = -1;
    }
    for (i = 0; i < n; i++) {
        for (k = 0; k < p->n && strcmp(p->v[k].name, names[i]); k++)
            ;
        if (k == p->n && !bad) {
            h_case_fail(c, "profiles: unknown profile '%s'", names[i]);
            bad = -1;
        }
        if (k < p->n)
            c->profiles |= 1u << k;
        free(names[i]);
    }
    free(names);
    return bad;
}

static int get_cond(lua_State *L, int idx, h_case *c)
{
    static const char *const pats[] = {"all_true", "all_false", "alternating",
                                       "random", "runs", "bytes", NULL};
    size_t i;
    int k;

    if (lua_type(L, idx) == LUA_TSTRING) {
        for (k = 0; pats[k]; k++)
            if (strcmp(pats[k], lua_tostring(L, idx)) == 0) {
                c->cond = H_C_ALL_TRUE + k;
                return 0;
            }
        h_case_fail(c, "cond: unknown pattern '%s' (all_true, all_false, "
                    "alternating, random, runs, bytes, or a table of bytes)",
                    lua_tostring(L, idx));
        return -1;
    }
    c->cond = H_C_LITERAL;
    if (h_lua_lits(L, idx, &c->cond_lit, c, "cond"))
        return -1;
    for (i = 0; i < c->cond_lit.n; i++) {
        h_lit *l = &c->cond_lit.v[i];
        if (l->kind == H_LIT_NUM) {
            if (!(l->num >= 0 && l->num <= 255) ||
                (double)(int)l->num != l->num) {
                h_case_fail(c, "cond: bytes are 0..255");
                return -1;
            }
            l->bits = (uint64_t)l->num;
        } else if (l->kind == H_LIT_HEX && l->bits > 255) {
            h_case_fail(c, "cond: bytes are 0..255");
            return -1;
        }
    }
    return 0;
}

static int get_vclass(lua_State *L, int idx, h_values *v, h_case *c,
                      const char *what)
{
    static const char *const cls[] = {"normal", "special", "nan", "patterns",
                                      "ramp", NULL};
    int k;

    if (lua_type(L, idx) == LUA_TSTRING) {
        const char *s = lua_tostring(L, idx);
        const char *const *fn = h_sleef_names();
        for (k = 0; cls[k]; k++)
            if (strcmp(cls[k], s) == 0) {
                v->cls = H_V_NORMAL + k;
                return 0;
            }
        for (k = 0; strncmp(s, "sleef:", 6) == 0 && fn[k]; k++)
            if (strcmp(fn[k], s + 6) == 0) {
                v->cls = H_V_SLEEF;
                v->fn = fn[k];
                return 0;
            }
        h_case_fail(c, "%s: unknown value class '%s' (normal, special, nan, "
                    "patterns, ramp, sleef:log|exp|sqrt|sin|tanh, or a table "
                    "of numbers)", what, s);
        return -1;
    }
    v->cls = H_V_LITERAL;
    return h_lua_lits(L, idx, &v->lit, c, what);
}

static int get_values(lua_State *L, int idx, h_case *c)
{
    static const char *const names[] = {"x", "y", NULL};
    int k, bad = 0;

    if (lua_type(L, idx) == LUA_TTABLE) {
        lua_getfield(L, idx, "x");
        lua_getfield(L, idx, "y");
        k = !lua_isnil(L, -1) || !lua_isnil(L, -2);
        lua_pop(L, 2);
        if (k) {
            if (h_lua_keys(L, idx, names, "values", c))
                return -1;
            for (k = 0; k < 2 && !bad; k++) {
                lua_getfield(L, idx, names[k]);
                if (!lua_isnil(L, -1))
                    bad = get_vclass(L, lua_gettop(L), &c->val[k], c,
                                     k ? "values.y" : "values.x");
                lua_pop(L, 1);
            }
            return bad;
        }
    }
    if (get_vclass(L, idx, &c->val[0], c, "values"))
        return -1;
    c->val[1] = c->val[0];
    if (c->val[0].cls == H_V_LITERAL) { /* each side owns its copy */
        c->val[1].lit.v = h_realloc(NULL, c->val[0].lit.n * sizeof(h_lit));
        memcpy(c->val[1].lit.v, c->val[0].lit.v,
               c->val[0].lit.n * sizeof(h_lit));
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

static int get_expect(lua_State *L, int idx, h_case *c)
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

static int get_null(const char *s, h_case *c)
{
    static const char *const t[] = {"cond", "x", "y", "dst"};
    const char *dot = strchr(s, '.');
    size_t len = dot ? (size_t)(dot - s) : strlen(s);
    int k;

    if (!dot && (strcmp(s, "dims") == 0 || strcmp(s, "data") == 0)) {
        c->null_t = H_T_X;
        c->null_what = s[1] == 'i' ? H_N_DIMS : H_N_DATA;
        return 0;
    }
    for (k = 0; k < 4; k++)
        if (strlen(t[k]) == len && strncmp(t[k], s, len) == 0) {
            c->null_t = k;
            c->null_what = !dot ? H_N_TENSOR
                         : strcmp(dot, ".dims") == 0 ? H_N_DIMS
                         : strcmp(dot, ".data") == 0 ? H_N_DATA : 0;
            if (c->null_what)
                return 0;
        }
    h_case_fail(c, "null: want cond, x, y, dst, dims, data, or <tensor>.dims "
                "/ <tensor>.data");
    return -1;
}

static int get_dst(lua_State *L, int idx, h_case *c)
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

static int get_override(lua_State *L, int idx, h_case *c)
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

/* Pushes field name of the table at t; nonzero when it is set. */
static int field(lua_State *L, int t, const char *name)
{
    lua_getfield(L, t, name);
    return !lua_isnil(L, -1);
}

static void read_alias(lua_State *L, h_case *c)
{
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";

    c->alias = !strcmp(s, "x") ? H_A_X : !strcmp(s, "y") ? H_A_Y
             : !strcmp(s, "partial") ? H_A_PARTIAL : H_A_NONE;
    if (!c->alias)
        h_case_fail(c, "alias: want \"x\", \"y\" or \"partial\"");
}

/* Each field: check its Lua type, then read it.  Every branch leaves the
 * field's value on the stack for the pop that follows it. */
static void read_fields(lua_State *L, int t, h_case *c, const h_profiles *p,
                        h_lua_ctx *x)
{
    char err[100];
    int64_t v;
    int top = lua_gettop(L);

    if (field(L, t, "id")) {
        if (lua_type(L, -1) == LUA_TSTRING)
            c->id = h_lua_dupstr(lua_tostring(L, -1));
        else
            h_case_fail(c, "id: want a string");
    }
    lua_pop(L, 1);
    if (field(L, t, "rules") &&
        h_lua_strings(L, top + 1, &c->rules, &c->nrules, err, sizeof err))
        h_case_fail(c, "rules: %s", err);
    lua_pop(L, 1);
    if ((c->has_shapes = field(L, t, "shapes")))
        h_lua_shapes(L, top + 1, c);
    lua_pop(L, 1);
    if (field(L, t, "mode") && (lua_type(L, -1) != LUA_TSTRING ||
                                (c->mode = h_mode_parse(lua_tostring(L, -1))) < 0))
        h_case_fail(c, "mode: want \"none\", \"numpy\" or \"pdpd\"");
    lua_pop(L, 1);
    if (field(L, t, "axis") && h_lua_int(L, top + 1, &v, c, "axis") == 0)
        c->axis = (int32_t)v;
    lua_pop(L, 1);
    if ((c->has_btype = field(L, t, "btype")) &&
        h_lua_int(L, top + 1, &v, c, "btype") == 0)
        c->btype = (int32_t)v;
    lua_pop(L, 1);
    if (field(L, t, "dtypes"))
        get_dtypes(L, top + 1, c);
    lua_pop(L, 1);
    if (field(L, t, "profiles"))
        get_profiles(L, top + 1, c, p);
    lua_pop(L, 1);
    if (field(L, t, "cond"))
        get_cond(L, top + 1, c);
    lua_pop(L, 1);
    if (field(L, t, "values"))
        get_values(L, top + 1, c);
    lua_pop(L, 1);
    if (field(L, t, "expect"))
        get_expect(L, top + 1, c);
    lua_pop(L, 1);
    if (field(L, t, "offset") && h_lua_int(L, top + 1, &v, c, "offset") == 0) {
        if (v < 0 || v > 63)
            h_case_fail(c, "offset: 0..63 bytes");
        c->offset = (int)v;
    }
    lua_pop(L, 1);
    if (field(L, t, "alias"))
        read_alias(L, c);
    lua_pop(L, 1);
    if (field(L, t, "null")) {
        if (lua_type(L, -1) != LUA_TSTRING)
            h_case_fail(c, "null: want a string");
        else
            get_null(lua_tostring(L, -1), c);
    }
    lua_pop(L, 1);
    if (field(L, t, "dst"))
        get_dst(L, top + 1, c);
    lua_pop(L, 1);
    if (field(L, t, "dtype_override"))
        get_override(L, top + 1, c);
    lua_pop(L, 1);
    if (field(L, t, "concurrent")) {
        if (lua_type(L, -1) != LUA_TBOOLEAN)
            h_case_fail(c, "concurrent: want true or false");
        c->concurrent = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    if (field(L, t, "reuse")) {
        if (lua_type(L, -1) != LUA_TBOOLEAN)
            h_case_fail(c, "reuse: want true or false");
        c->reuse = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
    if (field(L, t, "flags") && h_lua_int(L, top + 1, &v, c, "flags") == 0) {
        if (v < 0 || v > 0xffffffffll || (v & SEL_COND_BIDIRECTIONAL))
            h_case_fail(c, "flags: bits of 32 other than "
                        "SEL_COND_BIDIRECTIONAL (the profile's)");
        c->flags = (uint32_t)v;
    }
    lua_pop(L, 1);
    if (field(L, t, "fill"))
        h_lua_get_fill(L, top + 1, c, x);
    lua_pop(L, 1);
    if (field(L, t, "check"))
        h_lua_get_check(L, top + 1, c, x);
    lua_pop(L, 1);
}

/* The reading proper, under lua_pcall (h_lua_case): the table at 2. */
static int read_case(lua_State *L)
{
    h_lua_ctx *x = lua_touserdata(L, 1);
    h_case *c = &x->suite->v[x->suite->n - 1];

    if (h_lua_keys(L, 2, case_fields, "case{}", c) == 0)
        read_fields(L, 2, c, x->profiles, x);
    return 0;
}

/* case{}: the table is read under a protected call, so a Lua error
 * raised while reading it (by a metamethod, the time or memory limit)
 * drops the half-read case before it goes on to the script, which may
 * catch it with pcall: no half-read case ever runs.  Reading never
 * re-enters: a case{} from a metamethod would add to the suite while it
 * is being written. */
int h_lua_case(lua_State *L)
{
    h_lua_ctx *x = lua_touserdata(L, lua_upvalueindex(1));
    lua_Debug ar;
    int line = 0, st;
    h_case *c;

    if (x != h_lua_loading)
        return luaL_error(L, "case{} belongs at the top of the script, not "
                          "inside a fill or check function");
    if (x->reading)
        return luaL_error(L, "case{} called while another case{} is being "
                          "read (from a metamethod of its table?)");
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "l", &ar))
        line = ar.currentline;
    c = h_suite_add(x->suite, x->file, x->stem, line);
    if (lua_gettop(L) != 1 || lua_type(L, 1) != LUA_TTABLE) {
        h_case_fail(c, "case{} takes one table, got %s",
                    lua_gettop(L) ? lua_typename(L, lua_type(L, 1)) : "nothing");
        return 0;
    }
    lua_settop(L, 1);
    lua_pushcfunction(L, read_case);
    lua_pushlightuserdata(L, x);
    lua_pushvalue(L, 1);
    x->reading = 1;
    st = lua_pcall(L, 2, 0, 0);
    x->reading = 0;
    if (st != 0) {
        h_suite_drop_last(x->suite);
        return lua_error(L);
    }
    c = &x->suite->v[x->suite->n - 1];
    if (!c->error)
        h_case_check(x->suite, c, x->profiles, x->first);
    return 0;
}

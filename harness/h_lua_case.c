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

static void read_alias(lua_State *L, int v, h_case *c)
{
    const char *s = lua_type(L, v) == LUA_TSTRING ? lua_tostring(L, v) : "";

    c->alias = !strcmp(s, "x") ? H_A_X : !strcmp(s, "y") ? H_A_Y
             : !strcmp(s, "partial") ? H_A_PARTIAL : H_A_NONE;
    if (!c->alias)
        h_case_fail(c, "alias: want \"x\", \"y\" or \"partial\"");
}

/* A Lua boolean into *out. */
static void read_bool(lua_State *L, int v, h_case *c, const char *name,
                      int *out)
{
    if (lua_type(L, v) != LUA_TBOOLEAN)
        h_case_fail(c, "%s: want true or false", name);
    *out = lua_toboolean(L, v);
}

/* One reader per field of case{}, each given the field's value (not nil)
 * at stack index v; the table below is their order and the field list. */
typedef struct rd {
    lua_State *L;
    int v;
    h_case *c;
    h_lua_ctx *x;
} rd;

static void f_id(rd *r)
{
    if (lua_type(r->L, r->v) == LUA_TSTRING)
        r->c->id = h_lua_dupstr(lua_tostring(r->L, r->v));
    else
        h_case_fail(r->c, "id: want a string");
}

static void f_rules(rd *r)
{
    char err[100];
    if (h_lua_strings(r->L, r->v, &r->c->rules, &r->c->nrules, err, sizeof err))
        h_case_fail(r->c, "rules: %s", err);
}

static void f_shapes(rd *r)
{
    r->c->has_shapes = 1;
    h_lua_shapes(r->L, r->v, r->c);
}

static void f_mode(rd *r)
{
    if (lua_type(r->L, r->v) != LUA_TSTRING ||
        (r->c->mode = h_mode_parse(lua_tostring(r->L, r->v))) < 0)
        h_case_fail(r->c, "mode: want \"none\", \"numpy\" or \"pdpd\"");
}

static void f_axis(rd *r)
{
    int64_t v;
    if (h_lua_int(r->L, r->v, &v, r->c, "axis") == 0)
        r->c->axis = (int32_t)v;
}

static void f_btype(rd *r)
{
    int64_t v;
    r->c->has_btype = 1;
    if (h_lua_int(r->L, r->v, &v, r->c, "btype") == 0)
        r->c->btype = (int32_t)v;
}

static void f_dtypes(rd *r) { get_dtypes(r->L, r->v, r->c); }
static void f_profiles(rd *r) { get_profiles(r->L, r->v, r->c, r->x->profiles); }
static void f_cond(rd *r) { get_cond(r->L, r->v, r->c); }
static void f_values(rd *r) { get_values(r->L, r->v, r->c); }
static void f_expect(rd *r) { h_lua_expect(r->L, r->v, r->c); }
static void f_alias(rd *r) { read_alias(r->L, r->v, r->c); }
static void f_dst(rd *r) { h_lua_dst(r->L, r->v, r->c); }
static void f_override(rd *r) { h_lua_override(r->L, r->v, r->c); }
static void f_fill(rd *r) { h_lua_get_fill(r->L, r->v, r->c, r->x); }
static void f_check(rd *r) { h_lua_get_check(r->L, r->v, r->c, r->x); }

static void f_offset(rd *r)
{
    int64_t v;
    if (h_lua_int(r->L, r->v, &v, r->c, "offset") == 0) {
        if (v < 0 || v > 63)
            h_case_fail(r->c, "offset: 0..63 bytes");
        r->c->offset = (int)v;
    }
}

static void f_null(rd *r)
{
    if (lua_type(r->L, r->v) != LUA_TSTRING)
        h_case_fail(r->c, "null: want a string");
    else
        get_null(lua_tostring(r->L, r->v), r->c);
}

/* true, or the second thread's shapes ("c:t:e"): it runs other data. */
static void f_concurrent(rd *r)
{
    char err[200];

    if (lua_type(r->L, r->v) != LUA_TSTRING) {
        read_bool(r->L, r->v, r->c, "concurrent", &r->c->concurrent);
        return;
    }
    r->c->concurrent = r->c->has_conc_shapes = 1;
    if (h_parse_shapes(lua_tostring(r->L, r->v), r->c->conc_shape, err,
                       sizeof err))
        h_case_fail(r->c, "concurrent: %s", err);
}

static void f_reuse(rd *r) { read_bool(r->L, r->v, r->c, "reuse", &r->c->reuse); }

static void f_flags(rd *r)
{
    int64_t v;
    if (h_lua_int(r->L, r->v, &v, r->c, "flags") != 0)
        return;
    if (v < 0 || v > 0xffffffffll || (v & SEL_COND_BIDIRECTIONAL))
        h_case_fail(r->c, "flags: bits of 32 other than "
                    "SEL_COND_BIDIRECTIONAL (the profile's)");
    r->c->flags = (uint32_t)v;
}

static const struct {
    const char *name;
    void (*read)(rd *r);
} fields[] = {
    {"id", f_id}, {"rules", f_rules}, {"shapes", f_shapes},
    {"mode", f_mode}, {"axis", f_axis}, {"btype", f_btype},
    {"dtypes", f_dtypes}, {"profiles", f_profiles}, {"cond", f_cond},
    {"values", f_values}, {"expect", f_expect}, {"offset", f_offset},
    {"alias", f_alias}, {"null", f_null}, {"dst", f_dst},
    {"dtype_override", f_override}, {"concurrent", f_concurrent},
    {"reuse", f_reuse}, {"flags", f_flags}, {"fill", f_fill},
    {"check", f_check},
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The field names in name order, NULL-terminated, for h_lua_keys. */
static const char *const *field_names(void)
{
    static const char *names[NFIELDS + 1];
    size_t i;

    if (!names[0]) {
        for (i = 0; i < NFIELDS; i++)
            names[i] = fields[i].name;
        qsort(names, NFIELDS, sizeof names[0], by_name);
    }
    return names;
}

/* Each field in table order: its reader gets it when set.  The first
 * error a reader reports is the case's. */
static void read_fields(lua_State *L, int t, h_case *c, h_lua_ctx *x)
{
    rd r;
    size_t i;

    r.L = L;
    r.c = c;
    r.x = x;
    r.v = lua_gettop(L) + 1;
    for (i = 0; i < NFIELDS; i++) {
        lua_getfield(L, t, fields[i].name);
        if (!lua_isnil(L, -1))
            fields[i].read(&r);
        lua_settop(L, r.v - 1);
    }
}

h_lua_ctx *h_lua_loading;

/* The reading proper, under lua_pcall (h_lua_case): the table at 2. */
static int read_case(lua_State *L)
{
    h_lua_ctx *x = lua_touserdata(L, 1);
    h_case *c = &x->suite->v[x->suite->n - 1];

    if (h_lua_keys(L, 2, field_names(), "case{}", c) == 0)
        read_fields(L, 2, c, x);
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

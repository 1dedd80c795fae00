/* h_lua_fill.c - a case's own fill and check functions: reading them in
 * case{} (kept as registry references in the script's state, which then
 * stays open), and calling them for h_point.c with the buffers of
 * h_lua_buf.c and a context table (cases/README.md, "Custom data").
 */
#include <stdio.h>
#include <string.h>

#include "h_lua.h"

static const char *const slot_name[H_NT] = {"cond", "x", "y", "dst"};

/* A function value at idx into a registry reference. */
static int take_fn(lua_State *L, int idx, int *ref, h_lua_ctx *x)
{
    lua_pushvalue(L, idx);
    *ref = luaL_ref(L, LUA_REGISTRYINDEX);
    x->keep = 1;
    return 0;
}

int h_lua_get_fill(lua_State *L, int idx, h_case *c, h_lua_ctx *x)
{
    static const char *const names[] = {"cond", "x", "y", NULL};
    int k, bad = 0, any = 0;

    if (lua_type(L, idx) != LUA_TTABLE ||
        h_lua_keys(L, idx, names, "fill", c)) {
        h_case_fail(c, "fill: want {cond = f, x = f, y = f} (each optional), "
                    "f a function(buf, t)");
        return -1;
    }
    for (k = 0; k < 3 && !bad; k++) {
        lua_getfield(L, idx, names[k]);
        if (lua_type(L, -1) == LUA_TFUNCTION) {
            take_fn(L, lua_gettop(L), &c->fill[k], x);
            any = 1;
        } else if (!lua_isnil(L, -1)) {
            h_case_fail(c, "fill.%s: want a function(buf, t)", names[k]);
            bad = -1;
        }
        lua_pop(L, 1);
    }
    if (!bad && !any) {
        h_case_fail(c, "fill: names no input (cond, x or y)");
        bad = -1;
    }
    c->front = L;
    return bad;
}

int h_lua_get_check(lua_State *L, int idx, h_case *c, h_lua_ctx *x)
{
    if (lua_type(L, idx) != LUA_TFUNCTION) {
        h_case_fail(c, "check: want a function(out, t) returning true, or "
                    "false and a message");
        return -1;
    }
    c->front = L;
    return take_fn(L, idx, &c->check, x);
}

static void push_dims(lua_State *L, const h_shape *s)
{
    int32_t i, n = s->rank > 0 ? s->rank : 0;

    lua_createtable(L, n, 0);
    for (i = 0; i < n; i++) {
        lua_pushinteger(L, (lua_Integer)h_dim(s, i));
        lua_rawseti(L, -2, i + 1);
    }
}

/* Pushes the function of ref and its two arguments, buffer `self` of b
 * and the context t: t.cond, t.x, t.y (t.dst) as buffers, only self
 * writable (none for check); t.shapes.<name> and t.dims (self's) as
 * arrays of dims; t.dtype; t.rand. */
static void push_call(lua_State *L, int ref, h_fbuf *b, int nb, int self,
                      int writable, int32_t dtype, uint64_t seed)
{
    int k, t;

    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
    lua_pushnil(L); /* the buffer argument, set below */
    lua_createtable(L, 0, 10);
    t = lua_gettop(L);
    for (k = 0; k < nb; k++) {
        h_lua_buf_push(L, &b[k], k, writable && k == self);
        if (k == self) {
            lua_pushvalue(L, -1);
            lua_replace(L, t - 1);
        }
        lua_setfield(L, t, slot_name[k]);
    }
    lua_createtable(L, 0, nb);
    for (k = 0; k < nb; k++) {
        push_dims(L, b[k].shape);
        if (k == self) {
            lua_pushvalue(L, -1);
            lua_setfield(L, t, "dims");
        }
        lua_setfield(L, -2, slot_name[k]);
    }
    lua_setfield(L, t, "shapes");
    lua_pushstring(L, sel_dtype_name(dtype));
    lua_setfield(L, t, "dtype");
    h_lua_rand_push(L, seed);
    lua_setfield(L, t, "rand");
}

/* "fill.x of custom:mask[f32] (cases/custom.lua:12)": for a hang. */
static void describe(lua_State *L, const h_case *c, const char *what,
                     int32_t dtype, char *buf, size_t n)
{
    lua_Debug ar;

    lua_pushvalue(L, -3); /* the function, under its two arguments */
    lua_getinfo(L, ">S", &ar);
    snprintf(buf, n, "%s of %s:%s[%s] (%s:%d)", what, c->stem, c->id,
             sel_dtype_name(dtype), ar.short_src, ar.linedefined);
}

static void copy_msg(lua_State *L, char *out, size_t n)
{
    const char *m = lua_tostring(L, -1);
    snprintf(out, n, "%s", m ? m : "(an error that is not a string)");
}

int h_front_fill(const h_case *c, int k, h_fbuf b[3], int32_t dtype,
                 uint64_t seed, char *err, size_t n)
{
    lua_State *L = c->front;
    char what[600], name[16];
    int top = lua_gettop(L), st;

    snprintf(name, sizeof name, "fill.%s", slot_name[k]);
    push_call(L, c->fill[k], b, 3, k, 1, dtype, seed);
    describe(L, c, name, dtype, what, sizeof what);
    st = h_lua_call(L, 2, 0, what);
    h_lua_buf_close(L);
    if (st != 0)
        copy_msg(L, err, n);
    lua_settop(L, top);
    return st == 0 ? 0 : -1;
}

int h_front_check(const h_case *c, h_fbuf b[4], int32_t dtype,
                  uint64_t seed, char *msg, size_t n)
{
    lua_State *L = c->front;
    char what[600];
    int top = lua_gettop(L), st, rc = -1;

    push_call(L, c->check, b, 4, H_T_DST, 0, dtype, seed);
    describe(L, c, "check", dtype, what, sizeof what);
    st = h_lua_call(L, 2, 2, what);
    h_lua_buf_close(L);
    if (st != 0) {
        copy_msg(L, msg, n);
    } else if (lua_type(L, -2) == LUA_TBOOLEAN && lua_toboolean(L, -2)) {
        rc = 1;
    } else if (lua_type(L, -2) == LUA_TBOOLEAN) {
        rc = 0;
        snprintf(msg, n, "%s", lua_type(L, -1) == LUA_TSTRING
                                   ? lua_tostring(L, -1)
                                   : "check returned false");
    } else {
        snprintf(msg, n, "want true, or false and a message; got "
                 "%s", luaL_typename(L, -2));
    }
    lua_settop(L, top);
    return rc;
}

/* h_lua_buf.c - the buffers a case's fill and check functions index
 * (cases/README.md, "Custom data"): a userdata with C metamethods under
 * Lua 5.4, an FFI struct with Lua metamethods under LuaJIT (h_lua_jit.lua).
 *
 * Both behave the same for every script: b[i] for i in 0..b.n-1 (0-based
 * like the C buffer), b.n, b.dtype, b.name, #b, b:hex(i), tostring(b).
 * Elements are numbers: integers for the integer types and boolean,
 * bit patterns for f16/bf16/f8, values for f32/f64; 64-bit integers up to
 * 2^53 in magnitude.  A value the element cannot hold exactly is an error,
 * as is an index outside the buffer, a write to another input, or a use
 * after the function returned; the messages are the same in both, so both
 * front ends print the same TAP.  t.rand is one Lua function for both.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "h_dtype.h"
#include "h_lua.h"

/* What an element accepts; h_lua_jit.lua gets this table too. */
typedef struct rule {
    int32_t dtype;
    const char *ctype, *utype; /* LuaJIT: element type, same-size unsigned */
    char kind;  /* b: byte or Lua boolean, i: integer, w/u: 64-bit integer
                 * (signed/unsigned), f: f32, d: f64 */
    double lo, hi;
    const char *want;
} rule;

#define LIM 9007199254740991.0 /* 2^53 - 1 */

static const rule rules[] = {
    {SEL_DT_BOOLEAN, "uint8_t", "uint8_t", 'b', 0, 255,
     "a byte 0..255, true or false"},
    {SEL_DT_F64, "double", "uint64_t", 'd', 0, 0, "a number, not NaN"},
    {SEL_DT_F32, "float", "uint32_t", 'f', 0, 0,
     "a number exact in f32, not NaN"},
    {SEL_DT_F16, "uint16_t", "uint16_t", 'i', 0, 65535,
     "an f16 bit pattern 0..65535"},
    {SEL_DT_BF16, "uint16_t", "uint16_t", 'i', 0, 65535,
     "a bf16 bit pattern 0..65535"},
    {SEL_DT_F8E4M3, "uint8_t", "uint8_t", 'i', 0, 255,
     "an f8e4m3 bit pattern 0..255"},
    {SEL_DT_F8E5M2, "uint8_t", "uint8_t", 'i', 0, 255,
     "an f8e5m2 bit pattern 0..255"},
    {SEL_DT_I64, "int64_t", "uint64_t", 'w', -LIM, LIM,
     "an integer within 2^53 - 1 of 0"},
    {SEL_DT_I32, "int32_t", "uint32_t", 'i', -2147483648.0, 2147483647.0,
     "an integer -2147483648..2147483647"},
    {SEL_DT_I16, "int16_t", "uint16_t", 'i', -32768, 32767,
     "an integer -32768..32767"},
    {SEL_DT_I8, "int8_t", "uint8_t", 'i', -128, 127, "an integer -128..127"},
    {SEL_DT_U64, "uint64_t", "uint64_t", 'u', 0, LIM,
     "an integer 0..2^53 - 1"},
    {SEL_DT_U32, "uint32_t", "uint32_t", 'i', 0, 4294967295.0,
     "an integer 0..4294967295"},
    {SEL_DT_U16, "uint16_t", "uint16_t", 'i', 0, 65535,
     "an integer 0..65535"},
    {SEL_DT_U8, "uint8_t", "uint8_t", 'i', 0, 255, "an integer 0..255"},
};
#define NRULES (sizeof rules / sizeof *rules)

static const rule *rule_of(int32_t dtype)
{
    size_t i;
    for (i = 0; i < NRULES; i++)
        if (rules[i].dtype == dtype)
            return &rules[i];
    return &rules[NRULES - 1]; /* h_point never asks for another */
}

/* t.rand: Park and Miller's minimal standard generator, whose arithmetic
 * is exact in doubles (LuaJIT) and in integers (Lua 5.4), so both give
 * the same numbers.  rand() in [0, 1), rand(m) in 1..m, rand(m, n). */
static const char rand_src[] =
    "local floor, type, error = math.floor, type, error\n"
    "return function(s)\n"
    "  return function(m, n)\n"
    "    s = s * 48271 % 2147483647\n"
    "    local u = (s - 1) / 2147483646\n"
    "    if m == nil then return u end\n"
    "    if n == nil then m, n = 1, m end\n"
    "    if type(m) ~= 'number' or type(n) ~= 'number' or m ~= floor(m)\n"
    "       or n ~= floor(n) or m > n or n - m >= 2147483646 then\n"
    "      error('rand(m, n): want integers m <= n, less than 2^31 - 2 "
    "apart', 2)\n"
    "    end\n"
    "    return m + floor(u * (n - m + 1))\n"
    "  end\n"
    "end\n";

void h_lua_rand_push(lua_State *L, uint64_t seed)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "h_rand");
    lua_pushinteger(L, (lua_Integer)(seed % 2147483646u + 1));
    lua_call(L, 1, 1);
}

static void open_rand(lua_State *L)
{
    if (luaL_loadbuffer(L, rand_src, sizeof rand_src - 1, "=h_rand") != 0)
        lua_error(L);
    lua_call(L, 0, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, "h_rand");
}

#if H_LUAJIT
/* h_lua_jit.lua as a C string, made by harness/build.mk. */
static const char jit_src[] =
#include "h_lua_jit.inc"
    ;

void h_lua_buf_open(lua_State *L)
{
    size_t i;

    open_rand(L);
    if (luaL_loadbuffer(L, jit_src, sizeof jit_src - 1, "=h_lua_jit.lua"))
        lua_error(L);
    lua_pushcfunction(L, luaopen_ffi);
    lua_call(L, 0, 1);
    lua_createtable(L, (int)NRULES, 0);
    for (i = 0; i < NRULES; i++) {
        const rule *r = &rules[i];
        lua_createtable(L, 0, 8);
        lua_pushstring(L, sel_dtype_name(r->dtype));
        lua_setfield(L, -2, "name");
        lua_pushstring(L, r->ctype);
        lua_setfield(L, -2, "ctype");
        lua_pushstring(L, r->utype);
        lua_setfield(L, -2, "utype");
        lua_pushlstring(L, &r->kind, 1);
        lua_setfield(L, -2, "kind");
        lua_pushnumber(L, r->lo);
        lua_setfield(L, -2, "lo");
        lua_pushnumber(L, r->hi);
        lua_setfield(L, -2, "hi");
        lua_pushstring(L, r->want);
        lua_setfield(L, -2, "want");
        lua_pushinteger(L, (lua_Integer)sel_dtype_size(r->dtype));
        lua_setfield(L, -2, "size");
        lua_rawseti(L, -2, (int)i + 1);
    }
    lua_call(L, 2, 2);
    lua_setfield(L, LUA_REGISTRYINDEX, "h_buf_close");
    lua_setfield(L, LUA_REGISTRYINDEX, "h_buf_new");
}

void h_lua_buf_push(lua_State *L, const h_fbuf *b, int slot, int writable)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "h_buf_new");
    lua_pushlightuserdata(L, b->data);
    lua_pushinteger(L, (lua_Integer)b->n);
    lua_pushstring(L, sel_dtype_name(rule_of(b->dtype)->dtype));
    lua_pushinteger(L, slot);
    lua_pushinteger(L, !writable);
    lua_call(L, 5, 1);
}

void h_lua_buf_close(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "h_buf_close");
    lua_call(L, 0, 0);
}

#else /* Lua 5.4: a userdata per buffer */

#define MT "selcheck.buffer"

static const char *const slot_name[H_NT] = {"cond", "x", "y", "dst"};

typedef struct ubuf {
    uint8_t *p;
    size_t n;
    const rule *r;
    unsigned gen; /* valid while it equals generation */
    int slot, ro;
} ubuf;

static unsigned generation = 1;

/* A value in a message, as h_lua_jit.lua prints it. */
static const char *str(lua_State *L, int idx, char *buf, size_t n)
{
    if (lua_type(L, idx) == LUA_TNUMBER) {
        double d = lua_tonumber(L, idx);
        if (d != d)
            return "nan";
        snprintf(buf, n, "%.17g", d);
    } else if (lua_type(L, idx) == LUA_TBOOLEAN) {
        return lua_toboolean(L, idx) ? "true" : "false";
    } else {
        snprintf(buf, n, "<%s>", luaL_typename(L, idx));
    }
    return buf;
}

/* luaL_error cannot format %.17g: build the message first. */
static int fail(lua_State *L, const char *msg)
{
    return luaL_error(L, "%s", msg);
}

static int bad_index(lua_State *L, const ubuf *u, int idx)
{
    char m[300], v[64];

    if (u->gen != generation)
        snprintf(m, sizeof m, "%s: used after its fill or check function "
                 "returned", slot_name[u->slot]);
    else
        snprintf(m, sizeof m, "%s[%s]: out of range: %s has %zu elements, "
                 "indexed from 0", slot_name[u->slot], str(L, idx, v, sizeof v),
                 slot_name[u->slot], u->gen == generation ? u->n : 0);
    return fail(L, m);
}

/* The element index at idx, or -1. */
static long long index_of(lua_State *L, const ubuf *u, int idx)
{
    double d;

    if (u->gen != generation || lua_type(L, idx) != LUA_TNUMBER)
        return -1;
    if (lua_isinteger(L, idx)) {
        lua_Integer i = lua_tointeger(L, idx);
        return i >= 0 && (lua_Unsigned)i < u->n ? (long long)i : -1;
    }
    d = lua_tonumber(L, idx);
    return d >= 0 && d < (double)u->n && d == floor(d) ? (long long)d : -1;
}

/* The buffer a metamethod was called on: only the VM calls them, on a
 * userdata of this metatable (scripts cannot reach the metatable), so
 * the type check of luaL_checkudata, a registry lookup per element, can
 * go.  l_hex, which scripts can call with anything, checks. */
static ubuf *self(lua_State *L)
{
    return lua_touserdata(L, 1);
}

static int l_hex(lua_State *L)
{
    ubuf *u = luaL_testudata(L, 1, MT);
    long long i;
    char m[40];

    if (!u)
        return luaL_error(L, "hex: call it as buf:hex(i)");
    if ((i = index_of(L, u, 2)) < 0)
        return bad_index(L, u, 2);
    snprintf(m, sizeof m, "0x%0*llx", (int)sel_dtype_size(u->r->dtype) * 2,
             (unsigned long long)h_load(u->p + (size_t)i *
                                        sel_dtype_size(u->r->dtype),
                                        sel_dtype_size(u->r->dtype)));
    lua_pushstring(L, m);
    return 1;
}

static int l_index(lua_State *L)
{
    ubuf *u = self(L);
    size_t es = sel_dtype_size(u->r->dtype);
    long long i = index_of(L, u, 2);
    char m[300], v[64];
    uint64_t bits;

    if (i < 0 && lua_type(L, 2) == LUA_TSTRING) {
        const char *k = lua_tostring(L, 2);
        if (!strcmp(k, "n"))
            lua_pushinteger(L, (lua_Integer)(u->gen == generation ? u->n : 0));
        else if (!strcmp(k, "dtype"))
            lua_pushstring(L, sel_dtype_name(u->r->dtype));
        else if (!strcmp(k, "name"))
            lua_pushstring(L, slot_name[u->slot]);
        else if (!strcmp(k, "hex"))
            lua_pushcfunction(L, l_hex);
        else {
            snprintf(m, sizeof m, "%s has no field '%s' (fields: n, dtype, "
                     "name; method: hex)", slot_name[u->slot], k);
            return fail(L, m);
        }
        return 1;
    }
    if (i < 0)
        return bad_index(L, u, 2);
    bits = h_load(u->p + (size_t)i * es, es);
    switch (u->r->kind) {
    case 'f': {
        float f;
        uint32_t b32 = (uint32_t)bits;
        memcpy(&f, &b32, 4);
        lua_pushnumber(L, (lua_Number)f);
        break;
    }
    case 'd': {
        double d;
        memcpy(&d, &bits, 8);
        lua_pushnumber(L, d);
        break;
    }
    case 'w':
    case 'u': {
        int neg = u->r->kind == 'w' && (int64_t)bits < 0;
        uint64_t mag = neg ? 0 - bits : bits;
        if (mag > (uint64_t)LIM) {
            snprintf(m, sizeof m, "%s[%s]: beyond 2^53, not exact as a "
                     "number (read it with :hex(i))", slot_name[u->slot],
                     str(L, 2, v, sizeof v));
            return fail(L, m);
        }
        lua_pushinteger(L, (lua_Integer)bits);
        break;
    }
    default: /* sign-extend the signed integer types */
        if (u->r->lo < 0 && es < 8 && (bits >> (es * 8 - 1)) & 1)
            bits |= ~(uint64_t)0 << (es * 8);
        lua_pushinteger(L, (lua_Integer)bits);
        break;
    }
    return 1;
}

/* The value at 3 as element bits, or -1. */
static int value_of(lua_State *L, const ubuf *u, uint64_t *out)
{
    const rule *r = u->r;
    double d;

    if (r->kind == 'b' && lua_type(L, 3) == LUA_TBOOLEAN) {
        *out = (uint64_t)lua_toboolean(L, 3);
        return 0;
    }
    if (lua_type(L, 3) != LUA_TNUMBER)
        return -1;
    if (lua_isinteger(L, 3) && r->kind != 'f' && r->kind != 'd') {
        lua_Integer i = lua_tointeger(L, 3);
        if (i < (lua_Integer)r->lo || i > (lua_Integer)r->hi)
            return -1;
        *out = (uint64_t)i;
        return 0;
    }
    d = lua_tonumber(L, 3);
    if (d != d)
        return -1;
    if (r->kind == 'd') {
        memcpy(out, &d, 8);
        return 0;
    }
    if (r->kind == 'f') {
        float f;
        uint32_t b32;
        /* Outside f32's range the conversion is undefined in C; LuaJIT
         * would give an infinity, which is not exact either. */
        if (fabs(d) > FLT_MAX && !isinf(d))
            return -1;
        f = (float)d;
        if ((double)f != d)
            return -1;
        memcpy(&b32, &f, 4);
        *out = b32;
        return 0;
    }
    if (!(d >= r->lo && d <= r->hi) || d != floor(d))
        return -1;
    *out = (uint64_t)(int64_t)d;
    return 0;
}

static int l_newindex(lua_State *L)
{
    ubuf *u = self(L);
    size_t es = sel_dtype_size(u->r->dtype);
    long long i;
    uint64_t bits;
    char m[300], v[64], w[64];

    if (u->gen != generation)
        return bad_index(L, u, 2);
    if (lua_type(L, 2) == LUA_TSTRING) {
        snprintf(m, sizeof m, "%s: fields cannot be set", slot_name[u->slot]);
        return fail(L, m);
    }
    if (u->ro) {
        snprintf(m, sizeof m, "%s is read-only here: a fill writes only its "
                 "own input", slot_name[u->slot]);
        return fail(L, m);
    }
    if ((i = index_of(L, u, 2)) < 0)
        return bad_index(L, u, 2);
    if (value_of(L, u, &bits)) {
        snprintf(m, sizeof m, "%s[%s] = %s: want %s", slot_name[u->slot],
                 str(L, 2, v, sizeof v), str(L, 3, w, sizeof w), u->r->want);
        return fail(L, m);
    }
    h_store(u->p + (size_t)i * es, es, bits);
    return 0;
}

static int l_len(lua_State *L)
{
    ubuf *u = self(L);
    lua_pushinteger(L, (lua_Integer)(u->gen == generation ? u->n : 0));
    return 1;
}

static int l_tostring(lua_State *L)
{
    ubuf *u = self(L);
    char m[100];

    snprintf(m, sizeof m, "%s: %s[%zu]", slot_name[u->slot],
             sel_dtype_name(u->r->dtype), u->gen == generation ? u->n : 0);
    lua_pushstring(L, m);
    return 1;
}

void h_lua_buf_open(lua_State *L)
{
    static const luaL_Reg mm[] = {{"__index", l_index},
                                  {"__newindex", l_newindex},
                                  {"__len", l_len},
                                  {"__tostring", l_tostring},
                                  {NULL, NULL}};

    open_rand(L);
    luaL_newmetatable(L, MT);
    luaL_setfuncs(L, mm, 0);
    lua_pushliteral(L, "selcheck.buffer");
    lua_setfield(L, -2, "__metatable"); /* scripts cannot reach it */
    lua_pop(L, 1);
}

void h_lua_buf_push(lua_State *L, const h_fbuf *b, int slot, int writable)
{
    ubuf *u = lua_newuserdatauv(L, sizeof *u, 0);

    u->p = b->data;
    u->n = b->n;
    u->r = rule_of(b->dtype);
    u->gen = generation;
    u->slot = slot;
    u->ro = !writable;
    luaL_setmetatable(L, MT);
}

void h_lua_buf_close(lua_State *L)
{
    (void)L;
    generation++;
}
#endif

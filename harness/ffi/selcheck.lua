-- selcheck.lua - a LuaJIT FFI binding to the C ABI of spec/select.h.
-- Loads any implementation (sel.load) and runs infer/execute on tensors
-- built from Lua tables or FFI arrays; statuses come back as names.
-- Value conversion lives in selcheck_values.lua.
--
-- The cdef below mirrors spec/select.h by hand; `make check-ffi-layout`
-- compares every struct size, field offset/size/kind and constant with
-- what the C compiler sees (harness/ffi/ffi_layout.c), so it cannot drift
-- unnoticed.  Conventions (harness/ffi/README.md has the long form):
--   * an implementation's error status is returned as nil, "SEL_ERR_..."
--     (so assert(impl:infer(...)) reads well); misuse of the binding
--     itself (unknown dtype name, a value the dtype cannot hold) raises
--     error().
--   * values go in as Lua numbers for boolean, integer, f32 and f64 and for
--     the small floats when exactly representable; as hex strings
--     ("0x7e01") for raw bits of any dtype; or as bit patterns with
--     {bits = true}.  NaN is only accepted as bits: a Lua NaN has no
--     defined payload.
--   * values come out as numbers, except f16/bf16/f8 (bit patterns, as
--     numbers) and i64/u64 (int64_t/uint64_t cdata, exact).  t:hex() gives
--     the exact bits of any dtype.
local ffi = require "ffi"
local bit = require "bit"
local V = require "selcheck_values"
local DT, UINT = V.DT, V.UINT
local parse_hex, store, load = V.parse_hex, V.store, V.load
local small_decode, small_encode = V.small_decode, V.small_encode

local M = {}

M.cdef = [[
enum { SEL_ABI_VERSION = 1, SEL_MAX_RANK = 8 };
typedef enum sel_dtype {
    SEL_DT_BOOLEAN = 1,
    SEL_DT_F64 = 2,
    SEL_DT_F32 = 3,
    SEL_DT_F16 = 4,
    SEL_DT_BF16 = 5,
    SEL_DT_F8E4M3 = 6,
    SEL_DT_F8E5M2 = 7,
    SEL_DT_I64 = 8,
    SEL_DT_I32 = 9,
    SEL_DT_I16 = 10,
    SEL_DT_I8 = 11,
    SEL_DT_U64 = 12,
    SEL_DT_U32 = 13,
    SEL_DT_U16 = 14,
    SEL_DT_U8 = 15
} sel_dtype;
enum { SEL_DT_FIRST = 1, SEL_DT_LAST = 15 };
typedef enum sel_broadcast_type {
    SEL_BROADCAST_NONE = 0,
    SEL_BROADCAST_NUMPY = 1,
    SEL_BROADCAST_PDPD = 2
} sel_broadcast_type;
enum { SEL_COND_BIDIRECTIONAL = 0x1 };
typedef enum sel_status {
    SEL_OK = 0,
    SEL_ERR_SHAPE = 1,
    SEL_ERR_DTYPE = 2,
    SEL_ERR_ATTR = 3,
    SEL_ERR_UNSUPPORTED = 4,
    SEL_ERR_ARG = 5,
    SEL_ERR_NOMEM = 6
} sel_status;
typedef struct sel_tensor {
    int32_t dtype;
    int32_t rank;
    const int64_t *dims;
    void *data;
} sel_tensor;
typedef struct sel_broadcast {
    int32_t type;
    int32_t axis;
    uint32_t flags;
} sel_broadcast;
typedef struct sel_impl {
    uint32_t abi_version;
    const char *name;
    int (*supports)(int32_t dtype, int32_t broadcast_type);
    int (*infer)(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b,
                 int32_t *rank_out, int64_t *dims_out);
    int (*execute)(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b,
                   sel_tensor *dst);
} sel_impl;
typedef const sel_impl *(*sel_get_impl_fn)(void);
const sel_impl *sel_get_impl(void);
]]

ffi.cdef(M.cdef)

-- Every SEL_ constant of the cdef, read back through ffi.C, so the
-- module's values are the cdef's values (which the layout check verifies).
for name in M.cdef:gmatch("(SEL_[%u%d_]+)%s*=") do
    M[name] = tonumber(ffi.C[name])
end

local STATUS = {}
for k, v in pairs(M) do
    if type(v) == "number" and (k == "SEL_OK" or k:match("^SEL_ERR_")) then
        STATUS[v] = k
    end
end

-- "SEL_ERR_SHAPE" for 1; "SEL_ERR_?(42)" for a value outside the enum.
function M.status_name(s)
    return STATUS[s] or string.format("SEL_ERR_?(%d)", s)
end

local DT_BY_ID = {}
for name, d in pairs(DT) do
    d.id = M["SEL_DT_" .. name:upper()]
    DT_BY_ID[d.id] = d
end

-- dtype info for a name ("f32") or a raw number (99 is allowed: it gives
-- a tensor of element size 0, useful to poke at DT-UNKNOWN-1).
local function dtinfo(dtype)
    if type(dtype) == "string" then
        local d = DT[dtype]
        if not d then error("selcheck: unknown dtype '" .. dtype .. "'", 3) end
        return d
    elseif type(dtype) == "number" then
        return DT_BY_ID[dtype] or {id = dtype, size = 0, kind = "raw",
                                   name = tostring(dtype)}
    end
    error("selcheck: dtype must be a name or a number", 3)
end


------------------------------------------------------------------------
-- Tensors.

local Tensor = {}
Tensor.__index = Tensor

local function dim_value(v)
    if type(v) == "string" then
        local h = parse_hex(v)
        if not h then error("selcheck: dim '" .. v .. "' is not hex", 4) end
        return ffi.cast("int64_t", h)
    elseif type(v) == "number" and v == math.floor(v) then
        return v
    elseif type(v) == "cdata" then
        return v
    end
    error("selcheck: a dim must be an integer or a hex string", 4)
end

-- Flatten nested tables row-major, checking each level against dims.
local function flatten(data, dims, level, out)
    if type(data) ~= "table" then
        out[#out + 1] = data
        return
    end
    if level <= #dims and #data ~= dims[level] then
        error(string.format("selcheck: data has %d entries at level %d, "
              .. "dims say %s", #data, level, tostring(dims[level])), 4)
    end
    for k = 1, #data do flatten(data[k], dims, level + 1, out) end
end

local function nested_dims(data)
    local dims = {}
    while type(data) == "table" do
        dims[#dims + 1] = #data
        data = data[1]
    end
    return dims
end

-- Element count and bytes, or nil when the shape has a negative dim, a
-- count beyond int64_t, or more bytes than is sensible to allocate
-- (such tensors are shape-only: good for infer, data is NULL).
local LIMIT = 2 ^ 31
local function count_of(dims, size)
    local n = 1
    for k = 1, #dims do
        local v = tonumber(dims[k])
        if v < 0 then return nil end
        n = n * v
    end
    if n * math.max(size, 1) > LIMIT then return nil end
    return n
end

--- sel.tensor(dtype, dims, data, opts) -> tensor
-- dtype: "f32", ... or a raw number.  dims: {3, 2}, {} for rank 0, entries
-- may be hex strings; nil to take them from nested data.  data: nil
-- (zeros), a flat or nested Lua table, a string of raw bytes, or FFI
-- cdata (used in place, not copied: the tensor keeps a reference).
-- opts: bits = true (numbers are bit patterns), offset = n (data starts n
-- bytes past an aligned address; copies only).
function M.tensor(dtype, dims, data, opts)
    opts = opts or {}
    for k in pairs(opts) do
        if k ~= "bits" and k ~= "offset" then
            error("selcheck: unknown tensor option '" .. tostring(k) .. "'", 2)
        end
    end
    local d = dtinfo(dtype)
    if dims == nil then
        if type(data) ~= "table" then
            error("selcheck: dims may be omitted only with nested table data", 2)
        end
        dims = nested_dims(data)
    end
    local t = setmetatable({dtype = d.name, info = d, dims = {}}, Tensor)
    t.rank = #dims
    t.dims_c = ffi.new("int64_t[?]", math.max(#dims, 1))
    for k = 1, #dims do
        t.dims[k] = dim_value(dims[k])
        t.dims_c[k - 1] = t.dims[k]
    end
    t.count = count_of(t.dims, d.size)
    t.c = ffi.new("sel_tensor")
    t.c.dtype = d.id
    t.c.rank = #dims
    t.c.dims = t.dims_c

    if type(data) == "cdata" then
        local n = t.count and t.count * d.size
        if n and tostring(ffi.typeof(data)):match("%]>$") and ffi.sizeof(data) < n then
            error(string.format("selcheck: array has %d bytes, the tensor "
                  .. "needs %d", ffi.sizeof(data), n), 2)
        end
        t.owner = data
        t.ptr = ffi.cast("uint8_t *", data)
    elseif t.count and d.size > 0 then
        local nbytes = t.count * d.size
        local off = opts.offset or 0
        t.owner = ffi.new("uint8_t[?]", nbytes + off + 64)
        -- The allocation is 8-aligned at least; step to 64, then offset.
        local base = ffi.cast("uintptr_t", t.owner)
        local pad = tonumber((64 - base % 64) % 64)
        t.ptr = t.owner + pad + off
        if type(data) == "string" then
            if #data ~= nbytes then
                error(string.format("selcheck: %d bytes of data, the tensor "
                      .. "needs %d", #data, nbytes), 2)
            end
            ffi.copy(t.ptr, data, nbytes)
        elseif type(data) == "table" then
            local flat = {}
            if type(data[1]) == "table" then
                flatten(data, t.dims, 1, flat)
            else
                flat = data
            end
            if #flat ~= t.count then
                error(string.format("selcheck: %d values for %d elements",
                      #flat, t.count), 2)
            end
            for i = 1, #flat do store(d, t.ptr, i - 1, flat[i], opts.bits) end
        elseif data ~= nil then
            error("selcheck: data must be a table, a string or cdata", 2)
        end
    elseif data ~= nil then
        error("selcheck: this shape cannot hold data (negative dim, "
              .. "overflow, too large, or no element size)", 2)
    end
    t.c.data = t.ptr
    return t
end

--- Element i (1-based): a number, a bit pattern (small floats), or
-- int64_t/uint64_t cdata (i64/u64).
function Tensor:get(i)
    if not self.ptr or i < 1 or i > self.count then
        error("selcheck: index " .. tostring(i) .. " out of range", 2)
    end
    return load(self.info, self.ptr, i - 1)
end

--- Every element, row-major, as get() returns them.
function Tensor:totable()
    local out = {}
    for i = 1, self.count or 0 do out[i] = self:get(i) end
    return out
end

--- Every element's exact bits as a fixed-width hex string.
function Tensor:hex()
    local out, size = {}, self.info.size
    for i = 1, (self.ptr and self.count or 0) do
        local v = ffi.cast(UINT[size], self.ptr)[i - 1]
        if size == 8 then
            out[i] = string.format("0x%08x%08x",
                tonumber(bit.rshift(v, 32)), tonumber(bit.band(v, 0xffffffffULL)))
        else
            out[i] = string.format("0x%0" .. (2 * size) .. "x", tonumber(v))
        end
    end
    return out
end

--- The raw bytes of the data, as a Lua string.
function Tensor:bytes()
    if not self.ptr then return "" end
    return ffi.string(self.ptr, self.count * self.info.size)
end

function Tensor:shape_string()
    if self.rank == 0 then return "_" end
    local s = {}
    for k = 1, self.rank do s[k] = tostring(self.dims[k]):gsub("LL$", "") end
    return table.concat(s, "x")
end

function Tensor:__tostring()
    local vals = {}
    local kind = self.info.kind
    local shown = kind == "small" and self:hex() or self:totable()
    for i = 1, math.min(#shown, 16) do
        local v = shown[i]
        if type(v) == "number" and kind == "float" then
            vals[i] = string.format("%.17g", v)
        else
            vals[i] = (tostring(v):gsub("U?LL$", ""))
        end
    end
    if #shown > 16 then vals[#vals + 1] = "..." end
    return string.format("%s[%s]{%s}", self.dtype, self:shape_string(),
                         table.concat(vals, ", "))
end

--- A small float's bits as a number (sel.decode("f16", 0x3c00) == 1).
function M.decode(dtype, bits)
    local d = dtinfo(dtype)
    if d.kind ~= "small" then error("selcheck: decode is for f16/bf16/f8", 2) end
    return small_decode(d, bits)
end

--- A number as a small float's bits, or nil if not exactly representable.
function M.encode(dtype, x)
    local d = dtinfo(dtype)
    if d.kind ~= "small" then error("selcheck: encode is for f16/bf16/f8", 2) end
    return small_encode(d, x)
end

------------------------------------------------------------------------
-- Broadcast attributes: {mode = "numpy", axis = -1, bidirectional = true,
-- flags = n}; mode may be a raw number.  Defaults: numpy, -1, no flags.

local MODES = {none = M.SEL_BROADCAST_NONE, numpy = M.SEL_BROADCAST_NUMPY,
               pdpd = M.SEL_BROADCAST_PDPD}

function M.broadcast(o)
    if ffi.istype("sel_broadcast", o) then return o end
    o = o or {}
    for k in pairs(o) do
        if k ~= "mode" and k ~= "axis" and k ~= "bidirectional" and k ~= "flags" then
            error("selcheck: unknown broadcast option '" .. tostring(k) .. "'", 3)
        end
    end
    local b = ffi.new("sel_broadcast")
    local mode = o.mode == nil and "numpy" or o.mode
    b.type = type(mode) == "number" and mode or MODES[mode]
        or error("selcheck: unknown mode '" .. tostring(mode) .. "'", 3)
    b.axis = o.axis or -1
    local flags = o.flags or 0
    if o.bidirectional then flags = bit.bor(flags, M.SEL_COND_BIDIRECTIONAL) end
    b.flags = flags
    return b
end

------------------------------------------------------------------------
-- Implementations.

local Impl = {}
Impl.__index = Impl

--- sel.load(path) -> impl.  Raises an error when the library cannot be
-- loaded, lacks sel_get_impl, or reports another ABI version.
function M.load(path)
    local ok, lib = pcall(ffi.load, path)
    if not ok then error("selcheck: cannot load " .. path .. ": " .. tostring(lib), 2) end
    local ok2, get = pcall(function() return lib.sel_get_impl end)
    if not ok2 then error("selcheck: " .. path .. " has no sel_get_impl", 2) end
    local t = get()
    if t == nil then error("selcheck: " .. path .. ": sel_get_impl returned NULL", 2) end
    if t.abi_version ~= M.SEL_ABI_VERSION then
        error(string.format("selcheck: %s has ABI version %d, expected %d",
              path, t.abi_version, M.SEL_ABI_VERSION), 2)
    end
    -- lib is kept: a collected clib handle would unload the library.
    return setmetatable({lib = lib, table = t, path = path,
                         name = t.name ~= nil and ffi.string(t.name) or "?",
                         abi_version = t.abi_version}, Impl)
end

local function ct_of(t) -- nil -> NULL, for ARG-NULL poking
    if t == nil then return nil end
    if ffi.istype("sel_tensor", t) then return t end
    return t.c
end

--- impl:supports(dtype, mode) -> boolean.
function Impl:supports(dtype, mode)
    local b = M.broadcast({mode = mode})
    return self.table.supports(dtinfo(dtype).id, b.type) ~= 0
end

--- impl:infer(cond, x, y, opts) -> dims table, or nil, status name.
-- A dim beyond 2^53 comes back as int64_t cdata.
function Impl:infer(cond, x, y, opts)
    local rank = ffi.new("int32_t[1]", -1)
    local dims = ffi.new("int64_t[?]", M.SEL_MAX_RANK)
    local s = self.table.infer(ct_of(cond), ct_of(x), ct_of(y),
                               M.broadcast(opts), rank, dims)
    if s ~= M.SEL_OK then return nil, M.status_name(s) end
    if rank[0] < 0 or rank[0] > M.SEL_MAX_RANK then
        error(string.format("selcheck: %s: infer returned SEL_OK with rank %d",
              self.name, rank[0]), 2)
    end
    local out = {}
    for k = 1, rank[0] do
        local v = dims[k - 1]
        out[k] = (v >= -2 ^ 53 and v <= 2 ^ 53) and tonumber(v) or v
    end
    return out
end

--- impl:execute(cond, x, y, opts, dst) -> dst, or nil, status name.
-- Without dst, the shape comes from infer and the dtype from x; a dst
-- may be given to test in-place use (sel.tensor(dt, dims, x.ptr)).
function Impl:execute(cond, x, y, opts, dst)
    local b = M.broadcast(opts)
    if dst == nil then
        local dims, err = self:infer(cond, x, y, b)
        if not dims then return nil, err end
        if not x then error("selcheck: execute without dst needs x", 2) end
        dst = M.tensor(x.info.kind == "raw" and x.info.id or x.dtype, dims)
    end
    local s = self.table.execute(ct_of(cond), ct_of(x), ct_of(y), b,
                                 ct_of(dst))
    if s ~= M.SEL_OK then return nil, M.status_name(s) end
    return dst
end

function Impl:__tostring()
    return string.format("selcheck impl '%s' (%s)", self.name, self.path)
end

M.dtypes = DT
return M

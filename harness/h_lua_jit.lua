-- h_lua_jit.lua - the buffer objects of selcheck-jit: a struct per dtype
-- whose metatype reads and writes through a typed pointer, so the loops of
-- a fill or check function compile to plain loads and stores.
--
-- h_lua_buf.c embeds this file and runs it once per case script, before
-- the script, with the ffi module and the value rules of h_lua_buf.c (so
-- both front ends accept the same values and word their errors alike).
-- Scripts never see ffi.  A buffer holds its address as an integer, not a
-- pointer: without ffi.cast a script cannot turn it back into one, so it
-- reaches memory only through the bounds-checked metamethods.  Everything
-- is captured as locals here, before the script could change a global.
local ffi, rules = ...
local type, error, tostring, tonumber, ipairs = type, error, tostring,
  tonumber, ipairs
local floor, format = math.floor, string.format
local cast, istype, typeof = ffi.cast, ffi.istype, ffi.typeof
local LIM = 2 ^ 53 - 1
local NM = {[0] = "cond", "x", "y", "dst"}

-- The same layout, writable: close() reaches the const fields through it.
ffi.cdef [[
struct h_buf_mut { uint64_t _a; int32_t n, _live, _ro, _nm; };
]]
local MUT = typeof("struct h_buf_mut *")
local F32 = typeof("float")

-- A value in a message, as h_lua_buf.c prints it.
local function str(v)
  if type(v) == "number" then
    if v ~= v then return "nan" end
    return format("%.17g", v)
  elseif type(v) == "boolean" then
    return tostring(v)
  end
  return "<" .. type(v) .. ">"
end

local function where(b, i)
  return NM[b._nm] .. "[" .. str(i) .. "]"
end

-- The error paths; lvl counts from the helper up to the script's line.
local function bad_index(b, i, lvl)
  local nm = NM[b._nm]
  if b._live == 0 then
    error(nm .. ": used after its fill or check function returned", lvl)
  end
  error(format("%s: out of range: %s has %d elements, indexed from 0",
               where(b, i), nm, b.n), lvl)
end

local function bad_set(b, i, lvl)
  local nm = NM[b._nm]
  if b._live == 0 then
    error(nm .. ": used after its fill or check function returned", lvl)
  end
  if type(i) == "string" then
    error(nm .. ": fields cannot be set", lvl)
  end
  if b._ro ~= 0 then
    error(nm .. " is read-only here: a fill writes only its own input",
          lvl)
  end
  bad_index(b, i, lvl + 1)
end

local cts = {}

-- One struct type and metatype per dtype; kind, lo, hi are upvalues that
-- never change, so the compiler folds the branches on them.
local function make(r)
  local name, kind, lo, hi, want = r.name, r.kind, r.lo, r.hi, r.want
  local P = typeof(r.ctype .. " *")
  local U = typeof(r.utype .. " *")
  local hexfmt = "0x%0" .. (2 * r.size) .. "x"
  local wide, signed = kind == "w" or kind == "u", kind == "w"
  local CT

  local function hex(b, i)
    if not istype(CT, b) then
      error("hex: call it as buf:hex(i)", 2)
    end
    if type(i) == "number" and i >= 0 and i < b.n and i == floor(i) then
      return format(hexfmt, cast(U, b._a)[i])
    end
    bad_index(b, i, 3)
  end

  local function field(b, k, lvl)
    if k == "dtype" then return name end
    if k == "name" then return NM[b._nm] end
    if k == "hex" then return hex end
    error(format("%s has no field '%s' (fields: n, dtype, name; method: hex)",
                 NM[b._nm], k), lvl)
  end

  local mt = {}
  mt.__index = function(b, i)
    if type(i) == "number" and i >= 0 and i < b.n and i == floor(i) then
      if wide then
        local v = cast(P, b._a)[i]
        if v > LIM or (signed and v < -LIM) then
          error(where(b, i) .. ": beyond 2^53, not exact as a number "
                .. "(read it with :hex(i))", 2)
        end
        return tonumber(v)
      end
      return cast(P, b._a)[i]
    end
    if type(i) == "string" then
      local v = field(b, i, 3)
      return v
    end
    bad_index(b, i, 3)
  end

  mt.__newindex = function(b, i, v)
    if type(i) == "number" and i >= 0 and i < b.n and i == floor(i)
       and b._ro == 0 then
      if kind == "f" then
        -- Checked before the store: a refused value leaves the buffer as
        -- selcheck leaves it, and so the digest.
        if type(v) == "number" and tonumber(cast(F32, v)) == v then
          cast(P, b._a)[i] = v
          return
        end
      elseif kind == "d" then
        if type(v) == "number" and v == v then
          cast(P, b._a)[i] = v
          return
        end
      else
        if type(v) == "number" and v >= lo and v <= hi and v == floor(v) then
          cast(P, b._a)[i] = v
          return
        end
        if kind == "b" and type(v) == "boolean" then
          cast(P, b._a)[i] = v and 1 or 0
          return
        end
      end
      error(format("%s = %s: want %s", where(b, i), str(v), want), 2)
    end
    bad_set(b, i, 3)
  end

  mt.__len = function(b)
    return b.n
  end

  mt.__tostring = function(b)
    return format("%s: %s[%d]", NM[b._nm], name, b.n)
  end

  ffi.cdef(format("struct h_buf_%s { const uint64_t _a; "
                  .. "const int32_t n, _live, _ro, _nm; };", name))
  CT = ffi.metatype("struct h_buf_" .. name, mt)
  cts[name] = CT
end

for _, r in ipairs(rules) do
  make(r)
end

local live, nlive = {}, 0

-- A buffer of n elements of dtype name at the address lud (a light
-- userdata from C); slot: 0 cond, 1 x, 2 y, 3 dst; ro: 0 or 1.
local function new(lud, n, name, slot, ro)
  local b = cts[name](cast("uintptr_t", lud), n, 1, ro, slot)
  nlive = nlive + 1
  live[nlive] = b
  return b
end

local function close()
  for k = 1, nlive do
    local m = cast(MUT, live[k])
    m._a, m.n, m._live = 0, 0, 0
    live[k] = nil
  end
  nlive = 0
end

return new, close

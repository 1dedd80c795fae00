-- ffi_layout.lua - checks the LuaJIT cdef of harness/ffi/selcheck.lua against
-- the layout the C compiler sees (the output of harness/ffi/ffi_layout.c).
-- Usage: luajit harness/ffi/t/ffi_layout.lua LAYOUT_FILE [MODULE_DIR]
--
-- Compared: struct size and alignment; per field its offset, its size and
-- its kind (i32/u32/i64/u64/ptr); every constant, both ways (a SEL_ name
-- the module has and C lacks is a difference too).  LuaJIT has no type
-- reflection, so a field's size and kind are probed: fill the struct with
-- 0xff bytes, read the field (its sign and cdata type give the kind), then
-- clear it and count the bytes that became zero.  Exits 1 naming every
-- difference, 2 on a usage or input error.
local ffi = require "ffi"

local layout_file, module_dir = arg[1], arg[2]
if not layout_file then
    io.stderr:write("usage: luajit ffi_layout.lua LAYOUT_FILE [MODULE_DIR]\n")
    os.exit(2)
end
-- MODULE_DIR (the negative test's mutants) first, then harness/ffi/ for
-- selcheck_values.lua, which the mutants share.
local harness_dir = arg[0]:match("^(.*)/t/[^/]*$") or "harness"
module_dir = module_dir or harness_dir
package.path = module_dir .. "/?.lua;" .. harness_dir .. "/?.lua;"
    .. package.path
local sel = require "selcheck"

local diffs = {}
local function diff(fmt, ...)
    diffs[#diffs + 1] = string.format(fmt, ...)
end

-- Size and kind of field f of struct type ct, as LuaJIT lays it out.
local function probe(ct, f)
    local size = ffi.sizeof(ct)
    local s = ffi.new(ct)
    local bytes = ffi.cast("uint8_t *", s)
    ffi.fill(s, size, 0xff)
    local v = s[f]
    local kind
    if type(v) == "number" then
        kind = v < 0 and "i" or "u"
    elseif ffi.istype("int64_t", v) then
        kind = "i64"
    elseif ffi.istype("uint64_t", v) then
        kind = "u64"
    else
        kind = "ptr"
    end
    if kind == "ptr" then s[f] = nil else s[f] = 0 end
    local cleared = 0
    for i = 0, size - 1 do
        if bytes[i] == 0 then cleared = cleared + 1 end
    end
    if kind == "i" or kind == "u" then kind = kind .. (8 * cleared) end
    return cleared, kind
end

local nstruct, nfield, nconst = 0, 0, 0
local seen = {}
local fh, err = io.open(layout_file, "r")
if not fh then
    io.stderr:write("ffi_layout: " .. tostring(err) .. "\n")
    os.exit(2)
end
for line in fh:lines() do
    local w = {}
    for tok in line:gmatch("%S+") do w[#w + 1] = tok end
    if w[1] == "struct" and #w == 4 then
        nstruct = nstruct + 1
        local ok, size = pcall(ffi.sizeof, w[2])
        if not ok or not size then
            diff("struct %s: missing from the cdef", w[2])
        else
            if size ~= tonumber(w[3]) then
                diff("struct %s: size C %s, LuaJIT %d", w[2], w[3], size)
            end
            if ffi.alignof(w[2]) ~= tonumber(w[4]) then
                diff("struct %s: align C %s, LuaJIT %d", w[2], w[4],
                     ffi.alignof(w[2]))
            end
        end
    elseif w[1] == "field" and #w == 6 then
        nfield = nfield + 1
        local T, f = w[2], w[3]
        local ok, off = pcall(ffi.offsetof, T, f)
        if not ok or off == nil then
            diff("field %s.%s: missing from the cdef", T, f)
        else
            local size, kind = probe(T, f)
            if off ~= tonumber(w[4]) then
                diff("field %s.%s: offset C %s, LuaJIT %d", T, f, w[4], off)
            end
            if size ~= tonumber(w[5]) then
                diff("field %s.%s: size C %s, LuaJIT %d", T, f, w[5], size)
            end
            if kind ~= w[6] then
                diff("field %s.%s: kind C %s, LuaJIT %s", T, f, w[6], kind)
            end
        end
    elseif w[1] == "const" and #w == 3 then
        nconst = nconst + 1
        seen[w[2]] = true
        local v = sel[w[2]]
        if v == nil then
            diff("const %s: missing from the module", w[2])
        elseif v ~= tonumber(w[3]) then
            diff("const %s: C %s, LuaJIT %s", w[2], w[3], tostring(v))
        end
    else
        io.stderr:write("ffi_layout: bad line: " .. line .. "\n")
        os.exit(2)
    end
end
fh:close()

for k, v in pairs(sel) do
    if type(k) == "string" and k:match("^SEL_") and not seen[k] then
        diff("const %s: in the module (= %s) but not in spec/select.h", k,
             tostring(v))
    end
end

if nstruct == 0 or nfield == 0 or nconst == 0 then
    io.stderr:write("ffi_layout: the layout file lists nothing\n")
    os.exit(2)
end
table.sort(diffs)
for _, d in ipairs(diffs) do io.stdout:write("ffi_layout: " .. d .. "\n") end
if #diffs > 0 then
    io.stdout:write(string.format("ffi_layout: %d difference(s) between "
        .. "spec/select.h and the cdef\n", #diffs))
    os.exit(1)
end
io.stdout:write(string.format("ffi_layout: %d structs, %d fields, %d "
    .. "constants agree\n", nstruct, nfield, nconst))

-- explore.lua - pokes at Select implementations through the LuaJIT FFI
-- binding (harness/ffi/selcheck.lua): the spec's 3x2 example on the reference
-- and the optimized backend, then one invalid broadcast, read as a name.
--
-- Run from the repo root: luajit examples/explore.lua [O] [--all]
-- (O is the build directory, default "build").  Exits 1 if a result is
-- wrong; a backend that is not built is skipped with a message, or is an
-- error with --all (what `make check-ffi-example` uses).
package.path = "harness/ffi/?.lua;" .. package.path
local sel = require "selcheck"

local O, need_all = "build", false
for _, a in ipairs(arg) do
    if a == "--all" then need_all = true else O = a end
end
local bad = 0

local function check(what, got, want)
    if got == want then
        print(string.format("  %-36s %s", what, tostring(got)))
    else
        print(string.format("  %-36s %s   WRONG, expected %s", what,
                            tostring(got), tostring(want)))
        bad = bad + 1
    end
end

local function try(path)
    local f = io.open(path, "rb")
    if not f then
        print(path .. ": not built, skipped")
        if need_all then bad = bad + 1 end
        return
    end
    f:close()
    local impl = sel.load(path)
    print(string.format("%s: '%s', ABI %d", path, impl.name, impl.abi_version))

    -- The spec's example: dst = cond ? then : else, all 3x2.
    local cond = sel.tensor("boolean", nil, {{0, 0}, {1, 0}, {1, 1}})
    local x = sel.tensor("f32", nil, {{-1, 0}, {1, 2}, {3, 4}})
    local y = sel.tensor("f32", nil, {{11, 10}, {9, 8}, {7, 6}})
    local dst, err = impl:execute(cond, x, y, {mode = "numpy"})
    check("execute(3x2 example)", dst and tostring(dst) or err,
          "f32[3x2]{11, 10, 1, 8, 3, 4}")

    -- Broadcast: a 3x1 cond column, a 1x2 then row, an else scalar.  Cond
    -- broadcasts one way to then/else's 1x2 by default, which fails; with
    -- SEL_COND_BIDIRECTIONAL it takes part in the broadcast: 3x2.
    local col = sel.tensor("boolean", {3, 1}, {1, 0, 1})
    local row = sel.tensor("f32", {1, 2}, {1.5, -2})
    local zero = sel.tensor("f32", {}, {-0.0})
    local _, oneway = impl:infer(col, row, zero, {mode = "numpy"})
    check("infer(3x1, 1x2, _) one-way", oneway, "SEL_ERR_SHAPE")
    local bi = {mode = "numpy", bidirectional = true}
    local dims = impl:infer(col, row, zero, bi)
    check("infer(3x1, 1x2, _) bidirectional", dims and table.concat(dims, "x"),
          "3x2")
    local b = impl:execute(col, row, zero, bi)
    check("execute(3x1, 1x2, _) bits", b and table.concat(b:hex(), " "),
          "0x3fc00000 0xc0000000 0x80000000 0x80000000 0x3fc00000 0xc0000000")

    -- An invalid broadcast: 3x2 against 4x2 does not broadcast.
    local bad_y = sel.tensor("f32", {4, 2})
    local none, status = impl:infer(cond, x, bad_y, {mode = "numpy"})
    check("infer(3x2, 3x2, 4x2)", none == nil and status, "SEL_ERR_SHAPE")
end

try(O .. "/libselect_ref.so")
try(O .. "/libselect_opt.so")
if bad > 0 then
    print(string.format("explore: %d problem(s): a wrong result or a missing library", bad))
    os.exit(1)
end
print("explore: all results as expected")

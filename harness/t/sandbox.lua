-- sandbox.lua - what a case script must not reach (run.sh): no io, os,
-- package, debug, coroutine (in both front ends), require, dofile,
-- loadfile, binary chunks, or the PRNG.
-- Any leak raises an error, which fails the run.
for _, name in ipairs({"io", "os", "package", "debug", "require", "dofile",
                       "loadfile", "loadstring", "collectgarbage",
                       "coroutine"}) do
  assert(_G[name] == nil, name .. " is reachable")
end
assert(math.random == nil and math.randomseed == nil, "math.random")
assert(string.dump == nil, "string.dump")
local f, err = load("\27Lua")
assert(f == nil and err:find("binary"), "binary chunk loaded")
assert(load("return 1 + 1")() == 2, "text load")
print("sandbox.lua: print goes to stderr")
case{ id = "sandboxed", rules = {"OP-SELECT-1"}, shapes = "2:2:2",
      dtypes = {"f32"} }

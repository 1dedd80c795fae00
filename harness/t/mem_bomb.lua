-- mem_bomb.lua - a script that asks for more memory than its limit of
-- 256 MiB: one string of 384 MiB (refused inside pcall), then three of
-- 96 MiB, which fail outside it
local ok = pcall(string.rep, "x", 3 * 2 ^ 27)
assert(not ok, "a 384 MiB string was allowed")
local a = string.rep("y", 3 * 2 ^ 25)
local b = a .. "b"
local c = a .. "c"
case{ id = "never", rules = {"OP-SELECT-1"}, shapes = "2:2:2", dtypes = {"f32"} }

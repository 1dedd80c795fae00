-- stall.lua - about 0.3 s of CPU at top level and in a fill function
-- (mostly string.find in C: the same cost in both front ends; the Lua
-- loop runs the instruction hook about ten times).  stall.sh stops
-- selcheck (SIGSTOP) for longer than its 6 s limit inside one of them;
-- the limit counts CPU time, so every test passes.
local s = string.rep("a", 3000)
local function work(n)
  local k = 0
  for _ = 1, n do
    if string.find(s, "a*b") then k = k + 1 end
    for j = 1, 200000 do k = k + j % 3 end
  end
  return k
end
work(12)
case{ id = "quick", rules = {"OP-SELECT-1"}, shapes = "4:4:4",
      dtypes = {"f32"} }
case{ id = "busy_fill", rules = {"OP-SELECT-1"}, shapes = "4:4:4",
      dtypes = {"f32"}, fill = {x = function(x) work(12) x[0] = 1 end} }

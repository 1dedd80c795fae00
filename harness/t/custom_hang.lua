-- custom_hang.lua - a fill function that never returns (custom.sh, with
-- --timeout 1, so 6 s): selcheck stops it with a failing line and goes
-- on; in selcheck-jit the loop runs compiled, where no hook is looked at,
-- and the run bails out naming the function.
case{ id = "spin", rules = {"OP-SELECT-1"}, shapes = "4:4:4",
  dtypes = {"f32"},
  fill = { x = function() local n = 0 while true do n = n + 1 end end } }
case{ id = "after", rules = {"OP-SELECT-1"}, shapes = "4:4:4",
  dtypes = {"f32"} }

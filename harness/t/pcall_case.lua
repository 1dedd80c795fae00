-- pcall_case.lua - a case{} that raises an error while being read, inside
-- pcall: the half-read case is dropped, the script goes on.
local bad = setmetatable({ id = "half_read", rules = {"OP-SELECT-1"} },
  { __index = function(_, k)
      if k == "shapes" then error("no shapes today") end
    end })
local ok, err = pcall(case, bad)
assert(not ok and tostring(err):find("no shapes today"), "the error reaches the script")
case{ id = "after", rules = {"OP-SELECT-1"}, shapes = "2:2:2", dtypes = {"f32"} }

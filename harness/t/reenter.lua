-- reenter.lua - case{} called from a metamethod of the table case{} is
-- reading: refused (it would grow the suite under the reader, run.sh)
case{ id = "before", rules = {"OP-SELECT-1"}, shapes = "2:2:2", dtypes = {"f32"} }
local t = setmetatable({ id = "outer", rules = {"OP-SELECT-1"}, shapes = "2:2:2" },
  { __index = function(_, k)
      for i = 1, 300 do
        case{ id = "inner" .. i, rules = {"OP-SELECT-1"}, shapes = "2:2:2" }
      end
      return nil
    end })
case(t)

-- find_fill.lua - the same backtracking match inside a fill function
case{ id = "find_in_fill", rules = {"OP-SELECT-1"}, shapes = "4:4:4", dtypes = {"f32"},
      fill = {x = function(x, t)
        local s = string.rep("a", 60)
        string.find(s, string.rep("a*", 60) .. "b")
      end} }

-- find_hang.lua - a pattern match that backtracks for hours, at top level:
-- one C call, which an instruction hook never interrupts
local s = string.rep("a", 60)
string.find(s, string.rep("a*", 60) .. "b")

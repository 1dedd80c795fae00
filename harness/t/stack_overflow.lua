-- stack_overflow.lua - unbounded recursion: both front ends must report
-- "file:line: stack overflow" (LuaJIT's own message has no place)
local function down(n) return down(n + 1) + 1 end
down(1)

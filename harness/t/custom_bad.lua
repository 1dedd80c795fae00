-- custom_bad.lua - fill and check functions used wrongly (custom.sh): each
-- case is one failing line whose message names the file, the line and
-- the problem, the same under both front ends.
local function c(id, t)
  t.id, t.rules, t.shapes = id, {"OP-SELECT-1"}, t.shapes or "4:4:4"
  t.dtypes = t.dtypes or {"f32"}
  case(t)
end
c("oob", { fill = { x = function(b) b[4] = 1 end } })
c("readonly", { fill = { x = function(b, t) t.y[0] = 1 end } })
c("inexact", { fill = { x = function(b) b[1] = 0.1 end } })
c("nan", { fill = { x = function(b) b[1] = 0 / 0 end } })
c("bits", { dtypes = {"f16"}, fill = { y = function(b) b[1] = 70000 end } })
c("notnum", { dtypes = {"i8"}, fill = { y = function(b) b[0] = "1" end } })
c("nonzero", { fill = { cond = function(b) b[1] = 2 end } })
local kept
c("stale", { fill = { x = function(b) kept = b end,
                      y = function() kept[0] = 1 end } })
c("false", { check = function() return false, "the property fails" end })
c("nil", { check = function() end })
c("field", { check = function(out) return out.foo end })
c("wide", { dtypes = {"i64"}, check = function(out, t) return t.x[0] end })
c("nested", { check = function() case{ id = "inner" } return true end })
c("rand", { fill = { x = function(b, t) t.rand(3, 1) end } })
c("raise", { fill = { x = function() error("from the fill") end } })
c("notable", { fill = function() end })
c("nofn", { fill = { x = 1 } })
c("noinput", { fill = {} })
c("badkey", { fill = { z = function() end } })
c("checktype", { check = true })

-- fill_bench.lua - the fills `make bench-fill` times (t/fill_bench.c): a
-- value ramp into f32 then data and a causal mask into a boolean cond,
-- 8M elements each, as a case script writes them.
local N = 2048
case{ id = "ramp_f32", rules = {"OP-SELECT-1"},
  shapes = string.format("1:%dx4096:_", N), dtypes = {"f32"},
  fill = { x = function(b)
    for i = 0, b.n - 1 do b[i] = i % 4096 - 2048 end
  end } }
case{ id = "causal_cond", rules = {"OP-SELECT-1"},
  shapes = string.format("%dx4096:1:_", N), dtypes = {"f16"},
  fill = { cond = function(b, t)
    local S = t.dims[2]
    for i = 0, t.dims[1] - 1 do
      for j = 0, S - 1 do b[i * S + j] = j <= i end
    end
  end } }

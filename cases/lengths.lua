-- lengths.lua - every pattern class at every length where kernels change
-- path (IO-LENGTH-1): a scalar head or tail, a vector body, an unrolled
-- body, a parallel grain, a per-thread chunk.
--
-- Sweeps.  For every dtype, then holds its bit patterns in order (every
-- pattern of 8- and 16-bit types, a dense sample of wider ones) and else
-- a NaN with a distinct payload per element, quiet and signalling
-- (integers: all-ones patterns), under a random cond, at each length
-- 1..67, at m-1, m, m+1 for the first three multiples m of every vector
-- width of 16, 32, 64, 128 and 256 bytes in that dtype's elements, and
-- just above the parallel grains of 32 Ki and 64 Ki elements (the first
-- also with the branches swapped).  That reaches every tail length of every
-- vector width up to 64 bytes unrolled 4 times, in every dtype (edges.lua
-- rotates one width per size).  values.lua runs each pattern class at one
-- length only, a multiple of every width, so it has no tail at all.
--
-- The large outputs of odd sizes just above 4 MiB are in large.lua (the
-- sanitizer runs skip that file).

local ALL = {"boolean", "f64", "f32", "f16", "bf16", "f8e4m3", "f8e5m2",
             "i64", "i32", "i16", "i8", "u64", "u32", "u16", "u8"}
local SIZE = {boolean = 1, f64 = 8, f32 = 4, f16 = 2, bf16 = 2, f8e4m3 = 1,
              f8e5m2 = 1, i64 = 8, i32 = 4, i16 = 2, i8 = 1, u64 = 8,
              u32 = 4, u16 = 2, u8 = 1}

-- The lengths for one element size, in increasing order, each once.
local function lengths(es)
  local seen, out = {}, {}
  for n = 1, 67 do seen[n] = true end
  for _, w in ipairs({16, 32, 64, 128, 256}) do
    for k = 1, 3 do
      local m = k * w / es
      for d = -1, 1 do seen[m + d] = true end
    end
  end
  for n = 1, 3 * 256 + 1 do
    if seen[n] then out[#out + 1] = n end
  end
  return out
end

local function sweep(id, dt, n, x, y, rules)
  case{ id = id, rules = rules, dtypes = {dt}, shapes = n .. ":" .. n .. ":" .. n,
        cond = "random", values = {x = x, y = y}, expect = {n} }
end

for _, dt in ipairs(ALL) do
  local es = SIZE[dt]
  for _, n in ipairs(lengths(es)) do
    sweep("sweep_" .. dt .. "_n" .. n, dt, n, "patterns", "nan",
          {"IO-LENGTH-1", "BITS-1"})
  end
  -- above the grains; the 8- and 16-bit patterns are all there by then
  for _, n in ipairs({32769, 65537}) do
    local rules = {"IO-LENGTH-1", "BITS-1"}
    if es == 1 or (es == 2 and n > 65536) then rules[3] = "BITS-2" end
    sweep("grain_" .. dt .. "_n" .. n .. "_then", dt, n, "patterns", "nan", rules)
    if n == 32769 then
      sweep("grain_" .. dt .. "_n" .. n .. "_else", dt, n, "nan", "patterns", rules)
    end
  end
end

-- broadcast_pdpd.lua - auto_broadcast = pdpd (OpenVINO only): else merges
-- one way into then, then cond into the result, each placed at `axis`
-- (-1: right-aligned, computed per merge); expected shapes by construction.
--
-- Model.  A (then, or the result) has rank rA <= 4 and dims 2,3,4,5; B
-- (else, or cond) has rank rB <= rA and sits at a placement p, so B's dim
-- i meets A's dim p+i; each B dim is A's or 1.  The other of else/cond is
-- A under axis -1, and A's slice at p under an explicit axis (which places
-- both).  Enumerated, for B = else and for B = cond: every rA, rB, placement
-- as axis -1 and as every explicit axis, and every subset of B's dims set
-- to 1.  That is every valid pdpd merge up to the dim sizes.  Then cond and
-- else of different ranks (their axes differ under -1: BC-PDPD-5, the case
-- OpenVINO's kernel gets wrong) for every pair of ranks, with dims all
-- equal so that a misplaced cond still fits and only the data shows it.
-- Invalid, on every position: A has 1 where B has a dim (B may not widen
-- A); a B dim that differs; rank(B) > rank(A); explicit axes past the end;
-- axis < -1.  Trailing 1s of B are not trimmed (BC-PDPD-4, as OpenVINO's
-- shape inference), so they can push B past A's end.  Zeros: 1 in A
-- yields to 0 in B, 1 in B against 0 in A is invalid (B may not exceed A),
-- 0 against n >= 2 is invalid (BC-NUMPY-4, BC-PDPD-1).

local DT = {"f32", "u8", "f16", "i64", "bf16", "i32", "u16", "f64"}
local BASE = {2, 3, 4, 5}
local n = 0

local function dtype()
  n = n + 1
  return {DT[n % #DT + 1]}
end

local function prefix(d, r)
  local out = {}
  for i = 1, r do out[i] = d[i] end
  return out
end

local function pdpd(id, rules, sh, axis, expect)
  case{ id = id, rules = rules, mode = "pdpd", axis = axis, shapes = sh,
        dtypes = dtype(), expect = expect }
end

local function bits(mask, r)
  local s = ""
  for i = 1, r do
    s = s .. (math.floor(mask / 2 ^ (i - 1)) % 2 == 1 and "1" or "0")
  end
  return s
end

-- Every valid placement of B in A, with every subset of B's dims 1.
for _, role in ipairs({"else", "cond"}) do
  for rA = 0, 4 do
    local A = prefix(BASE, rA)
    for rB = 0, rA do
      for p = -1, rA - rB do
        local at = p == -1 and rA - rB or p
        local nmask = 1
        for _ = 1, rB do nmask = nmask * 2 end
        for mask = 0, nmask - 1 do
          local ones = bits(mask, rB)
          local B = {}
          for i = 1, rB do
            B[i] = ones:sub(i, i) == "1" and 1 or A[at + i]
          end
          -- the other of cond/else: A under axis -1; under an explicit
          -- axis it is placed there too, so it gets B's placement, full
          local other = A
          if p ~= -1 then
            other = {}
            for i = 1, rB do other[i] = A[at + i] end
          end
          local sh = {cond = other, x = A, y = other}
          sh[role == "else" and "y" or "cond"] = B
          local rules = {"BC-PDPD-1", p == -1 and "BC-PDPD-2" or "BC-PDPD-3"}
          if role == "cond" then rules[#rules + 1] = "BC-PDPD-5" end
          if rA == 0 then rules[#rules + 1] = "SHAPE-RANK0-1" end
          pdpd(role .. "_a" .. rA .. "_b" .. rB .. "_at" ..
               (p == -1 and "auto" or p) .. (rB > 0 and "_ones" .. ones or ""),
               rules, sh, p, A)
        end
      end
    end
  end
end

-- cond and else of different ranks: under axis -1 each is right-aligned by
-- its own rank; with an explicit axis both start there.
for rA = 1, 4 do
  local A = {}
  for i = 1, rA do A[i] = 3 end
  for rE = 0, rA do
    for rC = 0, rA do
      if rE ~= rC then
        pdpd("cond_vs_else_a" .. rA .. "_else" .. rE .. "_cond" .. rC .. "_auto",
             {"BC-PDPD-2", "BC-PDPD-5", "BC-PDPD-1"},
             {cond = prefix(A, rC), x = A, y = prefix(A, rE)}, -1, A)
        local top = rA - math.max(rE, rC)
        if rA == 4 then top = -1 end   -- explicit axes: rA <= 3 suffices
        for p = 0, top do
          pdpd("cond_vs_else_a" .. rA .. "_else" .. rE .. "_cond" .. rC .. "_at" .. p,
               {"BC-PDPD-3", "BC-PDPD-5", "BC-PDPD-1"},
               {cond = prefix(A, rC), x = A, y = prefix(A, rE)}, p, A)
        end
      end
    end
  end
end
-- The same with distinct dims, so a misplaced cond is a shape error.
pdpd("cond_vs_else_distinct_auto", {"BC-PDPD-2", "BC-PDPD-5"},
     "5:2x3x4x5:3x4x5", -1, {2, 3, 4, 5})
pdpd("else_vs_cond_distinct_auto", {"BC-PDPD-2", "BC-PDPD-5"},
     "4x5:2x3x4x5:5", -1, {2, 3, 4, 5})
pdpd("cond_vs_else_distinct_at1", {"BC-PDPD-3", "BC-PDPD-5"},
     "3:2x3x4x5:3x4", 1, {2, 3, 4, 5})

-- Invalid: B widens A (A has 1 where B has a dim), on every position.
local BAD = {status = "SEL_ERR_SHAPE"}
for rA = 1, 3 do
  for pos = 1, rA do
    local A = prefix(BASE, rA)
    A[pos] = 1
    local full = prefix(BASE, rA)
    pdpd("else_widens_then_a" .. rA .. "_pos" .. pos, {"BC-PDPD-1"},
         {cond = A, x = A, y = full}, -1, BAD)
    pdpd("cond_widens_result_a" .. rA .. "_pos" .. pos, {"BC-PDPD-5"},
         {cond = full, x = A, y = A}, -1, BAD)
    local differ = prefix(BASE, rA)
    differ[pos] = differ[pos] + 1
    pdpd("else_dim_differs_a" .. rA .. "_pos" .. pos, {"BC-PDPD-1"},
         {cond = full, x = full, y = differ}, -1, BAD)
    pdpd("cond_dim_differs_a" .. rA .. "_pos" .. pos, {"BC-PDPD-5"},
         {cond = differ, x = full, y = full}, -1, BAD)
  end
end

-- Invalid: rank(B) > rank(A), which numpy would accept.
pdpd("else_rank_above_then", {"BC-PDPD-6"}, "3x4:3x4:2x3x4", -1, BAD)
pdpd("cond_rank_above_result", {"BC-PDPD-6", "BC-PDPD-5"}, "2x3x4:3x4:3x4", -1, BAD)
pdpd("else_rank_above_then_ones", {"BC-PDPD-6"}, "3x4:3x4:1x3x4", -1, BAD)
pdpd("else_rank1_above_scalar_then", {"BC-PDPD-6", "SHAPE-RANK0-1"}, "_:_:1", -1, BAD)
pdpd("else_rank_above_then_at0", {"BC-PDPD-6"}, "3x4:3x4:2x3x4", 0, BAD)

-- Invalid: explicit axis past the end; axis < -1 is an attribute error.
pdpd("axis_past_end_by_1", {"BC-PDPD-3"}, "4:2x3x4:3x4", 2, BAD)
pdpd("axis_equals_rank", {"BC-PDPD-3"}, "_:2x3x4:4", 3, BAD)
pdpd("axis_equals_rank_scalar_ok", {"BC-PDPD-3", "SHAPE-RANK0-1"}, "_:2x3x4:_", 3, {2, 3, 4})
pdpd("axis_8", {"BC-PDPD-3"}, "_:2x3:3", 8, BAD)
pdpd("axis_large", {"BC-PDPD-3"}, "_:2x3:3", 2147483647, BAD)
pdpd("axis_cond_past_end", {"BC-PDPD-3", "BC-PDPD-5"}, "3x4:2x3x4:4", 2, BAD)
for _, ax in ipairs({-2, -3, -100, -2147483647}) do
  pdpd("axis_below_minus1_" .. (-ax), {"BC-PDPD-3", "ARG-ATTR-1"},
       "2x3:2x3:3", ax, {status = "SEL_ERR_ATTR"})
end

-- Trailing 1s are kept (BC-PDPD-4): harmless where B still fits, invalid
-- where they reach past A's end; PaddlePaddle itself would trim them.
pdpd("trailing_one_fits", {"BC-PDPD-4"}, "3x4:2x3x4:3x1", 1, {2, 3, 4})
pdpd("trailing_one_auto", {"BC-PDPD-4", "BC-PDPD-2"}, "2x3x4:2x3x4:3x1", -1, {2, 3, 4})
pdpd("trailing_one_past_end", {"BC-PDPD-4"}, "3:2x3:3x1", 1, BAD)
pdpd("trailing_ones_past_end", {"BC-PDPD-4"}, "3:2x3:1x1", 1, BAD)
pdpd("trailing_one_cond_past_end", {"BC-PDPD-4", "BC-PDPD-5"}, "3x1:2x3:3", 1, BAD)
pdpd("trailing_one_auto_mismatch", {"BC-PDPD-4", "BC-PDPD-2"}, "2x3x4:2x3x4:4x1", -1, BAD)

-- Zero-size dims, one way as OpenVINO's PartialShape::broadcast_merge_into
-- (BC-PDPD-1, D7): a B dim above the A dim fails before merging, so B 1
-- against A 0 is invalid, while B 0 against A 1 makes A 0; cond merges
-- after else, into the result so far, so a cond 1 then meets that 0.
pdpd("zero_then_one_else", {"BC-NUMPY-4", "BC-PDPD-1"}, "0x3:0x3:1x3", -1, BAD)
pdpd("zero_then_one_else_rank1", {"BC-NUMPY-4", "BC-PDPD-1"}, "_:2x0:1", -1, BAD)
pdpd("zero_then_one_else_at0", {"BC-NUMPY-4", "BC-PDPD-3"}, "_:0x3:1", 0, BAD)
pdpd("zero_then_zero_else", {"BC-NUMPY-4", "BC-PDPD-1"}, "0x3:0x3:0x3", -1, {0, 3})
pdpd("zero_else_one_then", {"BC-NUMPY-4", "BC-PDPD-5"}, "1x3:1x3:0x3", -1, BAD)
pdpd("zero_else_one_then_cond_row", {"BC-NUMPY-4", "BC-PDPD-1"}, "3:1x3:0x3", -1, {0, 3})
pdpd("zero_else_one_then_cond_zero", {"BC-NUMPY-4", "BC-PDPD-1"}, "0x3:1x3:0x3", -1, {0, 3})
pdpd("zero_else_one_then_cond_scalar", {"BC-NUMPY-4", "BC-PDPD-1"}, "_:1x3:0x3", -1, {0, 3})
pdpd("one_cond_zero_then", {"BC-NUMPY-4", "BC-PDPD-5"}, "1:2x0:2x0", -1, BAD)
pdpd("zero_cond_one_result", {"BC-NUMPY-4", "BC-PDPD-5"}, "0:2x1:2x1", -1, {2, 0})
pdpd("zero_else_vs_3", {"BC-NUMPY-4", "BC-PDPD-1"}, "2x3:2x3:0", -1, BAD)
pdpd("zero_then_vs_3", {"BC-NUMPY-4", "BC-PDPD-1"}, "0x3:0x3:3x3", -1, BAD)
pdpd("zero_cond_vs_3", {"BC-NUMPY-4", "BC-PDPD-5"}, "2x0:2x3:3", -1, BAD)

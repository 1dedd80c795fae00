-- hostile.lua - cases for harness/t/hostile.sh's late writer: forty tests
-- of one layout, so a thread writing an earlier test's dst late writes
-- pages of the same role (frozen, or the same dst being executed).
for i = 1, 40 do
    case{ id = "same_" .. i, rules = {"OP-SELECT-1"}, shapes = "4x8:4x8:4x8",
          dtypes = {"f32"} }
end

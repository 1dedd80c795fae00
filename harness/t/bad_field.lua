-- bad_field.lua - a case with an unknown field ("shape" for "shapes") on
-- line 5, between two good cases: the bad one is a failing TAP line naming
-- file, line and field; the others still run (run.sh).
case{ id = "before", rules = {"OP-SELECT-1"}, shapes = "2:2:2", dtypes = {"f32"} }
case{ id = "typo", rules = {"OP-SELECT-1"}, shape = "2:2:2", dtypes = {"f32"} }
case{ id = "after", rules = {"OP-SELECT-1"}, shapes = "3:3:3", dtypes = {"f32"} }

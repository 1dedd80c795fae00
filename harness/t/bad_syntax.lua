-- bad_syntax.lua - a script with a syntax error on line 5: selcheck must
-- report it as a failing TAP line naming the file and line, and go on with
-- the other files (run.sh).
case{ id = "fine", rules = {"OP-SELECT-1"}, shapes = "2:2:2" }
case{ id = "broken", rules = {"OP-SELECT-1"} shapes = "2:2:2" }

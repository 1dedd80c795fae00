-- bad_input.lua - input selcheck itself must refuse with a clear message
-- naming file and line, without crashing (run.sh, also under the
-- sanitizers): one bad request per line, from line 5 on.
case{ id = "huge", rules = {"SHAPE-OVF-1"}, shapes = "4611686018427387904:4611686018427387904:4611686018427387904", dtypes = {"u8"} }
case{ id = "negative", rules = {"SHAPE-NEG-1"}, shapes = {cond = {2}, x = {-2}, y = {2}} }
case{ id = "rank5000", rules = {"SHAPE-RANK-1"}, shapes = {cond = {2}, x = {rank = 5000, fill = 1}, y = {2}} }
case("not a table")
case{ id = "dtype", rules = {"OP-SELECT-1"}, shapes = "2:2:2", dtypes = {"f17"} }
case{ id = "rule", rules = {"NO-SUCH-RULE"}, shapes = "2:2:2" }
case{ id = "inexact", rules = {"OP-SELECT-1"}, shapes = "2:2:2", dtypes = {"f16"}, values = {0.1, 1} }
case{ id = "bytes", rules = {"OP-SELECT-1"}, shapes = "2:2:2", cond = {0, 2} }
case{ id = "Bad-Id", rules = {"OP-SELECT-1"}, shapes = "2:2:2" }
case{ id = "dup", rules = {"OP-SELECT-1"}, shapes = "2:2:2" }
case{ id = "dup", rules = {"OP-SELECT-1"}, shapes = "2:2:2" }
case{ id = "count", rules = {"OP-SELECT-1"}, shapes = "2:2:2", values = {x = {1, 2, 3}} }

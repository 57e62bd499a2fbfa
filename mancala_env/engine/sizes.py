"""The sizes the state vector is laid out with: the largest board, action space and number of
special pieces any rule set has (`engine.layout` exports them with the offsets)."""

MAX_HOUSES = 6
MAX_PITS = 2 * MAX_HOUSES
MAX_ACTIONS = 96  # lifts, then the special moves (the largest action space of any rule set)
MAX_PIECES = 12  # 10 Mighty Men's special pieces, one slot each (see `engine.pieces`)
MOVE_SLOTS = 12  # a move of pieces under way (`layout.MOVE_*`)
SETTING_OUT_SLOTS = 8  # scratch for a variant's setting out

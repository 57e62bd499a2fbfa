"""The rule set's own kernels: derived from the one rule source, named by what they are made of.

That they play exactly as the shared kernels do is the batch's differential test
(`test_batch.py`: every rule set's batch, which runs them, against single games).
"""

import ast
import inspect
import itertools
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from mancala_env import Game
from mancala_env.agents import mcts
from mancala_env.engine import layout as L
from mancala_env.engine import turn
from mancala_env.engine.compiler import ENGINE, ConventionError, specialised
from mancala_env.engine.compiler.cache import derived_name
from mancala_env.engine.compiler.derive import derive
from mancala_env.engine.compiler.fold import Fold
from mancala_env.kernels import HOT_MODULES
from mancala_env.variants import get_variant

# the derived kernels are the subject
pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("own_kernels")]


def derived_source(name: str, **options) -> str:
    values = tuple(int(v) for v in Game(name, **options).params)
    sources = [inspect.getsource(sys.modules[module]) for module in ENGINE]
    return derive(values, ENGINE, sources)


def derived_file(kernels) -> Path:
    """The file of the derived module that holds the engine's kernels."""
    return Path(kernels.step.py_func.__code__.co_filename)


def kernel(source: str, name: str) -> ast.FunctionDef:
    return next(
        node
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and node.name == name
    )


def called(function: ast.FunctionDef) -> set[str]:
    return {
        node.func.id
        for node in ast.walk(function)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


def test_oware_kernels_read_no_rule_parameter_and_call_no_unused_mechanic():
    source = derived_source("oware")
    reads = [
        ast.unparse(node.slice)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id == "params"
    ]
    # every read at a fixed place became its value, but those of the numbers read at run time
    runtime = {
        name for name in dir(L) if name.startswith("P_") and getattr(L, name) in L.RUNTIME_PARAMS
    }
    assert {"P_PIECE_KIND + i", "P_STALL_LIMIT", "P_SEEDS_PER_HOUSE"} <= set(reads)
    assert set(reads) - {"P_PIECE_KIND + i", "P_PIECE_PIT + i"} <= runtime
    move = kernel(source, "make_move")
    assert "make_piece_move" not in called(move)
    assert "sow" in called(move)
    # the feeding rule is decided: only Oware's (feed if you can) is left in `step`
    assert "_award_board" not in called(kernel(source, "step"))


def test_oware_kernels_call_none_of_the_mechanics_it_lacks():
    """Nothing of relays, setting out, pregnant pits or special pieces is called, so none of
    it is compiled; kernels that fold to a constant answer (Mangala's first turn, J'erin's
    opening) are replaced by that answer where they are called."""
    source = derived_source("oware")
    calls, todo = set(), ["new_game", "step", "begin_turn"]  # what a game runs
    while todo:
        new = called(kernel(source, todo.pop())) - calls
        calls |= new
        todo += [name for name in new if name in source and f"def {name}(" in source]
    for mechanic in ("sow_relay", "set_out", "setting_out_candidates", "start_setting_out",
                     "_before_handing_out", "_first_turn", "_opening_turn"):  # fmt: skip
        assert mechanic not in calls
    assert "sow_lap" in called(kernel(source, "sow_hand"))


def game_kernels(source: str) -> list[ast.FunctionDef]:
    """The kernels a game runs (`new_game`, `step`, `begin_turn` and all they call)."""
    seen, todo = set(), ["new_game", "step", "begin_turn"]
    while todo:
        name = todo.pop()
        seen.add(name)
        todo += [n for n in called(kernel(source, name)) - seen if f"def {n}(" in source]
    return [kernel(source, name) for name in seen]


def state_blocks_read(source: str) -> set[str]:
    """The state blocks the kernels a game runs read (``state[OWNER + pit]``, ...)."""
    return {
        node.slice.left.id
        for function in game_kernels(source)
        for node in ast.walk(function)
        if isinstance(node, ast.Subscript)
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.slice, ast.BinOp)
        and isinstance(node.slice.left, ast.Name)
    }


@pytest.mark.parametrize(
    "name, options, reads, skips",
    [
        ("oware", {}, set(), {"OWNER", "CLOSED", "UUR"}),  # pits never change hands or close
        ("ncho", {}, set(), {"OWNER", "CLOSED", "UUR"}),  # one game, no rounds
        ("ncho", {"match": True}, {"OWNER", "CLOSED"}, {"UUR"}),  # houses bought, some unfilled
        ("layli_goobalay", {}, {"UUR"}, {"OWNER", "CLOSED"}),  # pregnant pits on rows that stay
    ],
)
def test_a_pit_flag_is_read_only_where_the_rule_set_has_its_mechanic(name, options, reads, skips):
    """`board.owner`, `is_closed` and `is_pregnant` ask the rule set first: where it lacks the
    mechanic, its kernels read no flag of it."""
    blocks = state_blocks_read(derived_source(name, **options))
    assert reads <= blocks
    assert not skips & blocks


def test_small_kernels_on_every_moves_path_are_inlined_in_the_derived_kernels_alone():
    """``inline="derived"``: the derived copy inlines (numba's "always"), the shared one calls."""
    from mancala_env.engine import sowing

    decorator = kernel(derived_source("oware"), "sow_lap").decorator_list[0]
    assert {k.arg: ast.literal_eval(k.value) for k in decorator.keywords}["inline"] == "always"
    assert sowing.sow_lap.targetoptions["inline"] == "never"


@pytest.mark.parametrize(
    "written, folded",
    [
        ("a and True and b", "a and b"),  # a constant that cannot decide changes nothing
        ("x == 1 and True", "x == 1"),  # nor last, when it is True after True or False
        ("not a or False", "not a"),
        ("a and True", "a and True"),  # the value of `a` is kept when it is not True or False
        ("x == 1 and 2", "x == 1 and 2"),  # 2, not True, when x is 1
        ("x or True", "x or True"),  # x's value when it is not 0
        ("f(x) and False", "f(x) and False"),  # the call is made before the constant decides
        ("x == 1 and False", "False"),
        ("1 and 2", "2"),
        ("0 or x", "x"),
        ("not (a and True)", "not a"),  # `not` counts its operand's truth alone
    ],
)
def test_the_folder_keeps_the_value_of_an_and_or_an_or(written, folded):
    node = Fold((), {}).visit(ast.parse(written, mode="eval").body)
    assert ast.unparse(node) == folded


@pytest.mark.parametrize(
    "written, folded",
    [
        ("slam and False", "False"),  # where only the truth counts, a deciding constant decides
        ("x or True", "True"),
        ("a and (b or False)", "a and b"),
        ("f(x) or True", "f(x) or True"),  # the call is still made
        ("a and True", "a"),
    ],
)
def test_in_a_condition_the_folder_counts_truth(written, folded):
    fold = Fold((), {})
    node = fold.in_condition(fold.visit(ast.parse(written, mode="eval").body))
    assert ast.unparse(node) == folded


def test_the_mechanics_a_rule_set_uses_stay_in_its_kernels():
    pieces = kernel(derived_source("mighty_men"), "make_move")
    assert "make_piece_move" in called(pieces)
    penalty = kernel(derived_source("ayoayo"), "step")
    assert "_award_board" in called(penalty)  # Ayoayo's penalty for not feeding
    assert "sow_relay" in called(kernel(derived_source("ayoayo"), "sow_hand"))
    mangala = derived_source("mangala")
    assert {"set_out", "_first_turn"} <= called(kernel(mangala, "make_move"))
    assert "start_setting_out" in called(kernel(mangala, "new_game"))
    uur = kernel(derived_source("layli_goobalay"), "_finish")
    assert "_before_handing_out" in called(uur)


def test_the_name_changes_with_every_input_and_equal_rules_share_it():
    oware = tuple(int(v) for v in Game("oware").params)
    kpo = tuple(int(v) for v in Game("kpo").params)
    ouri = tuple(int(v) for v in Game("ouri").params)
    sources = [inspect.getsource(sys.modules[module]) for module in ENGINE]
    name = derived_name(oware, ENGINE, sources)
    assert derived_name(kpo, ENGINE, sources) == name  # Kpo plays by Oware's rules
    assert derived_name(ouri, ENGINE, sources) != name
    stalled = tuple(int(v) for v in Game("oware", stall_limit=50).params)
    assert derived_name(stalled, ENGINE, sources) != name
    changed = [sources[0] + "\nN_EXTRA = 1\n", *sources[1:]]
    assert derived_name(oware, ENGINE, changed) != name


def test_derived_kernels_are_written_once_and_play_the_rules(tmp_path, monkeypatch, derive_afresh):
    monkeypatch.setenv("MANCALA_ENV_CACHE", str(tmp_path))
    ncho = get_variant("ncho")
    params = ncho.params(ncho.options(stall_limit=77))
    kernels = specialised(params)
    assert specialised(params) is kernels
    written = sorted(p.name for p in (tmp_path / "kernels").iterdir() if p.is_file())
    assert written == [derived_file(kernels).name]  # nothing half-written
    game = Game("ncho", stall_limit=77, first_player="player_0")
    shared = game.copy()
    rng = np.random.default_rng(3)
    while not game.state[L.OVER]:
        action = int(rng.choice(game.legal_actions()))
        result = kernels.step(game.state, action, params)
        assert result == turn.step(shared.state, action, params)
        assert np.array_equal(game.state, shared.state)


def test_every_loop_of_a_rule_set_calls_the_one_derived_engine():
    """The batch and the search compile against the same derived `step` a single game of the
    rule set's defaults runs, so one compile serves them all."""
    params = Game("oware").params
    engine = specialised(params)
    batch = specialised(params, HOT_MODULES)
    search = specialised(params, (*HOT_MODULES, "mancala_env.agents.mcts"))
    assert batch.step is engine.step is search.step
    assert Game("oware").kernels.step is engine.step
    assert batch._step_game.py_func.__globals__["step"] is engine.step
    assert search.rollout.py_func.__globals__["random_legal_action"] is batch.random_legal_action
    assert engine.step is not turn.step


def test_a_game_runs_its_rule_sets_own_kernels_under_its_default_rules_and_numbers():
    """Who moves first is not a rule parameter, and the numbers among the options are read at
    run time: such games run the kernels derived for the defaults. An option that changes
    which mechanics run (Oware's grand slam) runs the kernels derived for its structure."""
    own = specialised(Game("oware").params).step
    assert Game("oware", first_player="player_1").kernels.step is own
    assert Game("oware", stall_limit=60, seeds=3).kernels.step is own
    slam = Game("oware", grand_slam="capture")
    assert slam.kernels.step is specialised(slam.params).step
    assert slam.kernels.step not in (own, turn.step)


@pytest.mark.parametrize(
    "name, options",
    [
        ("oware", {"stall_limit": 37}),
        ("oware", {"stall_limit": 41, "seeds": 5}),
        ("ncho", {"match": True, "max_rounds": 9}),
        ("ayoayo", {"relay_limit": 321}),
    ],
)
def test_numeric_options_share_the_derived_kernels_and_are_read_at_run_time(name, options):
    """A new value of a numeric option derives nothing new: the kernels of the defaults' (or
    the same mechanics') structure serve it, reading the value from `params`."""
    variant = get_variant(name)
    structural = {k: v for k, v in options.items() if k == "match"}
    base = variant.params(variant.options(**structural))
    params = variant.params(variant.options(**options))
    assert not np.array_equal(base, params)
    assert L.structure(base) == L.structure(params)
    assert specialised(params, HOT_MODULES) is specialised(base, HOT_MODULES)


def test_a_second_process_loads_the_batch_kernels_from_disk_without_compiling():
    script = (
        "from mancala_env.batch import BatchedGames\n"
        "games = BatchedGames('oware', 2)\n"
        "games.reset()\n"
        "games.step(games.random_actions())"
    )
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    subprocess.run([sys.executable, "-c", script], check=True, env=env)  # compiles if needed
    again = subprocess.run(
        [sys.executable, "-c", script], check=True, env=env, capture_output=True, text=True
    )
    assert "compiling" not in again.stderr, again.stderr


NEW_NUMBERS_SCRIPT = """
import sys
from mancala_env.agents.loader import load_agent
from mancala_env import Game
from mancala_env.batch import BatchedGames
options = dict(%s)
game = Game("oware", **options)
games = BatchedGames("oware", 16, **options)
games.reset()
games.step(games.random_actions())
for spec in ("mcts:simulations=20", "alphabeta:depth=2"):
    game.step(load_agent(spec, "oware", seed=0).act(game))
"""


def test_new_numbers_compile_nothing_once_the_rule_set_has_compiled():
    """A game, a batch, MCTS and alpha-beta under numbers never seen before (a process of
    their own) load the kernels the defaults compiled: no first-use message."""
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    run = [sys.executable, "-c"]
    subprocess.run([*run, NEW_NUMBERS_SCRIPT % ""], check=True, env=env, capture_output=True)
    numbers = NEW_NUMBERS_SCRIPT % "stall_limit=271, seeds=5"
    again = subprocess.run([*run, numbers], check=True, env=env, capture_output=True, text=True)
    assert "compiling" not in again.stderr, again.stderr


def test_a_cache_folder_that_cannot_be_written_falls_back_to_the_temporary_one(
    tmp_path, monkeypatch, derive_afresh
):
    blocked = tmp_path / "a file"
    blocked.write_text("")
    monkeypatch.setenv("MANCALA_ENV_CACHE", str(blocked))
    kernels = specialised(Game("oware").params)
    fallback = Path(tempfile.gettempdir()) / f"mancala_env-cache-{os.getuid()}"
    assert derived_file(kernels).parent.parent == fallback
    assert not fallback.name.isidentifier()  # never imported in the package's place


# Relays with a feeding penalty, fours and rounds, an opening, pregnant pits, a first turn.
RELAYS = ["ayoayo", "ncho", "jerin", "layli_goobalay", "mangala"]


@pytest.mark.parametrize("name", RELAYS)
def test_a_relay_turn_plays_the_chosen_lift_from_the_results_kept_when_it_began(name):
    """With `keep` (MCTS, the engine's benchmark), a relay rule set's state keeps the result
    of every legal lift tried when the turn began, and `step` takes the chosen one's: the
    game goes exactly as on the shared kernels, which play the lift again."""
    game = Game(name, first_player="player_0")
    kept = specialised(game.params, keep=True)
    at = kept.layout
    lifts = int(game.params[L.P_LIFT_ACTIONS])
    assert 1 + lifts * (at.KEPT + 1) == at.KEPT_SLOTS
    assert at.STATE_SIZE == specialised(game.params).layout.STATE_SIZE + at.KEPT_SLOTS
    state = np.zeros(at.STATE_SIZE, dtype=np.int32)
    kept.new_game(game.params, 0, state)
    shared = Game(name, first_player="player_0")
    shared.kernels = turn
    shared.reset()
    rng = np.random.default_rng(5)
    taken = 0
    for _ in range(3):
        while not shared.over:
            action = int(rng.choice(shared.legal_actions()))
            if action < lifts and state[at.PHASE] == L.PHASE_PLAY:
                assert state[at.KEPT] == 1, "every legal lift was tried when the turn began"
                taken += 1
            assert kept.step(state, action, game.params) == 0
            shared.step(action)
            assert (state[: L.STATE_SIZE] == shared.state).all()
        kept.new_game(game.params, 0, state)
        shared.reset()
    assert taken > 50


def test_a_search_root_keeps_nothing_yet():
    """A game's position as MCTS's kernels play on it has no lift kept: its first move is
    played afresh."""
    game = Game("ncho", first_player="player_0")
    game.step(int(game.legal_actions()[0]))
    kernels = mcts._uct_kernels(game)
    state = mcts._own_root(kernels, game)
    assert state.shape == (kernels.layout.STATE_SIZE,) and state[L.KEPT] == 0
    assert kernels.layout.STATE_SIZE > L.STATE_SIZE  # room for the lifts kept
    shared = game.copy()
    shared.kernels = turn
    action = int(game.legal_actions()[-1])
    kernels.step(state, action, game.params)
    shared.step(action)
    assert (state[: L.STATE_SIZE] == shared.state).all()


# ---- the conventions the compiler relies on, each broken once -----------------------------
WRITTEN = """\
import numba

from mancala_env.engine import layout as L
from mancala_env.engine.jit import njit
from mancala_env.engine.layout import P_HOUSES
from mancala_env.engine.turn import step

LIMIT = 3


@njit(cache=True)
def houses(state, params):
    return params[P_HOUSES] + params[L.P_HOUSES] + LIMIT


@njit(cache=True)
def play(state, params):
    return step(state, 0, params) + houses(state, params)
"""
_written = itertools.count()


@pytest.fixture
def written(tmp_path, monkeypatch):
    """Modules written to a temporary folder from sources, by their (new) names; the kernels
    are derived there, and never compiled."""
    monkeypatch.setenv("MANCALA_ENV_CACHE", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path))

    def write(*sources: str) -> tuple[str, ...]:
        names = tuple(f"written_{next(_written)}" for _ in sources)
        for name, source in zip(names, sources, strict=True):
            (tmp_path / f"{name}.py").write_text(source)
        return names

    return write


def refused(modules: tuple[str, ...]) -> str:
    with pytest.raises(ConventionError) as error:
        specialised(Game("oware").params, modules)
    message = str(error.value)
    assert "\n" not in message
    return message


def edited(old: str, new: str, source: str = WRITTEN) -> str:
    assert old in source
    return source.replace(old, new)


def test_a_module_that_keeps_the_conventions_is_derived(written):
    (name,) = written(WRITTEN)
    kernels = specialised(Game("oware").params, (name,))
    source = Path(kernels.files[name]).read_text()
    # both spellings of the read folded (6 + 6 + 3), and the call of the constant kernel too
    assert "return step(state, 0, params) + 15" in source
    assert kernels.play.py_func.__globals__["step"] is specialised(Game("oware").params).step


@pytest.mark.parametrize(
    "old, new, error",
    [
        (
            "@njit(cache=True)\ndef houses",
            "@numba.njit\ndef houses",
            "houses: compiled by @numba.njit",
        ),
        ("LIMIT = 3", "LIMIT = 3\nfree = njit(lambda: 0)", "free = njit"),
        (
            "@njit(cache=True)\ndef houses",
            "if True:\n\n    @njit\n    def inner():\n        return 0\n\n\n@njit\ndef houses",
            "inner: decorated @njit inside a block; a kernel is defined at the module's top",
        ),
        ("LIMIT = 3", "LIMIT = 3\nplay = 1", "play: bound 2 times at the top level"),
        ("LIMIT = 3", "LIMIT = 3\nLIMIT += 1", "LIMIT: bound 2 times at the top level"),
        ("LIMIT = 3", "LIMIT = 3\nWIDTH: int = 4", "WIDTH: an integer constant written with an"),
        ("LIMIT = 3", "LIMIT = 3\nSTATE_SIZE = 4", "STATE_SIZE: named like a constant of the"),
    ],
)
def test_what_counts_as_a_kernel_or_a_constant_is_checked(written, old, new, error):
    (name,) = written(edited(old, new))
    assert f"{name}." in refused((name,))
    assert error in refused((name,))


def test_a_module_without_kernels_is_refused(written):
    (name,) = written("LIMIT = 3\n")
    assert refused((name,)) == (
        f"{name}: no kernels to derive; a module derived has top-level @njit functions"
    )


@pytest.mark.parametrize(
    "old, new, error",
    [
        ("def houses(state, params)", "def houses(state, *, params)", "plain positional"),
        ("return params[P_HOUSES]", "k = sum([i for i in range(2)])\n    return params[P_HOUSES]",
         "binds names in a comprehension"),
        ("return params[P_HOUSES]", "params = state\n    return params[P_HOUSES]",
         "assigns params; params is the rule parameters, never rebound"),
        ("return params[P_HOUSES]", "params[P_HOUSES] = 1\n    return params[P_HOUSES]",
         "writes params[P_HOUSES]; params is the rule parameters, only read"),
        ("def houses(state, params):\n    return params[P_HOUSES]",
         "def houses(state, rules):\n    return rules[P_HOUSES]", "reads rules[P_HOUSES]; "),
        ("LIMIT = 3", "LIMIT = 3\nAT = L.P_HOUSES", "reads params[AT] with AT, not a constant"),
        ("params[L.P_HOUSES]", "params[L.P_NOTHING]", "with L.P_NOTHING, not a constant"),
    ],
)  # fmt: skip
def test_a_kernel_reads_the_rule_parameters_where_the_folder_sees_them(written, old, new, error):
    source = edited(old, new)
    if "AT = " in new:
        source = edited("params[L.P_HOUSES]", "params[AT]", source)
    (name,) = written(source)
    message = refused((name,))
    assert message.startswith(f"{name}.houses: ")
    assert error in message


@pytest.mark.parametrize(
    "old, new, error",
    [
        ("from mancala_env.engine import layout as L",
         "from mancala_env.engine import layout as L\nfrom mancala_env.engine import layout",
         "houses: the layout is named layout"),
        ("from mancala_env.engine import layout as L", "import numpy as L", "L is not the layout"),
        ("layout import P_HOUSES", "layout import P_HOUSES, STATE_SIZE as SIZE",
         "imports the layout's STATE_SIZE as SIZE"),
        ("from mancala_env.engine.turn import step", "from mancala_env.engine import turn",
         "play: reaches mancala_env.engine.turn through the name turn; a kernel calls a derived"),
        ("\n\n@njit(cache=True)\ndef play", "\n\nsize = houses\n\n\n@njit(cache=True)\ndef play",
         "play: calls {name}.houses as size"),
    ],
)  # fmt: skip
def test_a_kernel_reaches_the_layout_and_the_derived_kernels_by_their_names(
    written, old, new, error
):
    source = edited(old, new)
    if "layout as L\nfrom" in new:
        source = edited("+ LIMIT", "+ layout.STATE_SIZE", source)
    if "turn" in new:
        source = edited("step(state", "turn.step(state", source)
    if "size = " in new:
        source = edited("+ houses(state", "+ size(state", source)
    (name,) = written(source)
    assert error.format(name=name) in refused((name,))


def test_a_kernel_calls_no_kernel_of_a_module_derived_after_it(written):
    later = written(WRITTEN)[0]
    source = edited("def play", "def played", edited("def houses", "def own"))
    source = edited("+ houses(state", "+ h(state", source)
    (first,) = written(
        edited("import step", f"import step\nfrom {later} import houses as h", source)
    )
    assert refused((first, later)) == (
        f"{first}.played: calls {later}.houses, derived after it; a module's kernels call those of"
        " the modules listed before it"
    )
    assert specialised(Game("oware").params, (later, first)).played is not None


def test_names_defined_twice_in_one_derived_module_are_refused(written):
    """The engine's modules are derived as one module: a name is defined by one of them."""
    names = written(WRITTEN, edited("def play", "def other"))
    sources = [(Path(sys.path[0]) / f"{name}.py").read_text() for name in names]
    with pytest.raises(ConventionError, match=f"{names[1]}.LIMIT: also defined by {names[0]}"):
        derive(tuple(int(v) for v in Game("oware").params), names, sources)


def test_a_kernel_named_like_another_modules_is_refused(written):
    """Every derived kernel is reached by its name: one name in two modules would hide one."""
    source = edited(
        "from mancala_env.engine.turn import step\n", "", edited("def play", "def step")
    )
    (name,) = written(edited("return step(state, 0, params)", "return 0", source))
    assert refused((name,)) == (
        f"{name}.step: a kernel of the same name in mancala_env.engine.turn; the kernels of one"
        " rule set are reached by their names, one each"
    )


def test_the_modules_asked_for_are_a_tuple_of_names_each_once():
    params = Game("oware").params
    with pytest.raises(TypeError, match="modules must be a tuple of dotted module names, not"):
        specialised(params, ["mancala_env.batch"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="modules lists mancala_env.batch twice"):
        specialised(params, ("mancala_env.batch", "mancala_env.batch"))

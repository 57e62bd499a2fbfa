"""Single-agent Gymnasium environments: one seat played by the agent, the other by a built-in
opponent.

| Creation           | `gymnasium.make("mancala_env/<Title>-v<N>", opponent="random", **options)`|
|--------------------|--------------------------------------------------------------------------|
| Action space       | `Discrete(n)`: the rule set's actions (6, or more with special moves)    |
| Observation space  | `Box(0, high, int8)`: `mancala_env.observation`, from the agent's side   |
| Action mask        | `info["action_mask"]` (int8) and `env.action_masks()` (bool)             |

Every rule set is registered on `import mancala_env` as ``mancala_env/<Title>-v<N>``, the title
being the CamelCase of the rule set's name (``Oware``, ``RioKadalis``, ``LayliGoobalay``).

The agent sits in seat `seat` (0 or 1, or ``"random"``, the default: drawn at each reset); the
opponent plays the other: ``"random"`` or ``"greedy"`` (compiled, see `mancala_env.opponents`),
an agent spec (``"alphabeta:depth=2"``, ``"mcts:simulations=200"``, ``"ppo:PATH"``; loaded
through the entry points of `mancala_env.opponents`, nothing to import), or an agent object
(anything with ``act(game)``, given the environment's game, which it must not change), or a list
of these: a pool, from which each reset draws one. Who moves
first is the rule set's own option `first_player`, so with ``seat=1`` and
``first_player="player_0"`` the opponent has already moved when `reset` returns. `reset` and
`step` play the opponent's moves until the agent is to move again or the game ends; where the
rules give a player another move, the agent (or the opponent) moves several times in a row.
Everything random (the seat, the first player, a random setting out, the opponent drawn from a
pool, the opponent's choices; an agent opponent is reset with a seed drawn from it) is drawn
from the environment's `np_random`, so a seeded `reset` and the same actions replay the
same game.

Actions: an action that is not legal ends the episode with a reward of -1 for the agent, as
PettingZoo's classic environments do (``illegal="lose"``; ``info["illegal_action"]`` then
names the action and the legal ones), or, with ``illegal="raise"``, raises `IllegalActionError`
(a `ValueError`) naming the legal actions; nothing is ever mapped to a legal move. Sample legal
actions with ``env.action_space.sample(mask=info["action_mask"])`` or use `action_masks()`
(what sb3-contrib's `MaskablePPO` reads). Stepping after the episode has ended (terminated or
truncated) raises: reset to play again.

`observation_names` names each number of the observation (docs/observations.md). Rendering,
as in the PettingZoo environments (`mancala_env.render.BoardView`): ``render_mode="rgb_array"``
draws a 640 x 240 image times `scale` (an integer 1..8), ``"ansi"`` the text, and ``"human"``
shows the board in a pygame window (``pip install 'mancala_env[human]'``; without pygame it
prints the text), drawn by `reset` and every `step`, after the opponent's moves, as Gymnasium's
human mode is (`render()` then returns None).

Info: ``action_mask`` (all zeros once the episode has ended) and ``seat``; once the game is
over, also ``end_reason`` and ``winner`` (the winning seat, None for a draw).

Rewards, from the agent's side: +1 for a win, -1 for a loss and 0 for a draw in the step that
ends the game, 0 otherwise (``reward="win_loss"``); with ``reward="score"``, each step gives the
change in (agent's store - opponent's store) / total seeds since the previous step (the first
step counts from the start of the game, so it includes the opponent's opening moves), so an
episode's rewards add up to the final score difference over the total.

Truncation: with ``max_moves=M``, the episode is truncated as soon as the game has lasted M
plies (both players' moves, counted as the AEC environment counts them) without ending; the
opponent does not move past that point.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from .common_observation import ObservationEncoding
from .engine import layout as L
from .game import Game, IllegalActionError, action_number
from .inputs import check_max_moves, check_reward, check_seat, check_seed
from .kernels import OPPONENTS, kernels_for
from .observation import observe
from .opponents import load_opponent, opponent_actions
from .render import BoardView
from .variants import get_variant

ILLEGAL = ("lose", "raise")
SEED_RANGE = 2**31  # seeds drawn for agent opponents


def resolve_opponent(opponent: Any, variant: str) -> Any:
    """A built-in opponent's name, or an agent: `opponent` itself when it has ``act(game)``, the
    agent the loader of its kind makes of a spec string (see `mancala_env.opponents`)."""
    if isinstance(opponent, str):
        return load_opponent(opponent, variant)
    if callable(getattr(opponent, "act", None)):
        return opponent
    raise ValueError(
        "an opponent must be 'random', 'greedy', an agent spec such as 'alphabeta:depth=2' "
        f"or an agent with act(game); got {opponent!r}"
    )


def gym_id(name: str) -> str:
    """The Gymnasium id of rule set `name`'s current version: ``mancala_env/<Title>-v<N>``."""
    return get_variant(name).gym_id()


class SingleAgentEnv(gymnasium.Env):
    """Rule set `variant` against a built-in `opponent`, the agent in seat `seat`.

    Keyword arguments other than the environment's own are the rule set's options.
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        variant: str = "oware",
        opponent: str | Any | list = "random",
        seat: int | str = "random",
        reward: str = "win_loss",
        max_moves: int | None = None,
        render_mode: str | None = None,
        illegal: str = "lose",
        scale: int = 1,
        observation: str = "raw",
        **options: Any,
    ) -> None:
        check_seat(seat)
        check_reward(reward)
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal={illegal!r} is not supported; choose one of {ILLEGAL}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; "
                f"choose one of {self.metadata['render_modes']} or None"
            )
        self.game = Game(variant, **options)
        self.opponent = opponent
        pool = list(opponent) if isinstance(opponent, (list, tuple)) else [opponent]
        if not pool:
            raise ValueError("an opponent pool needs at least one opponent")
        self._pool = [resolve_opponent(one, self.game.variant.name) for one in pool]
        self._current = self._pool[0]  # this game's opponent
        self.seat_option = seat
        self.seat = 0 if seat == "random" else seat
        self.reward_mode = reward
        self.illegal = illegal
        self.max_moves = check_max_moves(max_moves)
        self.render_mode = render_mode
        self.view = BoardView(render_mode, scale, self.metadata["render_fps"])
        self.encoding = ObservationEncoding(observation, self.game.params, self.game.variant.name)
        self.observation_space = self.encoding.space
        self.observation_names = self.encoding.names
        self.action_space = spaces.Discrete(self.game.n_actions)
        self._score = 0
        self._ended = True  # until the first reset

    # ---- the Gymnasium API -------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a new game and play the opponent's moves until the agent is to move
        (`options` is accepted for the Gymnasium API and not used)."""
        super().reset(seed=check_seed(seed))
        if self.seat_option == "random":
            self.seat = int(self.np_random.integers(2))
        self._draw_opponent()
        self.game.reset(self.np_random)
        self._score = self._agent_score()
        self._play_opponent(limit=None)
        self._ended = False
        self._render_human()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the agent's `action`, then the opponent's moves until the agent is to move again
        or the game ends; an illegal action raises `IllegalActionError` naming the legal ones."""
        game = self.game
        if self._ended:
            raise IllegalActionError("the episode has ended; call reset() to play again")
        action = action_number(action, game.n_actions)
        if not game.state[L.LEGAL + action]:
            message = (
                f"action {action} is not legal for the agent (player_{self.seat}) now; "
                f"legal actions: {game.legal_actions()}"
            )
            if self.illegal == "raise":
                raise IllegalActionError(message)
            self._ended = True
            info = {**self._info(), "illegal_action": message}
            self._render_human()
            return self._observation(), -1.0, True, False, info
        game.step(action)
        self._play_opponent(limit=self.max_moves)
        terminated = game.over
        truncated = (
            not terminated and self.max_moves is not None and game.move_number >= self.max_moves
        )
        score = self._agent_score()
        if self.reward_mode == "score":
            reward = (score - self._score) / game.total_seeds
        elif terminated and game.winner() is not None:
            reward = 1.0 if game.winner() == self.seat else -1.0
        else:
            reward = 0.0
        self._score = score
        self._ended = terminated or truncated
        self._render_human()
        return self._observation(), float(reward), terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Bool mask of the agent's legal actions (all False once the episode has ended)."""
        return self._mask().astype(bool)

    def render(self) -> str | np.ndarray | None:
        return self.view.render(self.game.snapshot())

    def close(self) -> None:
        self.view.close()

    # ---- helpers -----------------------------------------------------------------------------
    def _render_human(self) -> None:
        """Show the board, in human mode, where Gymnasium's human mode does: after `reset` and
        after each `step`."""
        if self.render_mode == "human":
            self.render()

    def _draw_opponent(self) -> None:
        """This game's opponent, drawn from the pool, and reset when it is an agent."""
        rng = self.np_random
        if len(self._pool) > 1:
            self._current = self._pool[int(rng.integers(len(self._pool)))]
        if not isinstance(self._current, str) and hasattr(self._current, "reset"):
            self._current.reset(int(rng.integers(SEED_RANGE)))

    def _play_opponent(self, limit: int | None) -> None:
        """The opponent's moves until the agent is to move, the game ends or lasts `limit`."""
        game, rng = self.game, self.np_random
        while not game.over and game.to_move != self.seat:
            if limit is not None and game.move_number >= limit:
                return
            opponent = self._current
            if not isinstance(opponent, str):
                action = opponent.act(game)
            elif opponent == "greedy":
                noise = rng.random(game.n_actions)
                kernels = kernels_for(game.variant, game.params, OPPONENTS, uses=("greedy_action",))
                action = kernels.greedy_action(game.state, game.params, noise)
            else:
                states, masks = game.state[None], game.legal_mask()[None]
                action = opponent_actions(opponent, states, game.params, masks, rng)[0]
            game.step(int(action))

    def _agent_score(self) -> int:
        stores = self.game.stores
        return int(stores[self.seat]) - int(stores[1 - self.seat])

    def _mask(self) -> np.ndarray:
        game = self.game
        if self._ended or game.over or game.to_move != self.seat:
            return np.zeros(game.n_actions, dtype=np.int8)
        return game.legal_mask()

    def _observation(self) -> np.ndarray:
        return self.encoding.encode(observe(self.game.state, self.seat, self.game.params))

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask(), "seat": self.seat}
        if self.game.over:
            info["end_reason"] = self.game.end_reason
            info["winner"] = self.game.winner()
        return info

"""The PettingZoo AEC environment shared by every rule set (PettingZoo's classic style).

| Creation           | `pettingzoo.make("aec", "mancala/<name>-v<N>", **options)`          |
|--------------------|---------------------------------------------------------------------|
| Actions            | Discrete                                                            |
| Parallel API       | No                                                                  |
| Agents             | `agents= ['player_0', 'player_1']`                                  |
| Action Shape       | (1,)                                                                |
| Action Values      | Discrete(n): the rule set's action blocks (`mancala variants NAME`) |
| Observation Shape  | (16,) or more (`env.observation_names`, docs/observations.md)       |
| Observation Values | [0, total seeds] (int8)                                             |

Observation: a dict of `observation` and `action_mask`. `observation` is seen from the observing
player's side (`mancala_env.observation` says what each number is): the twelve pits counted
from the observer's house 1, both stores and both special-move flags, own first, then whatever
the rule set needs (ownership, closed pits and rounds, the setting out). `action_mask` (int8)
marks the legal actions of the player to move and is all zeros for the other player.

Actions: `a < 6` lifts the mover's house `a + 1`; special moves (Ayoyayo's odu transfer, J'erin's
opening, Mangala's setting out, 10 Mighty Men's decisions) take the numbers after, one block
each (`mancala_env.variants.actions`; `mancala variants NAME` lists them).

Rewards: +1 to the winner and -1 to the loser when the game ends, 0 to both for a draw
(`reward="win_loss"`); with `reward="score"`, each step gives each player the change in
(own captures - opponent's captures) / total seeds, so a game's rewards add up to the final
score difference. Illegal moves through `env()` end the game with -1 for the mover
(PettingZoo's TerminateIllegalWrapper); `raw_env` raises `IllegalActionError`.

Truncation: with `max_moves=M`, a game still going after M plies is truncated.

Rendering: `render_mode="rgb_array"` draws a 640 x 240 image times `scale` (an integer 1..8);
`"human"` opens a pygame window (`pip install 'mancala_env[human]'`), or prints the text without
pygame; `"ansi"` returns the text (see `mancala_env.render`).

State: `state()` is the whole position for a centralised critic, from player_0's fixed seat:
player_0's observation followed by the player to move (0 or 1), bounded by `state_space`;
`observation_names` and `state_names` name each number (docs/observations.md has the tables).
`copy.deepcopy(env)` and pickling copy the position, the bookkeeping and the random generator
(not an open window), so that a copy plays on as the original would; `snapshot()` / `restore()`
carry a position as a JSON-ready dict.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .common_observation import ObservationEncoding
from .game import Game, action_number
from .inputs import check_max_moves, check_reward, check_seed
from .observation import observation_high, observation_names, observe
from .render import BoardView

AGENTS = ["player_0", "player_1"]


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped class
    """The unwrapped environment of rule set `variant`; other keyword arguments are its options."""

    metadata = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "mancala_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        variant: str = "oware",
        render_mode: str | None = None,
        reward: str = "win_loss",
        max_moves: int | None = None,
        scale: int = 1,
        observation: str = "raw",
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode {render_mode!r} is not supported; "
                f"choose one of {self.metadata['render_modes']} or None"
            )
        check_reward(reward)
        self.game = Game(variant, **options)
        played = self.game.variant.version_of(self.game.options)  # an earlier one's options?
        self.metadata = {**self.metadata, "name": self.game.variant.module_name(played)}
        self.render_mode = render_mode
        self.view = BoardView(render_mode, scale, self.metadata["render_fps"])
        self.reward_mode = reward
        self.max_moves = check_max_moves(max_moves)
        self.possible_agents = AGENTS[:]
        self.agents = AGENTS[:]
        high = observation_high(self.game.params)
        self.encoding = ObservationEncoding(observation, self.game.params, self.game.variant.name)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": self.encoding.space,
                    "action_mask": spaces.Box(0, 1, shape=(self.game.n_actions,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: spaces.Discrete(self.game.n_actions) for agent in AGENTS}
        self.observation_names = self.encoding.names
        self.state_names = [*observation_names(self.game.params), "to_move"]
        self.state_space = spaces.Box(
            np.zeros(len(high) + 1, dtype=np.int8), np.append(high, np.int8(1)), dtype=np.int8
        )
        self._np_random, _ = seeding.np_random(None)

    # ---- spaces ------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ---- the AEC loop ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        seed = check_seed(seed)
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self.game.reset(self._np_random)
        self.agents = AGENTS[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._sync_after_move(score_before=None)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        raw = observe(self.game.state, AGENTS.index(agent), self.game.params)
        observation = self.encoding.encode(raw)
        if agent == self.agent_selection and not self.game.over:
            mask = self.game.legal_mask()
        else:
            mask = np.zeros(self.game.n_actions, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def state(self) -> np.ndarray:
        """The whole position from player_0's seat: player_0's observation, then the player to
        move (after the end, the one who would have moved); names in `state_names`."""
        observation = observe(self.game.state, 0, self.game.params)
        return np.append(observation, np.int8(self.game.to_move))

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        score_before = self._score()
        self.game.step(action)
        self._sync_after_move(score_before)
        if self.render_mode == "human":
            self.render()

    def _score(self) -> int:
        return int(self.game.stores[0]) - int(self.game.stores[1])

    def _sync_after_move(self, score_before: int | None) -> None:
        """Bring agent selection, rewards, terminations and truncations up to the game."""
        game = self.game
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if score_before is not None and self.reward_mode == "score":
            change = (self._score() - score_before) / game.total_seeds
            self.rewards = {"player_0": change, "player_1": -change}
        if game.over:
            self.terminations = dict.fromkeys(self.agents, True)
            winner = game.winner()
            if self.reward_mode == "win_loss" and winner is not None:
                self.rewards = {AGENTS[winner]: 1.0, AGENTS[1 - winner]: -1.0}
            for agent in self.agents:
                self.infos[agent] = {"end_reason": game.end_reason}
        elif self.max_moves is not None and game.move_number >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = AGENTS[game.to_move]
        self._accumulate_rewards()

    # ---- snapshots and rendering -------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The whole position as a JSON-ready dict; see `mancala_env.game.Game.snapshot`."""
        return self.game.snapshot()

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Put the environment in the position `snapshot` describes, as if just reset there."""
        self.game.restore(snapshot)
        self.agents = AGENTS[:]
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._sync_after_move(score_before=None)

    def render(self) -> str | np.ndarray | None:
        return self.view.render(self.game.snapshot())

    def close(self) -> None:
        self.view.close()


class CheckedActionWrapper(wrappers.BaseWrapper):
    """Refuses an action that is not an integer in range as the raw environment does (one
    `IllegalActionError` line naming the allowed actions) and hands on the others as ints,
    before PettingZoo's wrappers look at it: they index the action mask with the action, so
    True or an array would otherwise end in numpy's error. A legal-looking action the rules
    forbid still reaches `TerminateIllegalWrapper`."""

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if not (self.terminations[agent] or self.truncations[agent]):
            action = action_number(action, int(self.action_space(agent).n))
        super().step(action)


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's standard wrappers for classic games (the arguments
    are `raw_env`'s, as its signature shows; rule options are the rule set's, see its page),
    the actions checked first (`CheckedActionWrapper`)."""
    wrapped = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = CheckedActionWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


env.__signature__ = inspect.signature(raw_env).replace(return_annotation=AECEnv)

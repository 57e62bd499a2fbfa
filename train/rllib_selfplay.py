"""Masked self-play with RLlib's new API stack: PPO learns a rule set (Oware by default) against
a league of its own frozen snapshots. An example, with its own extra:

    pip install torch==2.13.0            # torch's CPU build first
    pip install -e ".[rllib]"
    python -m mancala_env.train.rllib_selfplay --iterations 60 --out runs/rllib-oware

The pieces, each small enough to copy:

- `MancalaMultiAgentEnv`: an RLlib `MultiAgentEnv` over the suite's PettingZoo AEC environment.
  Turn-based: each step's observations hold only the player to move (``player_0`` or
  ``player_1``; the same one again where the rules give another move), as a dict of
  ``observations`` (the raw observation over its highest values, in [0, 1]) and
  ``action_mask``; when the game ends both players get their last observation and their reward
  (+1 / -1 / 0).
- `MaskedPPOModule`: RLlib's default PPO torch module, the logits of illegal actions pushed to
  the lowest float, so that neither sampling nor the greedy action ever plays an illegal move.
  `MaskedRandomModule` plays a uniformly random legal move (it is not trained).
- Policies mapped by seat (`LeagueCallback.mapping`): in each episode the module ``main`` takes
  one seat, chosen by the episode's id, and the other seat an opponent drawn from the league.
  The league starts as ``random``; once main's win rate over its last 100 games passes
  `--win-rate`, a frozen snapshot of main (``main_v1``, ``main_v2``, ...) joins it (the first
  takes random's place; the league keeps the newest five).
- `evaluate`: main's greedy moves against the suite's built-in ``random`` and ``greedy``
  opponents, in `gymnasium.make_vec`'s batched games (the learner's seat drawn for each game),
  as wins, draws, losses and a score (a win 1, a draw 1/2).

`--out` keeps the algorithm's checkpoint and ``summary.json`` (the settings, the league, the
timings and the scores).
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.columns import Columns
from ray.rllib.core.distribution.torch.torch_distribution import TorchCategorical
from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED_LIFETIME
from ray.rllib.utils.torch_utils import FLOAT_MIN

import mancala_env
from mancala_env.outputs import write_atomically
from mancala_env.variants import get_variant

AGENTS = ("player_0", "player_1")
MAIN, RANDOM = "main", "random"
WINDOW = 100  # games in main's win rate
LEAGUE = 5  # the newest snapshots the league keeps


def scaled(raw: np.ndarray, high: np.ndarray) -> np.ndarray:
    """A raw observation (or a batch of them) over its highest values: float32 in [0, 1]."""
    return (raw.astype(np.float32) / np.maximum(high, 1)).astype(np.float32)


class MancalaMultiAgentEnv(MultiAgentEnv):
    """The AEC environment of ``env_config["variant"]`` (default Oware) for RLlib, turn-based:
    only the player to move observes, until the game ends and both do."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        config = dict(config or {})
        self.aec = mancala_env.make(config.pop("variant", "oware"), **config)
        self.agents = self.possible_agents = list(AGENTS)
        space = self.aec.observation_space(AGENTS[0])
        self._high = space["observation"].high
        n_actions = self.aec.action_space(AGENTS[0]).n
        one = gymnasium.spaces.Dict(
            {
                "observations": gymnasium.spaces.Box(0.0, 1.0, self._high.shape, np.float32),
                "action_mask": gymnasium.spaces.Box(0.0, 1.0, (n_actions,), np.float32),
            }
        )
        self.observation_spaces = dict.fromkeys(AGENTS, one)
        self.action_spaces = dict.fromkeys(AGENTS, gymnasium.spaces.Discrete(n_actions))

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        seen = self.aec.observe(agent)
        return {
            "observations": scaled(seen["observation"], self._high),
            "action_mask": seen["action_mask"].astype(np.float32),
        }

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.aec.reset(seed=seed)
        mover = self.aec.agent_selection
        return {mover: self._observe(mover)}, {}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        mover = self.aec.agent_selection
        self.aec.step(int(action_dict[mover]))
        over = all(self.aec.terminations.values())
        cut = not over and all(self.aec.truncations.values())
        if over or cut:
            observations = {agent: self._observe(agent) for agent in AGENTS}
            rewards = {agent: float(self.aec.rewards[agent]) for agent in AGENTS}
            return observations, rewards, {"__all__": over}, {"__all__": cut}, {}
        nxt = self.aec.agent_selection
        return {nxt: self._observe(nxt)}, {mover: 0.0}, {"__all__": False}, {"__all__": False}, {}


def mask_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """`logits` with those of the actions `mask` rules out at the lowest float."""
    return logits + torch.clamp(torch.log(mask), min=FLOAT_MIN)


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO module on the ``observations`` part of a dict observation, its logits
    masked by the ``action_mask`` part."""

    def __init__(self, *, observation_space: Any = None, **kwargs: Any) -> None:
        self.observation_space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observations"], **kwargs)

    def setup(self) -> None:
        super().setup()  # the networks are built for the observations without the mask
        self.observation_space = self.observation_space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[torch.Tensor, dict[str, Any]]:
        obs = batch[Columns.OBS]
        return obs["action_mask"], {**batch, Columns.OBS: obs["observations"]}

    def _masked(self, forward: Any, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = self._split(batch)
        out = forward(batch, **kwargs)
        out[Columns.ACTION_DIST_INPUTS] = mask_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out

    def _forward_inference(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._masked(super()._forward_inference, batch, **kwargs)

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._masked(super()._forward_exploration, batch, **kwargs)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._masked(super()._forward_train, batch, **kwargs)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if isinstance(batch[Columns.OBS], dict):
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)


class MaskedRandomModule(RLModule):
    """A uniformly random legal move: equal logits over the legal actions (never trained)."""

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask = torch.as_tensor(batch[Columns.OBS]["action_mask"], dtype=torch.float32)
        return {Columns.ACTION_DIST_INPUTS: mask_logits(torch.zeros_like(mask), mask)}

    def _forward_train(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        raise NotImplementedError("the random module is not trained")

    def get_inference_action_dist_cls(self) -> Any:
        return TorchCategorical

    get_exploration_action_dist_cls = get_inference_action_dist_cls


class LeagueCallback(RLlibCallback):
    """Main's win rate, and the league: a frozen snapshot of main joins it whenever main wins
    more than `win_rate` of its last games (at most one every `gap` iterations)."""

    def __init__(self, win_rate: float = 0.8, gap: int = 2) -> None:
        super().__init__()
        self.win_rate, self.gap = win_rate, gap
        self.league = [RANDOM]
        self.snapshots = self.last_snapshot = 0

    @staticmethod
    def mapping(league: Sequence[str]) -> Any:
        """Policies by seat: main in the seat the episode's id picks, a league member drawn
        uniformly in the other."""

        def agent_to_module(agent_id: str, episode: Any, **kwargs: Any) -> str:
            seat = AGENTS.index(agent_id)
            if hash(episode.id_) % 2 == seat:
                return MAIN
            return random.Random(f"{episode.id_}").choice(list(league))

        return agent_to_module

    def on_episode_end(self, *, episode: Any, metrics_logger: Any, **kwargs: Any) -> None:
        main = next((a for a in AGENTS if episode.module_for(a) == MAIN), None)
        rewards = episode.get_rewards()
        if main is None or not len(rewards.get(main, ())):
            return
        result = float(rewards[main][-1])
        metrics_logger.log_value("win_rate", float(result > 0), reduce="mean", window=WINDOW)
        metrics_logger.log_value("main_return", result, reduce="mean", window=WINDOW)

    def on_train_result(self, *, algorithm: Any, result: dict, **kwargs: Any) -> None:
        rate = result[ENV_RUNNER_RESULTS].get("win_rate", 0.0)
        if rate > self.win_rate and algorithm.iteration - self.last_snapshot >= self.gap:
            self.snapshots += 1
            snapshot = f"main_v{self.snapshots}"
            kept = [m for m in self.league if m != RANDOM][-(LEAGUE - 1) :]
            self.league = [*kept, snapshot]  # the first snapshot takes random's place
            main = algorithm.get_module(MAIN)
            algorithm.add_module(
                module_id=snapshot,
                module_spec=RLModuleSpec.from_module(main),
                new_agent_to_module_mapping_fn=self.mapping(list(self.league)),
            )
            state = {"learner_group": {"learner": {"rl_module": {snapshot: main.get_state()}}}}
            algorithm.set_state(state)
            self.last_snapshot = algorithm.iteration
        result["league"] = list(self.league)


def build(args: argparse.Namespace) -> Any:
    """The PPO algorithm of the example (`args` as `parser()` makes them)."""
    model = DefaultModelConfig(fcnet_hiddens=[args.hidden, args.hidden], vf_share_layers=False)
    config = (
        PPOConfig()
        .environment(MancalaMultiAgentEnv, env_config={"variant": args.variant})
        .env_runners(
            num_env_runners=args.env_runners,
            num_envs_per_env_runner=args.envs,
            num_cpus_per_env_runner=1,
        )
        .learners(num_learners=0)
        .multi_agent(
            policies={MAIN, RANDOM},
            policy_mapping_fn=LeagueCallback.mapping([RANDOM]),
            policies_to_train=[MAIN],
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    MAIN: RLModuleSpec(module_class=MaskedPPOModule, model_config=model),
                    RANDOM: RLModuleSpec(module_class=MaskedRandomModule),
                }
            )
        )
        .training(
            lr=args.lr,
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(256, args.batch),
            num_epochs=args.epochs,
            entropy_coeff=0.01,
        )
        .callbacks(functools.partial(LeagueCallback, win_rate=args.win_rate))
        .debugging(seed=args.seed, log_level="ERROR")
    )
    return config.build_algo()


def evaluate(
    module: RLModule, variant: str, opponent: str, games: int, seed: int = 0
) -> dict[str, Any]:
    """Main's greedy moves in `games` games against the built-in `opponent`, one game per slot
    of `gymnasium.make_vec`'s batched environment (each slot's first game counts)."""
    env = gymnasium.make_vec(get_variant(variant).gym_id(), num_envs=games, opponent=opponent)
    high = env.single_observation_space.high
    observations, info = env.reset(seed=seed)
    results = np.full(games, np.nan)
    with torch.no_grad():
        while np.isnan(results).any():
            batch = {
                Columns.OBS: {
                    "observations": torch.from_numpy(scaled(observations, high)),
                    "action_mask": torch.from_numpy(info["action_mask"].astype(np.float32)),
                }
            }
            logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
            actions = logits.argmax(dim=-1).numpy()
            observations, rewards, terminated, _, info = env.step(actions)
            first = terminated & np.isnan(results)
            results[first] = rewards[first]
    wins, draws = int((results > 0).sum()), int((results == 0).sum())
    return {
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": games - wins - draws,
        "score": round((wins + draws / 2) / games, 3),
    }


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m mancala_env.train.rllib_selfplay", description=__doc__
    )
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("--variant", default="oware", help="rule set (default: oware)")
    p.add_argument("--iterations", type=int, default=60, help="PPO iterations (default: 60)")
    p.add_argument("--minutes", type=float, help="stop training after this many minutes")
    p.add_argument("--batch", type=int, default=4000, help="env steps an iteration (4000)")
    p.add_argument("--epochs", type=int, default=6, help="PPO epochs an iteration (6)")
    p.add_argument("--lr", type=float, default=3e-4, help="learning rate (3e-4)")
    p.add_argument("--hidden", type=int, default=128, help="units of the two hidden layers")
    p.add_argument("--envs", type=int, default=32, help="games an env runner plays at once (32)")
    p.add_argument("--env-runners", type=int, default=0, help="remote env runners (0: local)")
    p.add_argument("--win-rate", type=float, default=0.8, help="snapshot threshold (0.8)")
    p.add_argument("--eval-games", type=int, default=1000, help="games per opponent (1000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, help="folder for the checkpoint and summary.json")
    return p


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Train, evaluate, print the summary (one JSON object) and return it."""
    args = parser().parse_args(argv)
    import ray

    ray.init(num_cpus=max(1, args.env_runners) + 1, include_dashboard=False, log_to_driver=False)
    started = time.perf_counter()
    algo = build(args)
    history = []
    try:
        for _ in range(args.iterations):
            result = algo.train()
            runners = result[ENV_RUNNER_RESULTS]
            history.append(
                {
                    "iteration": algo.iteration,
                    "env_steps": int(result[NUM_ENV_STEPS_SAMPLED_LIFETIME]),
                    "win_rate": round(float(runners.get("win_rate", float("nan"))), 3),
                    "league": result["league"],
                }
            )
            print(json.dumps(history[-1]), file=sys.stderr, flush=True)
            if args.minutes is not None and time.perf_counter() - started > 60 * args.minutes:
                break
        trained = time.perf_counter() - started
        module = algo.get_module(MAIN)
        scores = [
            evaluate(module, args.variant, opponent, args.eval_games, seed=args.seed)
            for opponent in ("random", "greedy")
        ]
        summary = {
            "variant": args.variant,
            "iterations": len(history),
            "env_steps": history[-1]["env_steps"] if history else 0,
            "train_seconds": round(trained, 1),
            "league": history[-1]["league"] if history else [RANDOM],
            "settings": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
            "scores": scores,
        }
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            algo.save_to_path(str((args.out / "checkpoint").resolve()))
            summary_text = json.dumps(summary, indent=2) + "\n"
            write_atomically(args.out / "summary.json", summary_text.encode())
            history_text = "".join(json.dumps(h) + "\n" for h in history)
            write_atomically(args.out / "history.jsonl", history_text.encode())
    finally:
        algo.stop()
        ray.shutdown()
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()

"""Write a trained network as the package ships it: its weights as float16.

    python -m mancala_env.train.az.ship runs/ncho-az/final.npz agents/networks/ncho.npz

A shipped network is half the size of the float32 checkpoint torch fits (Oware's 512-512-256
network 1.1 MB rather than 2.2; 10 Mighty Men's, over its wider observation, 2.2 MB rather than
4.4), so the wheel can carry one for every rule set within its 30 MB. The command reads the
checkpoint as any network is read (bounded, no pickle), refuses weights that float16 cannot
hold, writes the file atomically, and prints the sizes and how far the rounding moved the
policy's logits and the value over positions of random games, so the strength measured
afterwards is the shipped file's.
"""

from __future__ import annotations

import numpy as np

from mancala_env import Game
from mancala_env.agents.network import (
    Network,
    NetworkError,
    network_file,
    parse_network,
    read_network,
)
from mancala_env.arguments import Parser, output_file
from mancala_env.observation import observe
from mancala_env.outputs import ZIP_ARCHIVE, OutputError, write_atomically

HALF_MAX = float(np.finfo(np.float16).max)
MAX_POSITIONS = 100_000  # a few seconds of random games; more tells nothing new


def half_precision(network: Network) -> bytes:
    """`network` as a network file's bytes with float16 weights; NetworkError naming the first
    weights too large for float16."""
    arrays = [*network.layers, network.policy, network.value]
    for name, (weight, bias) in zip(_names(network), arrays, strict=True):
        largest = max(float(np.abs(weight).max()), float(np.abs(bias).max()))
        if largest > HALF_MAX:
            raise NetworkError(f"the {name} weights reach {largest:g}, past float16's {HALF_MAX:g}")
    return network.to_bytes(dtype=np.float16)


def rounding_shift(before: Network, after: Network, positions: int, seed: int = 0) -> dict:
    """The largest change of a logit and of the value between `before` and `after` over the
    positions of random games of their rule set (`positions` of them), and how often the most
    likely legal move changed."""
    rng = np.random.default_rng(seed)
    observations, masks = [], []
    game = Game(before.variant)
    game.reset(rng)
    while len(observations) < positions:
        if game.over:
            game.reset(rng)
        observations.append(observe(game.state, game.to_move, game.params))
        masks.append(game.legal_mask())
        game.step(int(rng.choice(game.legal_actions())))
    logits_a, values_a = before.forward(np.array(observations))
    logits_b, values_b = after.forward(np.array(observations))
    legal = np.array(masks, dtype=bool)
    best_a = np.where(legal, logits_a, -np.inf).argmax(axis=1)
    best_b = np.where(legal, logits_b, -np.inf).argmax(axis=1)
    return {
        "positions": positions,
        "logit": float(np.abs(logits_a - logits_b).max()),
        "value": float(np.abs(values_a - values_b).max()),
        "changed_moves": int((best_a != best_b).sum()),
    }


def _names(network: Network) -> list[str]:
    return [*(f"layer_{i}" for i in range(len(network.layers))), "policy", "value"]


def main(argv: list[str] | None = None) -> None:
    parser = Parser(prog="python -m mancala_env.train.az.ship", description=__doc__.splitlines()[0])
    parser.add_argument("network", help="a network file (a run's final.npz or gen_N.npz)")
    parser.add_argument(
        "out", type=output_file, help="the file to write (agents/networks/NAME.npz)"
    )
    parser.writes("out", ZIP_ARCHIVE)
    parser.add_argument(
        "--positions", type=int, default=2000, help="positions the rounding is checked on"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.positions <= MAX_POSITIONS:
        parser.error(f"--positions must be from 1 to {MAX_POSITIONS:,}, not {args.positions}")
    try:
        network, _ = read_network(args.network)
        size = network_file(args.network).stat().st_size
        content = half_precision(network)
        shift = rounding_shift(network, parse_network(content), args.positions)
        write_atomically(args.out, content, ZIP_ARCHIVE, args.replace)
    except (NetworkError, OutputError) as error:
        parser.exit(2, f"{parser.prog}: error: {error}\n")
    print(f"{args.out}: {len(content):,} bytes (from {size:,})")
    print(
        f"over {shift['positions']} positions of random games the rounding moved a logit by at "
        f"most {shift['logit']:.2g} and the value by at most {shift['value']:.2g}, and changed "
        f"the most likely legal move {shift['changed_moves']} times"
    )


if __name__ == "__main__":
    main()

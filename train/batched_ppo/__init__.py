"""``mancala train VARIANT --algo batched-ppo``: PPO self-play on the batched engine, end to end.

A reader follows the pipeline module by module: `config` (the settings), `policy` (the
network, its export as a ``ppo:`` model file, the frozen snapshots as batch opponents),
`rollout` (every game stepped together, the opponents moving inside the batch, one forward
pass of the policy a step), `loss` (TorchRL's GAE and clipped PPO loss over a masked
categorical), `update` (the minibatch epochs) and `run` (the loop: snapshots, evaluations
through the tournament code, checkpoints, ``--resume``, Ctrl-C, ``--max-minutes``).
"""

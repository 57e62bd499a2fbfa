"""Self-play training of MaskablePPO agents on the batched engine (the ``train`` extra).

    mancala train oware --timesteps 3000000 --out runs/oware
    python -m mancala_env.train oware --opponents random,greedy,self

See docs/training.md.
"""

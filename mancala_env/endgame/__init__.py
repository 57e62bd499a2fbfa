"""Endgame databases for the Oware family: the exact value of every board of few seeds.

See docs/endgames.md for what the values mean, what is exact, and the file format.
"""

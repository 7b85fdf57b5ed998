"""Reads for fair play: which pairs of players act on each other unlike on anyone else (``pair_scores``)."""

"""Pair statistics on hand-made games: sparing one seat more than the rest, with enough evidence, flags a pair."""

import random

from fairplay.pairs import PER_GAME, THRESHOLD, GameFacts, one_sided_llr, score_pairs
from fairplay.words import evidence
from games.fairplay import Interaction


def game(game_id, players, choices):
    """``choices``: (actor seat, target seat, spared) throw-in decisions, all in one situation."""
    found = [
        Interaction(i, a, t, "throw_in", "bout:side", s, "done" if s else "throw", ())
        for i, (a, t, s) in enumerate(choices)
    ]
    return GameFacts(game_id, "durak", players, found, list(range(1, len(found) + 1)))


def table_of(rng, game_id, players, colluders=(), rate=0.4, decisions=12):
    """Every seat decides about every other; colluders always spare each other, everyone else at ``rate``."""
    choices = []
    for _ in range(decisions):
        a, t = rng.sample(range(len(players)), 2)
        together = players[a] in colluders and players[t] in colluders
        choices.append((a, t, together or rng.random() < rate))
    return game(game_id, players, choices)


def population(n_games, colluders=(), seed=1, people=16):
    rng = random.Random(seed)
    out = []
    for g in range(n_games):
        players = rng.sample(range(1, people + 1), 4)
        if colluders and rng.random() < 0.7:
            players = [*colluders, *[p for p in players if p not in colluders][:2]]
            rng.shuffle(players)
        out.append(table_of(rng, g, players, colluders))
    return out


def test_the_likelihood_ratio_is_one_sided_and_grows_with_evidence():
    assert one_sided_llr(3, 10, 5) == 0  # spared less than expected: no evidence of collusion
    assert one_sided_llr(5, 10, 5) == 0
    small, large = one_sided_llr(9, 10, 5), one_sided_llr(90, 100, 50)
    assert 0 < small < large and large > 15 * small  # the prior weighs little against a hundred chances
    assert one_sided_llr(2, 2, 0.2) < 1  # two of two where one in ten was expected: hardly anything yet


def test_a_pair_that_always_spares_each_other_is_flagged_and_ranked_first():
    scores = score_pairs(population(120, colluders=(1, 2)), names={1: "ann", 2: "bob"})
    top = scores[0]
    assert (top.a_name, top.b_name) == ("ann", "bob") and top.flagged and top.score >= THRESHOLD
    assert top.together_ratio > 1.0  # they sit together more often than chance
    assert "Could throw in on him: spared each other" in evidence(top)
    assert top.decisive and all(isinstance(g, int) and isinstance(n, int) for g, n in top.decisive)
    assert not any(p.flagged for p in scores[1:])


def test_five_games_together_are_not_enough():
    scores = score_pairs(population(120, colluders=(1, 2))[:5])
    assert not any(p.flagged for p in scores)


def test_honest_players_are_not_flagged():
    for seed in range(5):
        assert not any(p.flagged for p in score_pairs(population(150, seed=seed)))


def test_a_computer_player_is_never_in_a_pair_and_its_choices_do_not_count():
    facts = [game(g, [1, None, 2, 3], [(1, 0, True), (0, 1, False), (2, 0, True)]) for g in range(3)]
    scores = score_pairs(facts)
    assert {(p.a, p.b) for p in scores} == {(1, 2), (1, 3), (2, 3)}


def test_cheating_reports_rank_a_pair_higher_without_changing_its_score():
    facts = population(30, seed=3)
    plain = score_pairs(facts)
    last = plain[-1]
    reported = score_pairs(facts, reports={(last.a, last.b): 2})
    assert (reported[0].a, reported[0].b) == (last.a, last.b)
    assert reported[0].score == last.score and reported[0].reports == 2
    assert "2 cheating reports" in evidence(reported[0])


def test_kinds_are_compared_within_their_situation():
    # 1 spares 2 in the "taking" phase only, where everyone spares everyone: no evidence
    found = []
    for g in range(60):
        inter = [
            Interaction(0, 0, 1, "throw_in", "taking:side", True, "done", ()),
            Interaction(1, 0, 2, "throw_in", "taking:side", True, "done", ()),
            Interaction(2, 1, 0, "throw_in", "taking:side", True, "done", ()),
            Interaction(3, 0, 1, "throw_in", "bout:side", g % 2 == 0, "", ()),
            Interaction(4, 0, 2, "throw_in", "bout:side", g % 2 == 1, "", ()),
        ]
        found.append(GameFacts(g, "durak", [1, 2, 3], inter, [1, 2, 3, 4, 5]))
    assert not any(p.flagged for p in score_pairs(found))


def test_one_long_game_between_two_players_counts_like_a_game_not_a_season():
    # 2 answers 1 forty times in one game (two players adding onto each other's piles), sparing him each time;
    # only the first PER_GAME of them count, from 2 towards 1 and from 1 towards 2 alike
    chain = [Interaction(i, 1, 0, "doubt", "count1", True, "add", ()) for i in range(40)]
    back = [Interaction(40 + i, 0, 1, "doubt", "count1", True, "add", ()) for i in range(3)]
    others = [
        GameFacts(g, "verish", [1, 3, 4], [Interaction(0, 0, 1, "doubt", "count1", g % 2 == 0, "", ())])
        for g in range(1, 30)
    ]
    scores = score_pairs([GameFacts(0, "verish", [1, 2, 3], chain + back), *others])
    pair = next(p for p in scores if (p.a, p.b) == (1, 2))
    assert [(k.kind, k.chances, k.spared) for k in pair.kinds] == [("doubt", PER_GAME + 3, PER_GAME + 3)]
    assert not pair.flagged

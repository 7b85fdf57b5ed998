"""Who acted on whom: each game's interactions, read from hand-built public records."""

import random

import pytest

from games import GAMES, get_game
from games.biznes.fairplay import interactions as biznes
from games.bots import get_bot, public_record
from games.bots.collude import ColludingBot
from games.durak.fairplay import interactions as durak
from games.verish.fairplay import interactions as verish


def short(found):
    return [(x.actor, x.target, x.kind, x.situation, x.spared) for x in found]


def test_every_game_tells_its_interactions_through_the_registry():
    for name in GAMES:
        spec = get_game(name)
        assert spec.interactions([], spec.min_seats, {}) == []


# -- Durak -------------------------------------------------------------------------


def test_durak_throw_ins_aim_at_the_defender_and_done_spares_him():
    record = [
        (0, {"type": "attack", "cards": ["9D"]}),
        (1, {"type": "cover", "attack": "9D", "card": "TD"}),
        (0, {"type": "done"}),
        (2, {"type": "throw", "cards": ["9C"]}),
        (1, {"type": "cover", "attack": "9C", "card": "AC"}),
        (3, {"type": "done"}),
        (2, {"type": "done"}),
        (1, {"type": "attack", "cards": ["6S"]}),
        (2, {"type": "take"}),
        (3, {"type": "throw", "cards": ["6H"]}),
        (0, {"type": "done"}),
        (3, {"type": "attack", "cards": ["7S"]}),
        (0, {"type": "cover", "attack": "7S", "card": "8S"}),
        (1, {"type": "done"}),
        (2, {"type": "done"}),
    ]
    throws = [x for x in short(durak(record, 4, {})) if x[2] == "throw_in"]
    assert throws == [
        (0, 1, "throw_in", "bout:lead:handM", True),
        (2, 1, "throw_in", "bout:side:handM", False),
        (3, 1, "throw_in", "bout:side:handM", True),
        (2, 1, "throw_in", "bout:side:handM", True),
        (3, 2, "throw_in", "taking:side:handM", False),
        (0, 2, "throw_in", "taking:side:handM", True),
        (1, 0, "throw_in", "bout:side:handM", True),
        (2, 0, "throw_in", "bout:side:handL", True),  # he took two cards in the bout before
    ]


def test_durak_throw_ins_are_compared_by_the_thrower_hand_size_which_the_record_tracks():
    record = [
        (0, {"type": "attack", "cards": ["9D", "9S", "9C"]}),
        (1, {"type": "take"}),  # 1 holds 9 now; 0 draws back to 6
        (0, {"type": "done"}),
        (2, {"type": "done"}),
        (3, {"type": "done"}),
        (2, {"type": "attack", "cards": ["6S"]}),
        (3, {"type": "cover", "attack": "6S", "card": "7S"}),
        (1, {"type": "throw", "cards": ["6H"]}),
        (0, {"type": "done"}),
    ]
    found = [(x.actor, x.situation) for x in durak(record, 4, {}) if x.kind == "throw_in"]
    assert found[-2:] == [(1, "bout:side:handL"), (0, "bout:side:handM")]


def test_durak_a_throw_in_the_defender_beat_spared_him_one_he_took_did_not():
    record = [
        (0, {"type": "attack", "cards": ["9D"]}),
        (1, {"type": "cover", "attack": "9D", "card": "TD"}),
        (2, {"type": "throw", "cards": ["9C"]}),
        (1, {"type": "cover", "attack": "9C", "card": "AC"}),  # beat: 2's throw-in cost him nothing
        (3, {"type": "done"}),  # no throw-in: nothing to ask of the defender
        (0, {"type": "throw", "cards": ["TC", "TH"]}),
        (1, {"type": "cover", "attack": "TH", "card": "QH"}),
        (1, {"type": "take"}),  # TC stood unbeaten: 0's throw-in made him take
        (3, {"type": "throw", "cards": ["9S"]}),  # onto a taking defender: not a question of beating
        (0, {"type": "done"}),
        (2, {"type": "attack", "cards": ["6S"]}),
        (3, {"type": "cover", "attack": "6S", "card": "7S"}),
        (1, {"type": "throw", "cards": ["6H"]}),
    ]
    covered = [x for x in short(durak(record, 4, {})) if x[2] == "covered"]
    assert covered == [
        (2, 1, "covered", "side:handM", True),
        (0, 1, "covered", "lead:handM", False),
        (1, 3, "covered", "side:handM", False),  # the record ends before he beat it
    ]


def test_durak_a_take_spares_the_seat_the_defender_would_have_attacked():
    record = [
        (0, {"type": "attack", "cards": ["9D"]}),
        (1, {"type": "take"}),
        (0, {"type": "done"}),
        (2, {"type": "attack", "cards": ["6S"]}),
        (3, {"type": "cover", "attack": "6S", "card": "7S"}),
        (2, {"type": "done"}),
        (3, {"type": "attack", "cards": ["8S"]}),
        (0, {"type": "cover", "attack": "8S", "card": "9S"}),
        (1, {"type": "done"}),
    ]
    takes = [x for x in short(durak(record, 4, {})) if x[2] == "take"]
    assert takes == [(1, 2, "take", "bout", True), (3, 0, "take", "bout", False)]


def test_durak_transfers_count_only_with_transfers_on_and_only_the_first_answer():
    record = [
        (0, {"type": "attack", "cards": ["9D"]}),
        (1, {"type": "transfer", "card": "9S"}),
        (2, {"type": "cover", "attack": "9D", "card": "TD"}),
        (2, {"type": "cover", "attack": "9S", "card": "TS"}),
        (0, {"type": "done"}),
        (1, {"type": "done"}),
        (3, {"type": "done"}),
    ]
    found = short(durak(record, 4, {"mode": "transfer"}))
    assert [x for x in found if x[2] == "transfer"] == [
        (1, 2, "transfer", "first", False),
        (2, 3, "transfer", "first", True),
    ]
    # the throw-ins after a transfer aim at the new defender
    assert {x[1] for x in found if x[2] == "throw_in"} == {2}
    assert not [x for x in short(durak(record, 4, {})) if x[2] == "transfer"]


def test_durak_partners_in_team_play_are_left_out():
    record = [
        (0, {"type": "attack", "cards": ["9D"]}),
        (1, {"type": "cover", "attack": "9D", "card": "TD"}),
        (2, {"type": "done"}),
        (3, {"type": "done"}),
        (0, {"type": "done"}),
    ]
    found = short(durak(record, 4, {"teams": True}))
    assert (3, 1, "throw_in", "bout:side:handM", True) not in found
    assert (2, 1, "throw_in", "bout:side:handM", True) in found


def test_durak_throw_targets_match_the_engine_defender_in_real_games():
    bot = get_bot("heuristic")
    for seed in range(6):
        state = get_game("durak").new(seats=4, seed=seed, options={"mode": "transfer"} if seed % 2 else {})
        record, defenders, rng = [], [], random.Random(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            action = bot.choose("durak", state.view(seat), state.legal_actions(seat), record, rng)
            defenders.append(state.view(None)["defender"])
            state.apply(seat, action)
            record.append((seat, public_record("durak", action, state.view(None))))
        found = durak(record, 4, state.options)
        assert found
        assert all(x.target == defenders[x.move] for x in found if x.kind == "throw_in")


# -- Believe It or Not -------------------------------------------------------------


def test_verish_compares_doubts_within_the_answerer_hand_size_which_the_record_tracks():
    # 3 seats, 36 cards: 12 each; seat 0 deals (opens); a taken pile goes to the taker's hand
    record = [
        (0, {"type": "claim", "count": 4, "kind": "Q"}),
        (1, {"type": "add", "count": 4}),
        (2, {"type": "doubt", "check": {"claimant": 1, "true": True, "taker": 2}}),
        (2, {"type": "claim", "count": 4, "kind": "T"}),
        (0, {"type": "believe", "check": {"claimant": 2, "true": True, "taker": None}}),
        (0, {"type": "claim", "count": 4, "kind": "A"}),
        (1, {"type": "doubt", "check": {"claimant": 0, "true": True, "taker": 1}}),
    ]
    hands = [x.situation.split(":")[1] for x in verish(record, 3, {})]
    # seat 1 answers with 12, seat 2 with 12, seat 0 with 8, seat 1 with 8
    assert hands == ["hand4", "hand4", "hand3", "hand3"]


def test_verish_doubts_aim_at_the_last_placement_and_believing_or_adding_spares():
    record = [
        (0, {"type": "claim", "count": 2, "kind": "Q"}),
        (1, {"type": "doubt", "check": {"claimant": 0, "true": False, "taker": 0}}),
        (1, {"type": "claim", "count": 1, "kind": "T"}),
        (2, {"type": "add", "count": 3}),
        (0, {"type": "believe", "check": {"claimant": 2, "true": True, "taker": None}}),
        (0, {"type": "claim", "count": 4, "kind": "A"}),
        (1, {"type": "believe", "check": {"claimant": 0, "true": True, "taker": None}}),
    ]
    assert short(verish(record, 3, {})) == [
        (1, 0, "doubt", "count2:hand4", False),
        (2, 1, "doubt", "count1:hand4", True),
        (0, 2, "doubt", "count3:hand4", True),
        (1, 0, "doubt", "count3:hand4", True),
    ]


# -- Biznes ------------------------------------------------------------------------

BIZNES_ROLES = [
    (1, {"type": "bid", "tricks": 2, "suit": "H"}),
    (2, {"type": "pass"}),
    (3, {"type": "pass"}),
    (4, {"type": "pass"}),
    (0, {"type": "pass"}),
    (1, {"type": "discard", "count": 1}),
    (1, {"type": "declare", "banker": True}),
    (2, {"type": "role", "role": "mafia"}),
    (3, {"type": "role", "role": "banker"}),
    (4, {"type": "role", "role": "mafia"}),
    (0, {"type": "role", "role": "thief"}),
]


def test_biznes_roles_beside_a_seat():
    found = short(biznes(BIZNES_ROLES, 5, {}))
    assert found == [
        (2, 1, "banker", "asked", False),
        (3, 1, "banker", "asked", True),
        (3, 2, "mafia", "invited", False),
        (4, 2, "mafia", "invited", True),
        (0, 2, "mafia", "invited", False),
        (0, 4, "mafia", "invited", False),
    ]


def test_biznes_tricks_let_go_to_the_winning_seat_by_the_sides_of_the_two():
    record = [
        *BIZNES_ROLES,
        (1, {"type": "play", "card": "9S"}),
        (2, {"type": "play", "card": "KS"}),  # beats the declarer: mafia on declarer
        (3, {"type": "play", "card": "6S"}),  # banker lets the mafioso win
        (4, {"type": "play", "card": "2H"}),  # a trump: mafia on mafia, beats his partner
        (0, {"type": "play", "card": "3H"}),  # thief beats the mafioso's trump
        (0, {"type": "play", "card": "AC"}),
        (1, {"type": "play", "card": "JOKER1", "as": "2H"}),  # a joker as a trump: declarer on thief
    ]
    found = [x for x in short(biznes(record, 5, {})) if x[2] == "trick"]
    assert found == [
        (2, 1, "trick", "MD", False),
        (3, 2, "trick", "DM", True),
        (4, 2, "trick", "team", False),
        (0, 4, "trick", "TM", False),
        (1, 0, "trick", "DT", False),
    ]


# -- the colluding bots the benchmark seats ----------------------------------------


@pytest.mark.parametrize("style", ["soft", "shared"])
@pytest.mark.parametrize(("name", "seats"), [("durak", 4), ("verish", 3), ("biznes", 5)])
def test_colluders_spare_their_partner_more_than_anyone_else(name, seats, style):
    spec = get_game(name)
    spared = {True: [0, 0], False: [0, 0]}
    for seed in range(8):
        state = spec.new(seats=seats, seed=seed)
        bots = [get_bot("heuristic") for _ in range(seats)]
        bots[0], bots[1] = ColludingBot(1, style), ColludingBot(0, style)
        record, rng = [], random.Random(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            bot, legal = bots[seat], state.legal_actions(seat)
            if isinstance(bot, ColludingBot):
                hand = state.view(bot.partner)["hand"]
                action = bot.choose(name, state.view(seat), legal, record, rng, partner_hand=hand)
            else:
                action = bot.choose(name, state.view(seat), legal, record, rng)
            state.apply(seat, action)  # raises if the colluder picked an illegal move
            record.append((seat, public_record(name, action, state.view(None))))
        for x in spec.interactions(record, seats, state.options):
            if x.actor in (0, 1) and x.kind in ("throw_in", "doubt", "trick", "mafia"):
                counts = spared[x.target in (0, 1)]
                counts[0] += 1
                counts[1] += x.spared
    (n_partner, s_partner), (n_other, s_other) = spared[True], spared[False]
    assert n_partner and n_other
    assert s_partner / n_partner > s_other / n_other + 0.1

"""Every option a player sees speaks plainly.

That every word of it reaches the catalogues is tests/platform/test_i18n.py's (the
registry's words, which ``manage.py makemessages`` extracts).
"""

import re

import pytest

from games import GAMES, get_game

#: a rule number from shared/rules ("D4", "V2", "B10") or a card code ("X1", "QS") has no place in a player's help
CODES = re.compile(r"\b(?:[DBV]\d{1,2}|X\d|[2-9TJQKA][SCDH])\b")


def option_texts():
    for name in GAMES:
        game = get_game(name)
        for option in (*game.options, *game.match_options):
            for text in (option.label, option.help, *option.choice_labels):
                yield pytest.param(text, id=f"{name}.{option.name}:{text[:30]}")


@pytest.mark.parametrize("text", list(option_texts()))
def test_option_words_carry_no_rule_codes(text):
    assert not CODES.search(text), text


def test_every_option_has_a_sentence_of_help():
    for name in GAMES:
        game = get_game(name)
        for option in (*game.options, *game.match_options):
            assert option.help.endswith(".") and len(option.help.split()) >= 5, (name, option.name, option.help)


@pytest.mark.parametrize(
    ("game", "options", "counts"),
    [
        ("durak", None, (2, 3, 4, 5, 6)),
        ("durak", {"deck": 52}, (2, 3, 4, 5, 6, 7, 8)),
        ("biznes", None, (4, 5, 6)),
        ("biznes", {"deck": 36}, (4, 5)),
        ("verish", None, (2, 3, 4, 5, 6)),
    ],
)
def test_seat_counts_are_the_ones_the_engine_accepts(game, options, counts):
    assert get_game(game).seat_counts(options) == counts


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_move_out_of_turn_names_the_seat_to_act_as_pages_number_it(name):
    """Pages number seats from 1 ("seat 1" is the first); a refusal a player can meet says the same."""
    from games import IllegalAction

    state = get_game(name).new(seed=7)
    to_act = state.to_act()[0]
    idle = next(seat for seat in range(state.seats) if seat not in state.to_act())
    action = state.legal_actions(to_act)[0]
    with pytest.raises(IllegalAction) as refused:
        state.apply(idle, action)
    assert refused.value.said is not None  # shown to the player in his language
    assert re.search(rf"\bseat {to_act + 1}\b", str(refused.value)), str(refused.value)

"""A seat's row made in Python (tables.seat_row) is what tables/_seat_row.html draws, in every language."""

import itertools

import pytest
from django.utils import translation

from tables.live import CARDS_SLOT, ROW_TEMPLATE, _draw
from tables.seat_row import row_html

TOP = '<span class="seat-top">A &amp; B</span>'
STANDING = '<span class="standing">1500</span>'


def rows():
    for turn, away, team, cards, badges, dealer, finished, game in itertools.product(
        [False, True],
        [False, True],
        [None, 0, 3],
        [None, CARDS_SLOT],
        [[], [("attacks", "attacks")], [("a<b", "x & 'y'"), ("takes", "takes")]],
        [None, 0, 1],
        [(), [1], [0, 2]],
        [object(), None],
    ):
        p = {
            "index": 1,
            "turn": turn,
            "away": away,
            "team": team,
            "cards": cards,
            "badges": badges,
            "top": translation.gettext("you") if team == 3 else TOP,  # a plain str is escaped, as {{ }} does
            "standing": STANDING,
        }
        yield game, {"dealer": dealer, "roles": None, "tricks": None, "finished": finished}, p


@pytest.mark.parametrize("language", ["en", "ru", "uk"])
def test_a_row_made_in_python_is_the_templates(language):
    with translation.override(language):
        made = 0
        for game, view, p in rows():
            got = row_html(game, view, p, language)
            assert got is not None
            assert got == _draw(ROW_TEMPLATE, {"game": game, "view": view, "p": p})
            made += 1
        assert made > 500


def test_a_row_with_roles_tricks_or_a_counted_number_is_left_to_the_template():
    p = {"index": 0, "turn": True, "away": False, "team": None, "cards": None, "badges": [], "top": "", "standing": ""}
    assert row_html(object(), {"roles": ["thief"]}, p, "en") is None
    assert row_html(object(), {"tricks": [2, 1]}, p, "en") is None
    assert row_html(object(), {}, {**p, "team": "red"}, "en") is None
    assert row_html(object(), {}, {**p, "badges": [("a", 1)]}, "en") is None

"""The create form explains every option in a plain sentence, in the game's own words."""

import html
import re

import pytest
from django.urls import reverse

from games import GAMES, get_game

pytestmark = pytest.mark.django_db

HELP = re.compile(r'<small class="muted">(.*?)</small>', re.S)
CODES = re.compile(r"\b(?:[DBV]\d{1,2}|X\d)\b")


def form_page(client, game: str) -> str:
    return client.get(reverse("table_new"), {"game": game}).content.decode()


@pytest.mark.parametrize("game", list(GAMES))
def test_every_option_shows_its_sentence_and_no_rule_code(host, client_of, game):
    page = form_page(client_of(host), game)
    helps = [html.unescape(h) for h in HELP.findall(page)]
    engine = get_game(game)
    for option in (*engine.options, *engine.match_options):
        if option.kind != "seat":
            assert option.help in helps, option.name
    assert not [h for h in helps if CODES.search(h)]


@pytest.mark.parametrize(("game", "unit"), [("durak", "games"), ("verish", "games"), ("biznes", "deals")])
def test_the_match_length_is_explained_in_the_game_s_unit(host, client_of, game, unit):
    page = form_page(client_of(host), game)
    assert f"How many {unit} the match lasts." in page
    assert "Games (or deals)" not in page

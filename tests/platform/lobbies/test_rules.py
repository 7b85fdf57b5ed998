"""How to play: a page per game, reachable from the lobby, the create form, the waiting room and the table."""

import dataclasses
import html
import re

import pytest
from django.urls import reverse

from games import GAMES, get_game
from lobbies import services

pytestmark = pytest.mark.django_db

CODES = re.compile(r"\b(?:[DBV]\d{1,2}|X\d)\b")


def text_of(page: str) -> str:
    """The words a reader sees: tags, scripts and the top bar's form left out."""
    main = page.split('<main class="page">', 1)[1]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main)))


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_explains_how_to_play_and_every_option(client, game):
    engine = get_game(game)
    resp = client.get(reverse("rules", args=[game]))
    assert resp.status_code == 200
    words = text_of(resp.content.decode())
    assert f"How to play {engine.title}" in words and engine.summary in words
    assert "The aim" in words and "At this table" in words  # the game's own text, not only the options
    for option in (*engine.match_options, *engine.options):
        if option.kind != "seat":
            assert option.label in words and option.help in words, option.name
            for label in option.choice_labels:
                assert label in words
    assert not CODES.search(words), CODES.search(words)


def test_the_index_lists_every_game(client):
    words = text_of(client.get(reverse("rules_index")).content.decode())
    for name in GAMES:
        assert get_game(name).title in words


def test_an_unknown_game_is_not_found(client):
    assert client.get("/rules/poker/").status_code == 404


def test_a_game_without_its_own_text_still_lists_its_options(client, monkeypatch):
    engine = get_game("verish")
    monkeypatch.setattr(engine, "ui", dataclasses.replace(engine.ui, rules=None))
    words = text_of(client.get(reverse("rules", args=["verish"])).content.decode())
    assert "The aim" not in words and engine.options[0].help in words


def test_the_lobby_and_the_create_form_link_to_the_rules(host, client_of):
    client = client_of(host)
    assert f'href="{reverse("rules_index")}"' in client.get(reverse("play")).content.decode()
    assert (
        f'href="{reverse("rules", args=["biznes"])}"'
        in client.get(reverse("play"), {"game": "biznes"}).content.decode()
    )
    form = client.get(reverse("table_new"), {"game": "verish"}).content.decode()
    assert f'href="{reverse("rules", args=["verish"])}"' in form


def test_the_waiting_room_and_the_table_link_to_the_game_s_rules(host, client_of, make_user):
    table = services.table_create(user=host, game="durak", options={}, seats=2, match_options={"fool_rule": "under"})
    client = client_of(host)
    link = f'href="{reverse("rules", args=["durak"])}"'
    assert link in client.get(reverse("lobby_table", args=[table.pk])).content.decode()
    services.seat_join(table_id=table.pk, user=make_user(), index=None, token="")
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert link in page and 'class="link table-sound"' in page

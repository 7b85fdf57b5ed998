"""A profile shows the player's reliability and says in plain words how it is counted."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from reliability.models import Tally
from tests.platform.tables.factories import make_players

pytestmark = pytest.mark.django_db


def block(client, username: str, lang: str = "en") -> str:
    page = client.get(reverse("profile", args=[username]), headers={"accept-language": lang}).content.decode()
    found = re.search(r'<section class="card reliability-block".*?</section>', page, re.S)
    assert found, page[:300]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0))))


def test_a_regular_players_rates_and_how_they_are_counted(client):
    player, viewer = make_players(2, prefix="prof")
    Tally.objects.create(user=player, games=50, finished=47, timed_out=4)
    client.force_login(viewer)
    text = block(client, player.username)
    assert "Finished 94% of the last 50 games with other people; ran out of time in 8% of them." in text
    assert "It looks at the last 50 games a player played with other people" in text
    assert "at least 90% of their games" in text


def test_a_new_player_shows_new_and_in_other_languages(client):
    (player,) = make_players(1, prefix="newb")
    Tally.objects.create(user=player, games=2, finished=2, timed_out=0)
    text = block(client, player.username)
    assert "new 2 games with other people so far: reliability shows after 5." in text
    ru = block(client, player.username, "ru")
    assert "Надёжность" in ru and "new" not in ru.split() and "so far" not in ru
    assert "Надійність" in block(client, player.username, "uk")

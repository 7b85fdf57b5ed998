"""Play against bots offers only the player counts the game's default rules allow."""

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tables.models import Table

pytestmark = pytest.mark.django_db

SEATS = re.compile(r'<label id="quick-seats">.*?</label>', re.S)


def offered(html: str) -> list[int]:
    (block,) = SEATS.findall(html)
    return [int(n) for n in re.findall(r'<option value="(\d+)"', block)]


@pytest.mark.parametrize(
    ("game", "counts"), [("durak", [2, 3, 4, 5, 6]), ("biznes", [4, 5, 6]), ("verish", [2, 3, 4, 5, 6])]
)
def test_the_play_page_offers_the_game_s_counts(host, client_of, game, counts):
    client = client_of(host)
    assert offered(client.get(reverse("play"), {"game": game}).content.decode()) == counts
    # choosing another game in the quick start fetches its counts
    assert offered(client.get(reverse("play_bot_seats"), {"game": game}).content.decode()) == counts


def test_without_a_filter_the_first_game_is_chosen_with_its_counts(host, client_of):
    page = client_of(host).get(reverse("play")).content.decode()
    assert re.search(r'<option value="durak" selected>', page) and offered(page) == [2, 3, 4, 5, 6]


@pytest.mark.parametrize(("game", "seats"), [("durak", 8), ("durak", 7), ("biznes", 2), ("verish", 8)])
def test_a_count_not_offered_is_refused_with_words_and_changes_nothing(host, client_of, game, seats):
    resp = client_of(host).post(reverse("play_against_bots"), {"game": game, "seats": seats})
    assert resp["Location"] == reverse("play") and not Table.objects.exists()
    (message,) = [str(m) for m in get_messages(resp.wsgi_request)]
    assert re.fullmatch(r"[\w ]+ is played by \d to \d players\.", message), message


def test_every_count_offered_starts_a_table(host, client_of):
    for n in (2, 6):
        client_of(host).post(reverse("play_against_bots"), {"game": "durak", "seats": n})
    assert sorted(Table.objects.values_list("seats_count", flat=True)) == [2, 6]

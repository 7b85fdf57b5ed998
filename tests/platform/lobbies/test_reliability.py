"""A table's creator may ask for a minimum reliability: players below it cannot sit, and the lobby says so."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from lobbies import services
from reliability.models import Tally
from tables.models import Seat, Table

pytestmark = pytest.mark.django_db

FORM = {
    "seats": 2,
    "turn_seconds": 60,
    "rated": "on",
    "fool_rule": "under",
    "opt_deck": 36,
    "opt_mode": "throw_in",
    "opt_lead": "same_rank",
    "opt_throw_in": "all",
    "opt_first_bout_limit": 5,
    "opt_bout_limit": 6,
    "opt_trump_show": "on",
}


def text(page: bytes) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.decode())))


def test_the_creator_asks_for_90_percent_and_the_lobby_shows_it(host, client_of):
    page = client_of(host).get(reverse("table_new"), {"game": "durak"}).content.decode()
    assert 'name="min_reliability"' in page and "players who finish at least 90% of their games" in page
    resp = client_of(host).post(reverse("table_new") + "?game=durak", {**FORM, "min_reliability": "90"})
    table = Table.objects.get()
    assert resp.status_code == 302 and table.min_reliability == 90
    wanted = "players who finish at least 90% of their games (new players welcome)"
    assert wanted in text(client_of(host).get(reverse("play")).content)
    assert wanted in text(client_of(host).get(reverse("lobby_table", args=[table.pk])).content)


def test_a_player_below_the_minimum_is_refused_with_the_reason_and_the_seat_stays_free(host, make_user, client_of):
    table = services.table_create(user=host, game="durak", options={}, seats=2, min_reliability=90)
    walker = make_user("walker")
    Tally.objects.create(user=walker, games=40, finished=30, timed_out=2)
    resp = client_of(walker).post(reverse("table_join", args=[table.pk]), follow=True)
    assert (
        "This table is for players who finish at least 90% of their games; you finished 75% of your last 40 games."
        in text(resp.content)
    )
    assert Seat.objects.get(table=table, index=1).user is None


def test_the_refusal_in_russian(host, make_user, client_of):
    table = services.table_create(user=host, game="durak", options={}, seats=2, min_reliability=95)
    walker = make_user("walker")
    Tally.objects.create(user=walker, games=21, finished=19, timed_out=0)
    resp = client_of(walker).post(
        reverse("table_join", args=[table.pk]), follow=True, headers={"accept-language": "ru"}
    )
    page = text(resp.content)
    assert "95%" in page and "90%" in page and "This table is for" not in page
    assert Seat.objects.get(table=table, index=1).user is None


def test_reliable_and_new_players_sit_down(host, make_user):
    table = services.table_create(user=host, game="durak", options={}, seats=3, min_reliability=80)
    steady, newcomer = make_user("steady"), make_user("newcomer")
    Tally.objects.create(user=steady, games=50, finished=40, timed_out=5)  # exactly 80%
    Tally.objects.create(user=newcomer, games=3, finished=0, timed_out=3)  # too few games to judge
    services.seat_join(table_id=table.pk, user=steady)
    services.seat_join(table_id=table.pk, user=newcomer)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_creator_cannot_ask_for_more_than_he_has_nor_for_a_minimum_off_the_list(host):
    Tally.objects.create(user=host, games=10, finished=8, timed_out=0)
    with pytest.raises(services.LobbyRefused, match="lower minimum"):
        services.table_create(user=host, game="durak", options={}, seats=2, min_reliability=90)
    with pytest.raises(services.LobbyRefused, match="from the list"):
        services.table_create(user=host, game="durak", options={}, seats=2, min_reliability=42)
    assert not Table.objects.exists()


def test_the_lobby_shows_each_players_reliability_in_one_query(
    host, make_user, client_of, django_assert_max_num_queries
):
    other = make_user("other")
    Tally.objects.create(user=host, games=50, finished=49, timed_out=1)
    for _ in range(3):
        table = services.table_create(user=host, game="durak", options={}, seats=3)
    services.seat_join(table_id=table.pk, user=other)
    page = text(client_of(other).get(reverse("play_tables")).content)
    assert "finishes 98% timeouts 2%" in page and "new" in page.split()
    from lobbies.selectors import open_tables

    # the tables, their seats, their players, every reliability, and the ratings (a query per game shown)
    with django_assert_max_num_queries(5):
        cards = open_tables()
    assert [s.reliability.finished for c in cards for s in c.seats if s.reliability and not s.reliability.new] == [
        98
    ] * 3


# -- "Play now": reliable players only ------------------------------------------------------------------------


def test_pairing_keeps_an_unreliable_player_from_one_who_asked_for_reliable_players_only():
    from lobbies.pairing import Waiting, full_group

    def nobody_blocked(a: int, b: int) -> bool:
        return False

    picky = Waiting(1, 1000.0, 5.0, reliable_only=True)
    walker = Waiting(2, 1000.0, 4.0, reliable=False)
    steady = Waiting(3, 1000.0, 3.0)
    assert full_group([picky, walker], 2, True, nobody_blocked) is None
    assert full_group([picky, walker, steady], 2, True, nobody_blocked) == [picky, steady]
    # a player who did not ask sits with anyone
    assert full_group([walker, steady], 2, True, nobody_blocked) == [walker, steady]


def test_the_queue_pairs_a_reliable_only_seek_with_reliable_and_new_players_only(make_user):
    picky, walker, steady = make_user("picky"), make_user("walker"), make_user("steady")
    Tally.objects.create(user=walker, games=30, finished=20, timed_out=6)
    Tally.objects.create(user=steady, games=30, finished=29, timed_out=0)
    assert services.seek_join(user=picky, game="durak", seats=2, reliable_only=True) is None
    assert services.seek_join(user=walker, game="durak", seats=2) is None  # 66%: not for him
    table = services.seek_join(user=steady, game="durak", seats=2)
    assert table is not None
    assert set(table.seats.values_list("user__username", flat=True)) == {"picky", "steady"}
    # the walker still waits; a newcomer asking for reliable players is not paired with him either
    newcomer = make_user("newcomer")
    assert services.seek_join(user=newcomer, game="durak", seats=2, reliable_only=True) is None


def test_the_play_now_form_offers_it_in_plain_words(client_of, make_user):
    page = client_of(make_user()).get(reverse("play"), {"game": "durak"}).content.decode()
    assert 'name="reliable_only"' in page and "Reliable players only" in page
    assert "finish at least 90% of their games (new players too)" in page


def test_the_lobby_shows_each_players_rating_for_the_tables_game(host, make_user, client_of):
    from django.utils import timezone

    from leaderboards.models import PlayerRating

    now = timezone.now()
    PlayerRating.objects.create(user=host, game="durak", mu=40, sigma=3, rating=1234.4, games=30, updated_at=now)
    PlayerRating.objects.create(user=host, game="verish", mu=40, sigma=3, rating=1500, games=30, updated_at=now)
    table = services.table_create(user=host, game="durak", options={}, seats=3)
    services.seat_join(table_id=table.pk, user=make_user("fresh"))
    lobby = text(client_of(host).get(reverse("play_tables")).content)
    assert "Host 1234" in lobby and "1500" not in lobby
    assert "1000 ? provisional" in lobby  # a player with no rated game of it starts where every newcomer does
    room = text(client_of(host).get(reverse("lobby_table", args=[table.pk])).content)
    assert "1234" in room and "1000 ? provisional" in room


def test_a_player_whose_rate_fell_while_he_waited_is_unseated_when_the_table_fills(host, make_user):
    """Reliability is checked again as a full table starts: he sat down at 90%, then walked out of other games."""
    table = services.table_create(user=host, game="durak", options={}, seats=3, min_reliability=90)
    waiting, last = make_user("waiting"), make_user("last")
    Tally.objects.create(user=waiting, games=40, finished=40, timed_out=0)
    services.seat_join(table_id=table.pk, user=waiting)
    Tally.objects.filter(user=waiting).update(finished=30)  # 75% now
    services.seat_join(table_id=table.pk, user=last)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert set(table.seats.exclude(user=None).values_list("user__username", flat=True)) == {host.username, "last"}


def test_a_reliable_only_seek_is_paired_on_the_rates_at_the_pairing_not_at_the_join(make_user):
    picky, other = make_user("picky"), make_user("other")
    Tally.objects.create(user=other, games=40, finished=40, timed_out=0)
    assert services.seek_join(user=other, game="durak", seats=2) is None
    Tally.objects.filter(user=other).update(finished=30)  # his rate fell while he waited
    assert services.seek_join(user=picky, game="durak", seats=2, reliable_only=True) is None
    assert not Table.objects.exists()

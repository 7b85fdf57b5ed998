"""A profile seen by another signed-in player shows their record against each other: per game, the matches they
finished together and who ended ahead by the game's own final places."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import MatchScore
from scoring.selectors import Record, head_to_head
from tables.models import Game, Match
from tests.platform.tables.factories import make_players, play_randomly, started_table

pytestmark = pytest.mark.django_db


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_record_counts_ahead_behind_and_level_per_game_from_the_final_places():
    a, b, c = make_players(3, prefix="h2h")
    for places in ({a: 1, b: 2}, {a: 2, b: 1}, {a: 1, b: 1}, {a: 1, b: 3, c: 2}):
        match = Match.objects.create(table=started_table("durak", 2)[0])
        for seat, (user, place) in enumerate(places.items()):
            MatchScore.objects.create(
                match=match, seat=seat, user=user, game="durak", place=place, finished_at=timezone.now()
            )
    bot_seat = Match.objects.create(table=started_table("durak", 2)[0])
    MatchScore.objects.create(match=bot_seat, seat=0, user=a, game="durak", place=1, finished_at=timezone.now())
    MatchScore.objects.create(match=bot_seat, seat=1, user=None, game="durak", place=2, finished_at=timezone.now())
    assert head_to_head(a.pk, b.pk) == [Record("durak", together=4, ahead=2, behind=1, level=1)]
    assert head_to_head(b.pk, a.pk) == [Record("durak", together=4, ahead=1, behind=2, level=1)]
    assert head_to_head(b.pk, c.pk) == [Record("durak", together=1, ahead=0, behind=1, level=0)]


def test_an_annulled_game_does_not_count():
    a, b = make_players(2, prefix="ann")
    _table, _, game = started_table("durak", 2, players=[a, b])
    Game.objects.filter(pk=game.pk).update(annulled=True)
    for seat, (user, place) in enumerate(((a, 1), (b, 2))):
        MatchScore.objects.create(
            match=game.match, seat=seat, user=user, game="durak", place=place, finished_at=timezone.now()
        )
    assert head_to_head(a.pk, b.pk) == []


def test_after_a_game_each_sees_his_side_of_it_on_the_others_profile_and_nobody_else_does(client):
    a, b = make_players(2, prefix="duo")
    _table, _, game = started_table("durak", 2, players=[a, b])
    play_randomly(game, random.Random(3))
    a_place = MatchScore.objects.get(user=a).place
    b_place = MatchScore.objects.get(user=b).place
    a_ahead, b_ahead = int(a_place < b_place), int(b_place < a_place)

    seen_by_b = login(b).get(reverse("profile", args=[a.username])).content.decode()
    assert "You and Player 0" in seen_by_b and "Durak" in seen_by_b
    assert "Played together: 1" in seen_by_b
    assert f"you finished ahead: {b_ahead}" in seen_by_b and f"Player 0 finished ahead: {a_ahead}" in seen_by_b
    seen_by_a = login(a).get(reverse("profile", args=[b.username])).content.decode()
    assert f"you finished ahead: {a_ahead}" in seen_by_a

    assert "head-to-head" not in login(a).get(reverse("profile", args=[a.username])).content.decode()
    assert "head-to-head" not in client.get(reverse("profile", args=[a.username])).content.decode()
    (stranger,) = make_players(1, prefix="stranger")
    html = (
        login(stranger).get(reverse("profile", args=[a.username]), headers={"accept-language": "ru"}).content.decode()
    )
    assert "Вы ещё не доиграли ни одной партии с игроком Player 0." in html  # noqa: RUF001

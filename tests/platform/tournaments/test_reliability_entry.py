"""An event's organizer may ask for a minimum reliability: a player who walks out of too many games cannot enter."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from reliability.models import Tally
from tests.platform.tables.factories import make_players
from tests.platform.tournaments.factories import event, organizer, post_event_form
from tournaments import services
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def test_the_organizer_sets_it_on_the_form_and_the_event_page_shows_it(client):
    owner = organizer()
    client.force_login(owner)
    page = client.get(reverse("tournament_new") + "?game=durak").content.decode()
    assert 'name="min_reliability"' in page
    post_event_form(client, "durak", timezone.now() + timedelta(hours=3), name="Steady players", min_reliability=95)
    t = Tournament.objects.get()
    assert t.min_reliability == 95
    page = client.get(reverse("tournament", args=[t.pk])).content.decode()
    assert "players who finish at least 95% of their games (new players welcome)" in page


def test_a_player_below_it_is_refused_with_his_figures_and_others_enter(client):
    t = event(organizer(), min_reliability=90)
    walker, steady, newcomer = make_players(3, prefix="rel")
    Tally.objects.create(user=walker, games=50, finished=40, timed_out=9)
    Tally.objects.create(user=steady, games=50, finished=46, timed_out=0)
    client.force_login(walker)
    page = client.post(reverse("tournament_register", args=[t.pk]), follow=True).content.decode()
    assert (
        "This event is for players who finish at least 90% of their games; you finished 80% of your last 50 games."
        in page
    )
    assert not Registration.objects.filter(user=walker).exists()
    for player in (steady, newcomer):
        services.registration_join(tournament_id=t.pk, user=player)
    assert set(Registration.objects.values_list("user__username", flat=True)) == {steady.username, newcomer.username}


def test_a_minimum_off_the_list_is_refused():
    with pytest.raises(services.TournamentRefused, match="from the list"):
        event(organizer(), min_reliability=33)

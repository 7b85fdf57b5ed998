"""The event pages through Django's test client: create, register, the live part, organizer-only actions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.platform.tables.factories import make_players
from tests.platform.tournaments.factories import event, organizer, play_round_out, post_event_form
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_an_organizer_creates_an_event_from_the_form(client):
    owner = organizer()
    client.force_login(owner)
    page = client.get(reverse("tournament_new") + "?game=biznes")
    assert page.status_code == 200 and b"opt_" in page.content
    response = post_event_form(
        client,
        "biznes",
        timezone.now() + timedelta(hours=2),
        name="Biznes cup",
        format="cumulative",
        fill="bots",
        rounds=2,
        games_per_round=4,
    )
    assert response.status_code == 302, response.context["form"].errors
    t = Tournament.objects.get(name="Biznes cup")
    assert response.status_code == 302 and response["Location"] == t.get_absolute_url()
    assert t.game == "biznes" and t.format == "cumulative" and t.options  # the engine's validated options


def test_a_player_cannot_create_events(client):
    client.force_login(make_players(1, prefix="plain")[0])
    assert client.get(reverse("tournament_new")).status_code == 302
    assert not Tournament.objects.exists()


def test_register_and_see_the_event(client):
    t = event(organizer())
    player = make_players(1, prefix="viewer")[0]
    client.force_login(player)
    assert t.name.encode() in client.get(reverse("tournaments")).content
    client.post(reverse("tournament_register", args=[t.pk]))
    page = client.get(t.get_absolute_url())
    assert b"You are registered." in page.content
    assert str(player).encode() in client.get(reverse("tournament_live", args=[t.pk])).content


def test_invite_only_events_are_hidden(client):
    t = event(organizer(), private=True)
    client.force_login(make_players(1, prefix="outsider")[0])
    assert client.get(t.get_absolute_url()).status_code == 404
    assert client.get(t.get_absolute_url() + f"?invite={t.invite_token}").status_code == 200


def test_organizer_controls_and_csv(client):
    owner = organizer()
    t = event(owner, rounds=1)
    players = make_players(4, prefix="csv")
    for p in players:
        services.registration_join(tournament_id=t.pk, user=p)
    client.force_login(players[0])
    client.post(reverse("tournament_next_round", args=[t.pk]))
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.REGISTRATION  # not his to start
    assert client.get(reverse("tournament_export", args=[t.pk])).status_code == 404
    client.force_login(owner)
    client.post(reverse("tournament_next_round", args=[t.pk]), {"confirm": "yes"})
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    client.post(reverse("tournament_announce", args=[t.pk]), {"text": "Round 1: good luck"})
    assert t.announcements.get().text == "Round 1: good luck"
    play_round_out(t)
    services.tournament_advance(t.pk)
    csv = client.get(reverse("tournament_export", args=[t.pk]))
    assert csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert len(lines) == 5 and lines[0].endswith("round_1")
    page = client.get(t.get_absolute_url()).content.decode()
    assert "replay 1" in page and "Finished" in page


def test_the_form_and_page_speak_in_the_game_s_own_words(client):
    """Match options, the match unit and the tiebreak's loss count come from the game module, not a name switch."""
    owner = organizer()
    client.force_login(owner)
    durak_form = client.get(reverse("tournament_new") + "?game=durak").context["form"]
    assert "fool_rule" in durak_form.fields and durak_form.fields["games_per_round"].label == "Games per round"
    assert [c for c, _ in durak_form.fields["format"].choices] == ["swiss", "knockout"]
    biznes_form = client.get(reverse("tournament_new") + "?game=biznes").context["form"]
    assert "fool_rule" not in biznes_form.fields and biznes_form.fields["games_per_round"].label == "Deals per round"

    durak = event(owner, games_per_round=3, match_options={"fool_rule": "from"})
    assert durak.match_options == {"fool_rule": "from"}
    services.registration_join(tournament_id=durak.pk, user=make_players(1, prefix="words")[0])
    page = client.get(durak.get_absolute_url()).content.decode()
    assert "3 games per round" in page and '<th class="num">Fools</th>' in page and "fewest fools" in page
    biznes = event(owner, game="biznes", format=Tournament.Format.CUMULATIVE, games_per_round=1)
    services.registration_join(tournament_id=biznes.pk, user=make_players(1, prefix="biznes-words")[0])
    page = client.get(biznes.get_absolute_url()).content.decode()
    assert 'id="standings"' in page and "1 deal per round" in page and "Biznes points over all rounds" in page
    assert "Fools" not in page and "fewest" not in page  # Biznes scores points: no one is the fool


def test_a_match_option_the_game_does_not_declare_is_refused():
    with pytest.raises(services.TournamentRefused):
        event(organizer(), match_options={"fool_rule": "sideways"})
    with pytest.raises(services.TournamentRefused):
        event(organizer(), game="biznes", match_options={"fool_rule": "under"})

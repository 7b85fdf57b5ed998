"""A mute covers everything a player publishes: chat, display name, bio, announcements, event texts,
challenges; each refusal says until when, and changes nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.models import User
from moderation import services as moderation
from moderation.selectors import standing_forget
from social.models import Challenge, Profile
from tests.platform.tables.factories import make_players
from tests.platform.tournaments.factories import event, organizer
from tournaments.models import Announcement, Tournament

pytestmark = pytest.mark.django_db

MUTED = "A moderator muted you until"


@pytest.fixture(autouse=True)
def fresh_standing():
    yield
    for uid in User.objects.values_list("pk", flat=True):
        standing_forget(uid)


def mute(user) -> None:
    (mod,) = make_players(1, prefix="mod")
    moderation.user_mute(user, by=mod, reason="spam", minutes=60)


def test_a_muted_player_cannot_change_his_display_name_or_bio_and_is_told_until_when(client):
    (player,) = make_players(1, prefix="m")
    mute(player)
    client.force_login(player)
    for data in ({"display_name": "BUY GOLD NOW", "bio": ""}, {"display_name": "Player 0", "bio": "buy gold"}):
        response = client.post(reverse("profile_edit"), {**data, "avatar": "spade"})
        assert response.status_code == 200
        text = response.content.decode()
        assert MUTED in text and "UTC" in text, re.findall(r"<li class=.error.>(.*?)</li>", text)
    assert User.objects.get(pk=player.pk).display_name == "Player 0"
    assert not Profile.objects.filter(user=player, bio="buy gold").exists()
    # what publishes nothing stays his to change
    response = client.post(reverse("profile_edit"), {"display_name": "Player 0", "bio": "", "avatar": "heart"})
    assert response.status_code == 302 and Profile.objects.get(user=player).avatar == "heart"


def test_a_muted_organizer_cannot_announce_or_rename_his_event(client):
    owner = organizer()
    t = event(owner)
    mute(owner)
    client.force_login(owner)
    page = client.post(reverse("tournament_announce", args=[t.pk]), {"text": "spam for every table"}, follow=True)
    text = page.content.decode()
    assert MUTED in text and "UTC" in text
    assert not Announcement.objects.filter(tournament=t).exists()
    form = client.get(reverse("tournament_edit", args=[t.pk])).context["form"]
    data = {n: form[n].value() for n in form.fields}
    data = {k: v.strftime("%Y-%m-%dT%H:%M") if hasattr(v, "strftime") else v for k, v in data.items()}
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    data["name"] = "Spam cup"
    response = client.post(reverse("tournament_edit", args=[t.pk]), data, follow=True)
    assert MUTED in response.content.decode()
    assert Tournament.objects.get(pk=t.pk).name == "Friday Durak"


def test_a_muted_players_challenge_is_refused_saying_until_when(client):
    me, other = make_players(2, prefix="c")
    mute(me)
    client.force_login(me)
    form = client.get(reverse("challenge_new", args=[other.username]) + "?game=durak").context["form"]
    data = {n: form[n].value() for n in form.fields}
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    response = client.post(reverse("challenge_new", args=[other.username]) + "?game=durak", data)
    text = response.content.decode()
    assert MUTED in text and "UTC" in text
    assert not Challenge.objects.exists()

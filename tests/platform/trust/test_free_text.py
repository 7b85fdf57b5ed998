"""Free text (reports, announcements, event names and descriptions, bios, chat) is stored without NUL, control
characters or bidi overrides, and within its length; too long is refused with a message saying so."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from moderation.models import Report
from social.models import Profile
from tests.platform.tables.factories import make_players, started_table
from tests.platform.tournaments.factories import event, organizer
from tournaments.models import Announcement, Tournament

pytestmark = pytest.mark.django_db

DIRTY = "look\x00 at\u202e this\x07 \u200bnow\x1b[31m"
CLEAN = "look at this now[31m"
BAD = ("\x00", "\u202e", "\x07", "\u200b", "\x1b")


def test_a_reports_text_is_stored_clean(client):
    table, players, _game = started_table("durak", 2)
    client.force_login(players[0])
    client.post(
        reverse("report_new"),
        {"reported": players[1].username, "reason": "abuse", "text": DIRTY, "table": table.pk},
    )
    assert Report.objects.get().text == CLEAN
    (other,) = make_players(1, prefix="other")
    long = client.post(
        reverse("report_new"),
        {"reported": other.username, "reason": "abuse", "text": "x" * 1001},
        follow=True,
    )
    assert "At most 1000 characters, please (this has 1001)" in long.content.decode()
    assert not Report.objects.filter(reported=other).exists()


def test_a_bio_keeps_its_lines_but_no_invisible_characters(client):
    (player,) = make_players(1, prefix="bio")
    client.force_login(player)
    response = client.post(
        reverse("profile_edit"), {"display_name": "", "bio": "line one\u202e\x00\r\nline\u2066 two", "avatar": "spade"}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Profile.objects.get(user=player).bio == "line one\nline two"


def test_an_announcement_and_an_events_name_and_description_are_stored_clean(client):
    owner = organizer()
    t = event(owner)
    client.force_login(owner)
    client.post(reverse("tournament_announce", args=[t.pk]), {"text": DIRTY})
    assert Announcement.objects.get(tournament=t).text == CLEAN

    def stamp(moment):
        return (timezone.localtime(moment) if timezone.is_aware(moment) else moment).strftime("%Y-%m-%dT%H:%M")

    form = client.get(reverse("tournament_edit", args=[t.pk])).context["form"]
    data = {name: field.value() for name, field in ((n, form[n]) for n in form.fields)}
    data = {k: (stamp(v) if hasattr(v, "strftime") else v) for k, v in data.items() if v is not None and v is not False}
    data.update({"name": "Friday\x00 \u202eDurak", "description": "Bring\x1b friends\u2067.\n\n\n\nSee you"})
    response = client.post(reverse("tournament_edit", args=[t.pk]), data)
    assert response.status_code == 302, response.context["form"].errors
    t = Tournament.objects.get(pk=t.pk)
    assert (t.name, t.description) == ("Friday Durak", "Bring friends.\n\nSee you")
    assert not any(c in t.name + t.description for c in BAD)

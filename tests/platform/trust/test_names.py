# ruff: noqa: RUF001, RUF003  (look-alike characters are this file's subject)
"""Display names cannot lie: no bidi or invisible characters, no blank names, nothing that looks like another
account's username or display name; chat lines and seats isolate names and link to the real account."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import User
from chat.models import ChatMessage
from chat.services import chat_post
from tests.platform.tables.factories import make_players, started_table

pytestmark = pytest.mark.django_db

LIES = [
    "\u202enimda",  # shown as "admin", and turns the rest of the chat line around
    "ad\u200bmin",
    "\u200b",  # a line with no visible sender
    "\u3164",  # a Hangul filler: a letter that draws nothing
    "x",  # too short to tell apart
    "demo",  # another account's username
    "DEMO",
    "dеmo",  # with a Cyrillic е
    "Dem0",
    "Ｄｅｍｏ",  # fullwidth
    "Anna  Petrova",  # another account's display name, spaced out
    "anna-petrova",
    "Admin",  # names reserved for the site, account or not
    "Moderator",
    "SYSTEM",
]


@pytest.fixture
def others():
    demo = User.objects.create_user("demo", "demo@example.com", "pw-cards-123", display_name="Demo Player")
    anna = User.objects.create_user("anna", "anna@example.com", "pw-cards-123", display_name="Anna Petrova")
    return demo, anna


@pytest.mark.parametrize("name", LIES)
def test_the_profile_form_refuses_a_name_that_lies(client, others, name):
    (player,) = make_players(1, prefix="liar")
    client.force_login(player)
    response = client.post(reverse("profile_edit"), {"display_name": name, "bio": "", "avatar": "spade"})
    assert response.status_code == 200  # the form again, with its error
    assert response.context["form"].errors["display_name"]
    assert User.objects.get(pk=player.pk).display_name == "Player 0"


def test_names_are_normalized_and_ones_own_username_is_no_conflict(client, others):
    (player,) = make_players(1, prefix="nf")
    client.force_login(player)
    client.post(reverse("profile_edit"), {"display_name": "  Ｍａｒｙ   Ann ", "bio": "", "avatar": "spade"})
    assert User.objects.get(pk=player.pk).display_name == "Mary Ann"
    client.post(reverse("profile_edit"), {"display_name": "NF0-P0", "bio": "", "avatar": "spade"})
    assert User.objects.get(pk=player.pk).display_name == "NF0-P0"  # looks like his own username: fine


def test_sign_up_refuses_a_lying_display_name_and_a_look_alike_username(client, others):
    def sign_up(username: str, display_name: str):
        return client.post(
            reverse("account_signup"),
            {
                "username": username,
                "email": f"{username}@example.com",
                "display_name": display_name,
                "password1": "correct-horse-battery",
                "password2": "correct-horse-battery",
            },
        )

    assert sign_up("mallory", "\u202enimda").status_code == 200
    assert sign_up("mallory", "Demo Player").status_code == 200
    assert sign_up("dem0", "").status_code == 200  # the username itself passes for "demo"
    assert not User.objects.filter(username__in=["mallory", "dem0"]).exists()
    assert sign_up("mallory", "Mallory").status_code == 302


def test_chat_lines_and_seats_isolate_the_name_and_link_to_the_account(client):
    table, players, _game = started_table("durak", 2)
    # a name stored before these rules (or by the admin) still cannot turn the line around
    User.objects.filter(pk=players[1].pk).update(display_name="\u202enimda")
    chat_post(
        user=User.objects.get(pk=players[1].pk), channel=ChatMessage.Channel.PLAYERS, table_id=table.pk, text="hi"
    )
    client.force_login(players[0])
    html = client.get(reverse("table", args=[table.pk])).content.decode()
    profile = reverse("profile", args=[players[1].username])
    assert f'href="{profile}"' in html
    assert "<bdi>\u202enimda</bdi>" in html
    line = html[html.index('class="chat-line"') :]
    line = line[: line.index("</p>")]
    assert f'href="{profile}"' in line and "<bdi>" in line

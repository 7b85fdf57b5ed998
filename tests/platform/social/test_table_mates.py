"""Friend requests from the table page: each other human player, with where he stands with me."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.platform.tables.factories import started_table

pytestmark = pytest.mark.django_db


def page_of(user, table) -> tuple[Client, str]:
    client = Client()
    client.force_login(user)
    return client, client.get(reverse("table", args=[table.pk])).content.decode()


def mate_block(html: str, username: str) -> str:
    start = html.index(f'data-user="{username}"')
    return html[start : html.index("</li>", start)]


def test_a_friend_request_is_sent_and_accepted_from_the_table():
    table, (alice, boris), _ = started_table("durak", 2)
    client, page = page_of(alice, table)
    assert 'value="add"' in mate_block(page, boris.username)
    assert f'data-user="{alice.username}"' not in page.split('class="table-mates"')[1]  # not myself

    url = reverse("table", args=[table.pk])
    sent = client.post(reverse("friend_action", args=[boris.username]), {"action": "add", "next": url})
    assert sent.status_code == 302 and sent["Location"] == url
    assert "Friend request sent" in mate_block(page_of(alice, table)[1], boris.username)

    boris_client, boris_page = page_of(boris, table)
    assert 'value="accept"' in mate_block(boris_page, alice.username)
    boris_client.post(reverse("friend_action", args=[alice.username]), {"action": "accept", "next": url})
    for me, other in ((alice, boris), (boris, alice)):
        assert "Friends" in mate_block(page_of(me, table)[1], other.username)


def test_bots_and_spectators_get_no_friend_buttons():
    table, (alice, _), _ = started_table("durak", 2)
    anonymous = Client().get(reverse("table", args=[table.pk])).content.decode()
    assert 'class="table-mates"' not in anonymous
    table.seats.filter(index=1).update(user=None, bot_level="heuristic")
    assert 'class="table-mates"' not in page_of(alice, table)[1]  # the only other seat is a bot

"""The table page, the replay and a profile show the panels the apps above them register (``tables.parts``,
``social.panels``), to the readers they are for, in the layers' order."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from chat.models import ChatMessage
from social import services as social
from tests.platform.tables.factories import make_players, play_randomly, started_table

pytestmark = pytest.mark.django_db


def html_of(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def test_a_player_sees_the_chat_then_his_table_mates_then_the_report_form(client):
    table, players, _game = started_table("durak", 2)
    ChatMessage.objects.create(table=table, user=players[1], channel=ChatMessage.Channel.PLAYERS, text="good luck")
    client.force_login(players[0])
    html = html_of(client.get(reverse("table", args=[table.pk])))
    chat, mates, report = (
        html.find('id="table-chat"'),
        html.find('class="table-mates"'),
        html.find('class="report-box"'),
    )
    assert -1 < chat < mates < report, (chat, mates, report)
    assert "good luck" in html
    assert 'value="add"' in html  # a friend request to the other player, from the table
    assert f'<option value="{players[1].username}">' in html


def test_a_visitor_reads_the_chat_but_gets_no_friend_or_report_panel(client):
    table, players, _game = started_table("durak", 2)
    ChatMessage.objects.create(table=table, user=players[1], channel=ChatMessage.Channel.PLAYERS, text="good luck")
    html = html_of(client.get(reverse("table", args=[table.pk])))
    assert 'id="table-chat"' in html and "good luck" in html
    assert 'class="table-mates"' not in html and 'class="report-box"' not in html


def test_a_blocked_table_mate_shows_as_blocked(client):
    table, players, _game = started_table("durak", 2)
    social.block_add(players[0], players[1])
    client.force_login(players[0])
    html = html_of(client.get(reverse("table", args=[table.pk])))
    assert "Blocked" in html and 'value="add"' not in html


def test_the_players_chat_shows_under_a_replay_to_its_players_only(client):
    table, players, game = started_table("durak", 2)
    ChatMessage.objects.create(table=table, user=players[1], channel=ChatMessage.Channel.PLAYERS, text="well played")
    game = play_randomly(game, random.Random(3))
    url = reverse("replay", args=[game.pk])
    client.force_login(players[0])
    assert "well played" in html_of(client.get(url))
    (outsider,) = make_players(1, prefix="out")
    client.force_login(outsider)
    html = html_of(client.get(url))
    assert "well played" not in html and "replay-chat" not in html


def test_a_profile_offers_the_report_form_to_another_player_only(client):
    player, other = make_players(2, prefix="pr")
    url = reverse("profile", args=[player.username])
    assert 'class="report-box"' not in html_of(client.get(url))  # nobody signed in
    client.force_login(player)
    assert 'class="report-box"' not in html_of(client.get(url))  # his own profile
    client.force_login(other)
    html = html_of(client.get(url))
    assert 'class="report-box"' in html and f'<option value="{player.username}">' in html


def test_the_play_page_lists_the_games_being_played_between_the_bots_and_the_open_tables(client):
    running, _players, _game = started_table("durak", 2)
    started_table("durak", 2, private=True)
    html = html_of(client.get(reverse("play")))
    bots, watch, tables = html.find("lobby-bots"), html.find("lobby-watch"), html.find('id="lobby-tables"')
    assert -1 < bots < watch < tables, (bots, watch, tables)
    assert html.count('class="live-game"') == 1 and f'data-table="{running.pk}"' in html

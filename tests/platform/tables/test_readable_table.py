"""A table a new player can read -- bots by name, teams by colour, what is happening in words."""

from __future__ import annotations

import random
import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from accounts.bots import BOT_NAMES
from games import get_game
from tables.models import Game, Move, Seat, Table
from tables.selectors import seat_view, socket_state
from tables.services import table_apply_action
from tests.platform.tables.factories import make_players, play_randomly, started_table

pytestmark = pytest.mark.django_db


def page_of(table: Table, user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("table", args=[table.pk])).content.decode()


def act(game: Game, seat: int, action: dict) -> Game:
    game.refresh_from_db()
    table_apply_action(game.pk, seat, game.move_number, action)
    game.refresh_from_db()
    return game


def test_bot_seats_without_an_account_still_show_distinct_names_with_their_level():
    (host,) = make_players(1, prefix="host")
    table = Table.objects.create(game="biznes", options={}, seats_count=6, created_by=host)
    Seat.objects.create(table=table, index=0, user=host)
    for index in range(1, 6):
        Seat.objects.create(table=table, index=index, bot_level="strong" if index % 2 else "random")
    players = socket_state(table.pk, host)["players"]
    names = [p["name"] for p in players[1:]]
    assert len(set(names)) == 5 and all(n in BOT_NAMES for n in names)
    assert [str(p["level"]) for p in players[1:]] == ["strong", "random", "strong", "random", "strong"]


def test_while_the_defender_takes_the_board_says_so_and_not_who_attacks():
    table, players, game = started_table("durak", 2)
    attacker = seat_view(game, None)["view"]["attacker"]
    defender = 1 - attacker
    lead = next(a for a in seat_view(game, attacker)["legal"] if a["type"] == "attack")
    game = act(game, attacker, lead)
    game = act(game, defender, {"type": "take"})
    assert seat_view(game, None)["view"]["phase"] == "taking"
    page = page_of(table, players[attacker])
    bout = re.search(r'<p class="bout-who">(.*?)</p>', page, re.S).group(1)
    assert "takes — others may add cards" in bout and players[defender].name in bout and "attacks" not in bout
    seat = re.search(rf'<li class="seat[^"]*" data-seat="{defender}".*?</li>', page, re.S).group(0)
    assert '<span class="badge take">takes</span>' in seat and "defends" not in seat


def test_team_durak_names_the_losing_team_on_the_board_the_sheet_and_the_profile():
    table, players, game = started_table("durak", 4, {"teams": True})
    page = page_of(table, players[0])
    # the teams by colour from the first move: every seat carries its team
    assert page.count('badge team team-0">Blue team') == 2 and page.count('badge team team-1">Orange team') == 2
    game = play_randomly(game, random.Random(3))
    for _ in range(5):  # the deck is shuffled for real: a rare draw is played again at a new table
        if not game.result.get("draw"):
            break
        table, players, game = started_table("durak", 4, {"teams": True})
        game = play_randomly(game, random.Random(3))
    result = game.result
    losing = result["losing_team"]
    losers = [s for s in range(4) if s % 2 == losing]
    page = page_of(table, players[0])
    label = ["Blue team", "Orange team"][losing]
    status = re.search(r'<div id="table-status".*?</div>', page, re.S).group(0)
    assert f"The {label} (" in status and "lost the game" in status
    for s in losers:
        assert players[s].name in status
    sheet = socket_state(table.pk, players[0])["sheet"]
    assert sheet["rows"][0]["losers"] == losers
    assert sheet["totals"] == [1 if s in losers else 0 for s in range(4)]
    body = re.search(r"<tbody>(.*?)</tbody>", page, re.S).group(1)
    assert body.count("<strong>fool</strong>") == 2
    # the profile's history: the team's result, with the partner's name
    loser, partner = players[losers[0]], players[losers[1]]
    history = Client().get(reverse("profile_games", args=[loser.username])).content.decode()
    assert "team lost" in history and f"with {partner.name}" in history
    winner = players[1 - losing]
    history = Client().get(reverse("profile_games", args=[winner.username])).content.decode()
    assert "team won" in history


def test_a_refused_banker_request_is_told_in_the_log_and_on_the_board_and_roles_have_help():
    table, players, game = started_table("biznes", 4)  # 36 cards: no widow, no discard
    view = seat_view(game, None)["view"]
    bidder = view["to_act"][0]
    game = act(game, bidder, {"type": "bid", "tricks": 2, "suit": "H"})
    for _ in range(3):
        game = act(game, seat_view(game, None)["view"]["to_act"][0], {"type": "pass"})
    assert seat_view(game, None)["view"]["phase"] == "declare"
    game = act(game, bidder, {"type": "declare", "banker": True})
    chooser = seat_view(game, None)["view"]["to_act"][0]
    page = page_of(table, players[chooser])
    assert "Partner of the declarer: you score exactly what the declarer scores." in page
    assert "You score one point for each trick you take." in page
    for role in ("thief", "policeman", "thief"):
        game = act(game, seat_view(game, None)["view"]["to_act"][0], {"type": "role", "role": role})
    last = Move.objects.filter(game=game).order_by("-number").first()
    assert "nobody took the banker: the contract drops to 1♥" in last.text
    view = seat_view(game, None)["view"]
    assert view["contract"]["tricks"] == 1
    page = page_of(table, players[0])
    assert "(one less: nobody took the banker)" in page


def biznes_at_change(rng: random.Random):
    """A 4-seat deal played at random until its declarer may call the trump change (B6)."""
    engine = get_game("biznes")
    for seed in range(200):
        state = engine.new(options={}, seats=4, seed=seed)
        for _ in range(400):
            if state.is_over():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if any(a["type"] == "change" for a in legal) and state.banker is not None:
                return state, seat
            plays = [a for a in legal if a["type"] != "change"]
            state.apply(seat, rng.choice(plays or legal))
    raise AssertionError("no deal reached a change")


def test_a_trump_change_is_named_only_once_known_and_logged_with_the_role_swap():
    state, declarer = biznes_at_change(random.Random(11))
    old = state.trump
    banker = state.banker
    players = [{"index": s, "name": f"P{s}", "team": None} for s in range(4)]
    assert state.describe(declarer, {"type": "change"}) == "calls a change; the banker names the new trump"
    state.apply(declarer, {"type": "change"})
    board = render_to_string("tables/boards/biznes.html", {"view": state.view(None), "players": players})
    assert f"changing: P{banker} names the new trump" in board and "changed from" not in board
    new = next(s for s in "SCDH" if s != old)
    words = state.describe(banker, {"type": "trump", "suit": new})
    assert words.startswith("names ") and "instead of" in words and "becomes the declarer" in words
    state.apply(banker, {"type": "trump", "suit": new})
    board = render_to_string("tables/boards/biznes.html", {"view": state.view(None), "players": players})
    assert "changed from" in board and "changing:" not in board


def test_one_trick_is_one_trick():
    html = render_to_string(
        "tables/_seats.html",
        {
            "game": True,
            "view": {"tricks": [1, 2, 0, 0], "over": False},
            "players": [{"index": s, "name": f"P{s}", "badges": [], "team": None} for s in range(4)],
        },
    )
    assert "1 trick<" in html and "1 tricks" not in html and "2 tricks" in html


def test_the_move_log_shows_words_not_engine_codes():
    from games.cards import card_name

    state = get_game("biznes").new(options={"deck": 54}, seats=4, seed=1)
    assert state.describe(0, {"type": "play", "card": "X1", "as": "AH"}) == "plays the joker as AH"
    assert card_name("X1") == card_name("X2") == "the joker"


def test_sign_up_errors_sit_under_their_own_field():
    page = (
        Client()
        .post(
            reverse("account_signup"),
            {"email": "not-an-address", "username": "a b", "password1": "x", "password2": "y"},
        )
        .content.decode()
    )
    order = [
        page.index('id="id_email"'),
        page.index("Enter a valid email address."),
        page.index('id="id_username"'),
        page.index("Enter a valid username."),
        page.index('id="id_display_name"'),
        page.index('id="id_password1"'),
        page.index("This password is too short."),
        page.index('id="id_password2"'),
    ]
    assert order == sorted(order), "an error is shown away from its field"


def test_the_waiting_room_shows_the_teams_by_colour():
    from lobbies.services import table_create

    (host,) = make_players(1, prefix="wait")
    table = table_create(user=host, game="durak", options={"teams": True}, seats=4)
    client = Client()
    client.force_login(host)
    page = client.get(reverse("lobby_table", args=[table.pk])).content.decode()
    seats = re.findall(r'<li class="card seat[^"]*"', page)
    assert [bool(re.search(r"team-0\b", s)) for s in seats] == [True, False, True, False]
    assert [bool(re.search(r"team-1\b", s)) for s in seats] == [False, True, False, True]
    assert page.count(">Blue team<") == 2 and page.count(">Orange team<") == 2
    plain = table_create(user=host, game="durak", options={}, seats=4)
    assert "team-0" not in client.get(reverse("lobby_table", args=[plain.pk])).content.decode()

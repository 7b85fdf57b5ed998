"""A fourth game, defined only here, plays through the whole platform with no edit outside this file.

"Shed" (test-only rules): the deck is twelve cards (ranks 9 to A, clubs and
hearts), all dealt one at a time from the dealer's left; the dealer's left
neighbour moves first. On his turn a player drops one or two cards of his hand
face down (``{"type": "drop", "cards": [...]}``; only their number is public)
and the turn passes to the next player still holding cards. A player who
empties his hand leaves; the last one holding cards loses.
A timeout drops the first card of the hand.

It is registered into ``games.GAMES`` for each test, and then goes through
the lobby (create, join, start), the socket (a move composed from ticked
cards), the table service, the table page, the replay, ratings (OpenSkill,
leaderboard, profile), a bot standing in, and a table against bots. The
platform learns everything from the registry entry: the public record hides
the dropped cards, the UI composes ``drop`` from the ticked cards, the generic
board and the default counting sheet and outcome apply.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

import games
from config.asgi import application
from games.base import GameSpec, State
from games.errors import IllegalAction, InvalidOptions
from games.options import Option
from games.ui import UI, composed_label
from leaderboards.models import PlayerRating, RatingChange
from measure.sessions import session_cookie_for
from tables.models import Game, Move, Table
from tables.services import game_play_bot, table_player_action

pytestmark = pytest.mark.django_db(transaction=True)

NAME = "shed"
RANKS = "9TJQKA"


def shed_deck() -> list[str]:
    return [r + s for s in "CH" for r in RANKS]


OPTIONS: Sequence[Option] = (Option("slow_hands", "Slow hands", False, kind="bool", help="Nothing changes."),)


class ShedState(State):
    """Written as a new engine is: the base class owns ``new``/``apply`` and their checks."""

    game_name = NAME
    OPTIONS = tuple(OPTIONS)
    SEATS = (2, 4)
    ACTIONS = {"drop": frozenset({"type", "cards"})}

    hands: list[list[str]]
    pile: int
    finished: list[int]
    turn: int

    @classmethod
    def _full_deck(cls, options: Mapping[str, Any]) -> list[str]:
        return shed_deck()

    @classmethod
    def _deal(cls, options: dict[str, Any], seats: int, dealer: int, deck: list[str]) -> ShedState:
        self = object.__new__(cls)
        self.options, self.seats, self.dealer, self.deck, self.phase = options, seats, dealer, list(deck), "play"
        self.hands = [[] for _ in range(seats)]
        for i, card in enumerate(deck):
            self.hands[(dealer + 1 + i) % seats].append(card)
        self.pile = 0
        self.finished = []
        self.turn = (dealer + 1) % seats
        return self

    def _left(self) -> list[int]:
        return [s for s in range(self.seats) if s not in self.finished]

    def to_act(self) -> list[int]:
        return [] if self.is_over() else [self.turn]

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act():
            return []
        return [{"type": "drop", "cards": [c]} for c in self.hands[seat]]

    def _apply(self, seat: int, kind: str, action: dict[str, Any]) -> None:
        if seat not in self.to_act():
            raise IllegalAction("not your turn")
        cards = action.get("cards")
        if not isinstance(cards, list) or not 1 <= len(cards) <= 2 or len(set(cards)) != len(cards):
            raise IllegalAction("drop one or two different cards")
        if any(c not in self.hands[seat] for c in cards):
            raise IllegalAction("you can only drop cards you hold")
        for c in cards:
            self.hands[seat].remove(c)
        self.pile += len(cards)
        if not self.hands[seat]:
            self.finished.append(seat)
        left = self._left()
        if len(left) > 1:
            self.turn = next(s for s in ((seat + k) % self.seats for k in range(1, self.seats + 1)) if s in left)
        else:
            self.phase = "over"

    def result(self) -> dict[str, Any] | None:
        if not self.is_over():
            return None
        return {"finished": list(self.finished), "loser": self._left()[0]}

    def view(self, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": seat,
            "options": dict(self.options),
            "dealer": self.dealer,
            "hand_sizes": [len(h) for h in self.hands],
            "to_act": self.to_act(),
            "phase": self.phase,
            "over": self.is_over(),
            "result": self.result(),
            "finished": list(self.finished),
            "pile": self.pile,
        }
        if seat is not None:
            out["hand"] = list(self.hands[seat])
        return out

    def zones(self) -> dict[str, list[str]]:
        return {f"hand{s}": list(h) for s, h in enumerate(self.hands)}

    def default_action(self, seat: int) -> dict[str, Any]:
        return {"type": "drop", "cards": [self.hands[seat][0]]}

    def describe(self, seat: int, action: dict[str, Any]) -> str:
        n = len(action.get("cards") or [])
        return f"drops {n} card{'s' if n > 1 else ''}"

    def _next_game(self, **choices: Any) -> tuple[int, dict[str, Any]]:
        return self._left()[0], dict(self.options)  # the loser deals


def public_drop(action: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": action.get("type"), "count": len(action.get("cards") or [])}


GAME = GameSpec(
    name=NAME,
    title="Shed (test)",
    state_class=ShedState,
    options=OPTIONS,
    seats=(2, 4),
    summary="Drop your cards face down; the last one holding cards loses.",
    public_action=public_drop,
    ui=UI(
        label=lambda a: composed_label("Drop", a) if a.get("type") == "drop" else None,
        composed=frozenset({"drop"}),
    ),
)

CARD = re.compile(r"\b(?:[9TJQKA][CH])\b")


@pytest.fixture(autouse=True)
def shed_registered(monkeypatch):
    monkeypatch.setitem(games.GAMES, NAME, __name__)


@pytest.fixture
def players(django_user_model):
    return [
        django_user_model.objects.create_user(username=f"shedder{i}", password="pw-123456", display_name=f"Shed {i}")
        for i in range(2)
    ]


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def current(table: Table) -> Game:
    return Game.objects.filter(table=table).order_by("-number").first()


def test_the_engine_keeps_the_contract():
    state = games.get_game(NAME).new(seats=3, seed=5)
    assert sorted(c for h in state.zones().values() for c in h) == sorted(shed_deck())
    assert state.copy().to_json() == state.to_json()
    with pytest.raises(InvalidOptions):
        games.get_game(NAME).new(seats=2, seed="abc")


async def receive_until(comm, predicate, limit: int = 10) -> str:
    for _ in range(limit):
        frame = await comm.receive_from(timeout=10)
        if predicate(frame):
            return frame
    raise AssertionError("the expected frame never came")


@pytest.mark.asyncio
async def test_shed_through_lobby_socket_service_page_replay_and_ratings(players):
    alice, bob = players
    # the lobby: the form comes from the option schema; the match length from the game (one game)
    page = await sync_to_async(lambda: client_of(alice).get(reverse("table_new"), {"game": NAME}).content.decode())()
    assert "Slow hands" in page
    resp = await sync_to_async(
        lambda: client_of(alice).post(
            reverse("table_new") + f"?game={NAME}",
            {"seats": 2, "turn_seconds": 60, "rated": "on", "match_length": 2},
        )
    )()
    assert resp.status_code == 302
    table = await sync_to_async(Table.objects.get)(game=NAME)
    lobby = await sync_to_async(lambda: client_of(bob).get(reverse("lobby_table", args=[table.pk])).content.decode())()
    assert "Shed (test)" in lobby and "2 games" in lobby
    await sync_to_async(lambda: client_of(bob).post(reverse("table_join", args=[table.pk])))()
    await sync_to_async(table.refresh_from_db)()
    assert table.status == Table.Status.PLAYING

    # the table page: my own cards, tickable (drop is composed from ticked cards), nobody else's
    game = await sync_to_async(current)(table)
    state = await sync_to_async(lambda: games.get_game(NAME).from_json(current(table).state))()
    mover = state.to_act()[0]
    users = [alice, bob]
    page = await sync_to_async(
        lambda: client_of(users[mover]).get(reverse("table", args=[table.pk])).content.decode()
    )()
    assert all(f'name="cards" value="{c}"' in page for c in state.hands[mover])
    assert not set(CARD.findall(page)) & set(state.hands[1 - mover])
    assert "Drop the selected cards" in page and "Shed (test)" in page and "No games finished yet." in page

    # the socket: tick two cards and press the button, as htmx sends the form
    headers = [(b"origin", b"http://testserver")]
    cookie = (await sync_to_async(session_cookie_for)(users[mover])).encode()
    comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=[*headers, (b"cookie", cookie)])
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=10)
    dropped = state.hands[mover][:2]
    await comm.send_to(text_data=json.dumps({"move": "0", "action": '{"type": "drop"}', "cards": dropped}))
    frame = await receive_until(comm, lambda f: 'data-move="1"' in f)
    assert not any(f'value="{c}"' in frame for c in dropped)
    await comm.disconnect()
    first = await sync_to_async(lambda: Move.objects.get(game=game, number=1))()
    assert first.public == {"type": "drop", "count": 2} and first.text == "drops 2 cards"

    # the table service plays both games of the match to the end
    rng = random.Random(3)

    def play_out() -> None:
        for _ in range(100):
            table.refresh_from_db()
            if table.status == Table.Status.FINISHED:
                return
            g = current(table)
            st = games.get_game(NAME).from_json(g.state)
            seat = st.to_act()[0]
            table_player_action(table.pk, users[seat], g.move_number, rng.choice(st.legal_actions(seat)))
        raise AssertionError("the match did not end")

    await sync_to_async(play_out)()
    finished = await sync_to_async(lambda: list(Game.objects.filter(table=table).order_by("number")))()
    assert [g.status for g in finished] == [Game.Status.FINISHED] * 2
    assert finished[1].dealer == finished[0].result["loser"]  # the game's own next_game: the loser deals

    # the score sheet counts losses; the page shows it in the game's words
    page = await sync_to_async(lambda: client_of(alice).get(reverse("table", args=[table.pk])).content.decode())()
    assert "Losses" in page and "The match is over." in page

    # the replay: every card of the finished game, the deck commitment checked
    replay = await sync_to_async(
        lambda: client_of(bob).get(reverse("replay", args=[finished[0].pk]), {"step": 1}).content.decode()
    )()
    assert "The deck matches the commitment" in replay and "drops 2 cards" in replay

    # ratings: each game rated, with the generic outcome (the loser last)
    changes = await sync_to_async(lambda: list(RatingChange.objects.filter(game=NAME).order_by("at", "pk")))()
    assert len(changes) == 4
    for g in finished:
        loser = users[g.result["loser"]]
        mine = [c for c in changes if c.played_game_id == g.pk]
        assert {c.user_id for c in mine if c.lost} == {loser.pk}
        assert all(c.won != c.lost for c in mine)
    ratings = await sync_to_async(lambda: {r.user_id: r.games for r in PlayerRating.objects.filter(game=NAME)})()
    assert ratings == {alice.pk: 2, bob.pk: 2}
    profile = await sync_to_async(
        lambda: client_of(alice).get(reverse("profile", args=[alice.username])).content.decode()
    )()
    assert "Shed (test)" in profile and "2 rated games" in profile
    board = await sync_to_async(lambda: client_of(alice).get(reverse("leaderboard", args=[NAME])))()
    assert board.status_code == 200


def test_bots_play_shed_and_stand_in(players):
    alice, _ = players
    resp = client_of(alice).post(reverse("play_against_bots"), {"game": NAME, "seats": 3, "level": "strong"})
    table = Table.objects.get(game=NAME)
    assert resp.status_code == 302 and table.status == Table.Status.PLAYING
    for _ in range(30):
        g = current(table)
        if g.status != Game.Status.PLAYING:
            break
        st = games.get_game(NAME).from_json(g.state)
        seat = st.to_act()[0]
        if seat == 0:
            table_player_action(table.pk, alice, g.move_number, st.legal_actions(0)[0])
        else:
            assert game_play_bot(g.pk, g.move_number, random.Random(1))
    assert current(table).status == Game.Status.FINISHED
    assert Move.objects.filter(game__table=table, by="bot").exists()
    assert not RatingChange.objects.filter(played_game__table=table).exclude(user__is_bot=True).exists()  # unrated

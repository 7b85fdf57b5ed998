"""Random players clicking whatever their page offers, through the table socket as htmx sends it.

Each click sends the whole play form, as a browser does: boxes ticked at
random, every select on a random option, the clicked button's value. A plain
button (Done, Take, Pass, I believe, a bid, a card to play) must never be
refused, whatever else is ticked or chosen on the page; only a button composed
from ticked cards may be, when those cards are no legal combination, and the
player then still acts (here, after two such refusals, he ticks a legal
combination, as a player reading the error would).
"""

from __future__ import annotations

import html
import json
import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from asgiref.sync import sync_to_async

from tables import consumers
from tables.models import Game
from tables.selectors import seat_view
from tests.platform.sockets import connect
from tests.platform.tables.factories import started_table
from tests.platform.tables.htmx_form import ERROR, PLAY, STATUS_MOVE, PlayForm, action_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

#: every game and seat count the platform offers, with the options that change what a player may click
SETUPS = [
    ("durak", 2, {}),
    ("durak", 3, {"mode": "transfer"}),
    ("durak", 4, {"mode": "transfer"}),
    ("durak", 4, {"teams": True}),
    ("durak", 6, {"deck": 52, "lead": "single", "throw_in": "neighbors"}),
    ("biznes", 4, {}),
    ("biznes", 5, {"deck": 54}),
    ("biznes", 6, {"deck": 54}),
    ("verish", 3, {}),
    ("verish", 4, {"kind": "suit"}),
    ("verish", 5, {}),
    ("verish", 6, {"deck": 52}),
]
SETUP_IDS = [f"{n}-{s}-{i}" for i, (n, s, _) in enumerate(SETUPS)]
GAMES_EACH = 2


@dataclass
class Page:
    """One seat's page: the fragments its socket last sent."""

    move: int = -1
    play: str = ""

    def take(self, frame: str) -> None:
        status = STATUS_MOVE.search(frame)
        if status:
            self.move = int(status.group(1))
        play = PLAY.search(frame)
        if play:
            self.play = play.group(0)


@dataclass
class Tally:
    moves: int = 0
    composed_refused: int = 0
    plain_refused: list[tuple[str, str, str]] = field(default_factory=list)
    clicked: Counter[str] = field(default_factory=Counter)


async def _until_move(comm, page: Page, move: int) -> None:
    while page.move < move:
        page.take(await comm.receive_from(timeout=10))


async def _click(comm, page: Page, frame: dict) -> str | None:
    """Send one click; the refusal's words, or None once the page shows the next move."""
    before = page.move
    await comm.send_to(text_data=json.dumps(frame))
    while True:
        raw = await comm.receive_from(timeout=10)
        page.take(raw)
        if page.move > before:
            return None
        error = ERROR.search(raw)
        if error and error.group(1).strip() and not STATUS_MOVE.search(raw):
            return html.unescape(error.group(1).strip())


def _legal_ticks(game_id: int, seat: int, kind: str, rng: random.Random) -> tuple[set[str], str | None]:
    game = Game.objects.get(pk=game_id)
    options = [a for a in seat_view(game, seat)["legal"] if a["type"] == kind]
    action = rng.choice(options)
    return set(action.get("cards") or ()), action.get("kind")


async def _play_one(name: str, seats: int, options: dict, rng: random.Random, tally: Tally) -> None:
    table, players, game = await sync_to_async(started_table)(name, seats, options)
    url = f"http://testserver/tables/{table.pk}/"
    socks = [await connect(f"/ws/tables/{table.pk}/", user, timeout=5) for user in players]
    pages = [Page() for _ in socks]
    try:
        for comm, page in zip(socks, pages, strict=True):
            page.take(await comm.receive_from(timeout=10))
        refusals_here = 0
        for _ in range(3000):
            current = await sync_to_async(Game.objects.get)(pk=game.pk)
            if current.status != Game.Status.PLAYING:
                return
            actors = [s for s, page in enumerate(pages) if PlayForm.read(page.play).buttons]
            assert actors, f"{name}/{seats}: nobody is offered a button at move {current.move_number}"
            seat = rng.choice(actors)
            form = PlayForm.read(pages[seat].play)
            button = rng.choice(form.buttons)
            composed = "compose" in button.attrs.get("class", "").split()
            density = rng.choice((0.0, 0.2, 0.5, 1.0))
            ticked = {b.attrs["value"] for b in form.boxes if rng.random() < density}
            chosen = form.random_choices(rng)
            kind = action_of(button)["type"]
            if composed and refusals_here >= 2:
                ticked, announced = await sync_to_async(_legal_ticks)(game.pk, seat, kind, rng)
                if announced is not None:
                    chosen["kind"] = announced
            refused = await _click(socks[seat], pages[seat], form.frame(button, ticked, chosen, url))
            tally.clicked[kind] += 1
            if refused is None:
                tally.moves += 1
                refusals_here = 0
                for comm, page in zip(socks, pages, strict=True):
                    await _until_move(comm, page, pages[seat].move)
            elif composed:
                tally.composed_refused += 1
                refusals_here += 1
            else:
                tally.plain_refused.append((f"{name}/{seats}", kind, refused))
                refusals_here += 1
                assert refusals_here < 50, tally.plain_refused[-5:]
        raise AssertionError(f"{name}/{seats}: the game did not end")
    finally:
        for comm in socks:
            await comm.disconnect()


@pytest.mark.parametrize(("name", "seats", "options"), SETUPS, ids=SETUP_IDS)
async def test_no_plain_button_is_refused_for_what_else_the_form_holds(name, seats, options, settings, monkeypatch):
    # a random player clicks far faster than a person: the per-socket and per-user rates are not under test
    settings.SOCKET_FRAME_LIMITS = "10000/second"
    monkeypatch.setattr(consumers, "BURST", 1e9)
    monkeypatch.setattr(consumers, "RATE", 1e9)
    rng = random.Random(f"{name}-{seats}-{sorted(options.items())}")
    tally = Tally()
    for _ in range(GAMES_EACH):
        await _play_one(name, seats, options, rng, tally)
    assert tally.moves > 0
    assert not tally.plain_refused, tally.plain_refused[:10]

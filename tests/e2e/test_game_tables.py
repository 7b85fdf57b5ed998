"""Every game played by clicking in Chromium, through the real socket, with bots at the table.

Biznes: two people and two bots; one person wins the bidding, takes the widow,
discards, asks for a banker, the other takes a role, and the deal is played to
its last trick. Believe It or Not: two people, a claim and a doubt, then a pile
that is added to and believed. Durak: one person plays a whole game against a
bot from the lobby's quick start. Any console warning or error and any 4xx/5xx
response fails the test; each leaves screenshots in ``artifacts_dir()``.
"""

from __future__ import annotations

import time
import uuid

import pytest

from tables.consumers import RATE
from tests.e2e.clicking import (
    TIMEOUT,
    add_bots,
    at_table,
    create_table,
    hand,
    join,
    log_in,
    make_players,
    move_of,
    my_seat,
    next_turn,
    tick,
    wait_move,
    wait_past,
)
from tests.e2e.conftest import artifacts_dir, watch_page

pytestmark = pytest.mark.slow

PLATFORM_ENV = {"BOT_DELAY_SECONDS": "0.05"}


def players(browser, platform, count: int, problems: list[str], width: int = 1280, height: int = 900):
    tag = uuid.uuid4().hex[:6]
    names = [f"{who}{tag}" for who in ("alice", "boris", "vera")[:count]]
    make_players(platform, names)
    contexts = [browser.new_context(viewport={"width": width, "height": height}) for _ in names]
    for ctx in contexts:
        ctx.set_default_timeout(TIMEOUT)
        ctx.on("page", lambda page: watch_page(page, problems))
    return names, contexts, [log_in(ctx, platform.url, name) for ctx, name in zip(contexts, names, strict=True)]


def shot(page, name: str) -> None:
    path = artifacts_dir() / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")


def phase(page) -> str:
    # the phase's code, not its words: the chip reads "Choosing roles" in English, other words elsewhere
    chip = page.locator("#table-board .chip.phase")
    return chip.get_attribute("data-phase") or "" if chip.count() else ""


#: a person's pace at most: a table socket takes a burst of 8 frames, then 4 a second (``tables.consumers``).
#: With these tests' quick bots a robot clicking the moment its turn comes makes ~10 moves a second (a
#: Durak attacker throwing in card after card), and its ninth click in a row is refused as too many.
CLICK_GAP_MS = 1000 / RATE + 10
_last_click: dict[int, float] = {}


def click_and_wait(page, locator, tap: bool = False) -> None:
    """Click (or, on a touch screen, tap) at a person's pace, and wait for the move it made."""
    before = move_of(page)
    since = (time.monotonic() - _last_click.get(id(page), 0.0)) * 1000
    if since < CLICK_GAP_MS:
        page.wait_for_timeout(CLICK_GAP_MS - since)
    _last_click[id(page)] = time.monotonic()
    if tap:
        locator.tap()
    else:
        locator.click()
    wait_past(page, before)


# ---------------------------------------------------------------- Biznes


def biznes_play(page) -> None:
    """One card to the trick: a card the page raises, else a joker as the card its picker offers first."""
    quick = page.locator(".hand button.quick")
    if quick.count():
        click_and_wait(page, quick.first)
        return
    joker = page.locator(".joker-play button")
    if joker.count():
        click_and_wait(page, joker.first)
        return
    # no card to play: the declarer must call the change, or name the new trump
    for name in ("button.act-change", "button.act-trump"):
        if page.locator(name).count():
            click_and_wait(page, page.locator(name).first)
            return
    raise AssertionError(f"nothing to play offered in phase {phase(page)!r}: {page.inner_text('#table-play')}")


def test_biznes_bid_widow_discard_roles_and_tricks(browser, platform_server):
    problems: list[str] = []
    names, contexts, (alice, boris) = players(browser, platform_server, 2, problems)
    url = platform_server.url
    # 54 cards for four: 13 each and a widow of two, one of them dealt face up; one deal is the match
    table = create_table(
        alice,
        url,
        "biznes",
        {"seats": "4", "turn_seconds": "120", "match_length": "1", "opt_deck": "54", "opt_widow_open": "1"},
    )
    add_bots(alice, 2)
    join(boris, url, "biznes", table)
    pages = [alice, boris]
    at_table(pages, table)
    for page in pages:
        seats = page.inner_text("#table-seats")
        assert names[0].title() in seats and names[1].title() in seats
        assert page.locator("#table-seats .badge", has_text="bot").count() == 2
        assert len(hand(page)) == 13
        # the widow: one card face up for everyone, one face down
        assert page.locator("#table-board .widow .pcard[data-card]").count() == 1
        assert "1 face down" in page.inner_text("#table-board .widow")
    shot(alice, "biznes-bidding")

    # bidding: Alice raises by the least the grid offers until everyone else has passed; Boris passes
    bids = 0
    while True:
        page = next_turn(pages)
        assert page is not None, "the deal ended in the bidding"
        if phase(page) != "bidding":
            break
        if page is alice:
            if not bids:
                shot(alice, "biznes-bid-grid")
            click_and_wait(alice, alice.locator(".bids-grid button.act-bid").first)
            bids += 1
        else:
            click_and_wait(boris, boris.locator("button.act-pass"))
    assert bids >= 1 and page is alice and phase(alice) == "discard"
    board = alice.inner_text("#table-board")
    assert names[0].title() in board  # "Contract N ♠ by Alice…"

    # the widow: both cards now shown to everyone, and in Alice's hand
    widow = alice.locator("#table-board .widow .pcard").evaluate_all("els => els.map(e => e.dataset.card)")
    assert len(widow) == 2, widow
    wait_move(pages, move_of(alice))
    assert boris.locator("#table-board .widow .pcard").evaluate_all("els => els.map(e => e.dataset.card)") == widow
    mine = hand(alice)
    assert len(mine) == 15 and set(widow) <= set(mine)
    shot(alice, "biznes-discard")

    # the discard: two cards ticked, a wrong count refused first
    tick(alice, mine[:1])
    move = move_of(alice)
    alice.click("button.act-discard")
    alice.wait_for_selector("#table-error:not(:empty)")
    assert move_of(alice) == move
    # from her own hand: the widow's cards were turned up for everyone and may stay in sight
    discard = [c for c in mine if not c.startswith("X") and c not in widow][:2]
    tick(alice, discard)
    click_and_wait(alice, alice.locator("button.act-discard"))
    assert len(hand(alice)) == 13 and not set(discard) & set(hand(alice))
    wait_move(pages, move_of(alice))
    for card in discard:  # the discard is secret: no part of Boris's page (board, log) shows it
        assert boris.locator(f'[data-card="{card}"]').count() == 0

    # alone or with a banker: Alice asks for one
    page = next_turn(pages)
    assert page is alice and phase(alice) == "declare"
    click_and_wait(alice, alice.locator("button.act-declare", has_text="With a banker"))

    # roles, clockwise from the declarer's left: bots and Boris; Boris takes the bank if it is still free
    roles_seen = False
    while (page := next_turn(pages)) is boris and phase(boris) == "roles":
        roles_seen = True
        offered = [b.inner_text() for b in boris.locator("button.act-role").all()]
        assert "Thief" in offered, offered
        choice = "Banker" if "Banker" in offered else "Thief"
        shot(boris, "biznes-role-choice")
        click_and_wait(boris, boris.locator("button.act-role", has_text=choice))
        assert choice.lower() in boris.inner_text(f'#table-seats li[data-seat="{my_seat(boris)}"]')
    assert roles_seen, "Boris was never asked for a role"
    shot(boris, "biznes-roles")

    # the tricks: everybody plays until the deal is over; the first lead is the declarer's
    assert page is alice and phase(alice) == "play"
    tricks = 0
    while page is not None:
        biznes_play(page)
        tricks += 1
        if tricks == 6:
            shot(alice, "biznes-play")
        page = next_turn(pages)
    for page in pages:
        page.wait_for_selector("#table-status.is-over")
        status = page.inner_text("#table-status")
        assert "Scores:" in status and ("made" in status or "failed" in status), status
        assert "The match is over." in status
    shot(alice, "biznes-over")
    shot(boris, "biznes-over-boris")
    for ctx in contexts:
        ctx.close()
    assert problems == [], problems


# ---------------------------------------------------------------- Believe It or Not


def pile_count(page) -> int:
    return int(page.inner_text("#table-board .stock .pile-label strong"))


def seat_cards(page, seat: int) -> int:
    return int(page.inner_text(f'#table-seats li[data-seat="{seat}"] .count'))


def claim(page, cards: list[str], kind: str) -> None:
    tick(page, cards)
    page.select_option('select[name="kind"]', kind)
    click_and_wait(page, page.locator("button.act-claim"))


def test_believe_it_or_not_claim_doubt_add_believe_to_the_end(browser, platform_server):
    problems: list[str] = []
    names, contexts, (alice, boris) = players(browser, platform_server, 2, problems)
    url = platform_server.url
    table = create_table(alice, url, "verish", {"seats": "2", "turn_seconds": "120"})
    join(boris, url, "verish", table)
    pages = [alice, boris]
    at_table(pages, table)
    for page in pages:
        assert len(hand(page)) == 18  # 36 cards dealt out between two

    # a claim of two cards announced as the first card's rank: a lie unless both are of that rank
    claimant = next_turn(pages)
    answerer = boris if claimant is alice else alice
    cards = hand(claimant)[:2]
    kind = cards[0][0]
    truth = all(c[0] == kind for c in cards)
    claim(claimant, cards, kind)
    wait_move(pages, 1)
    for page in pages:
        assert pile_count(page) == 2
        assert "put 2" in page.inner_text("#table-board .placements")
        # the pile is face down for both: neither page shows the cards claimed
        assert page.locator(f'#table-board [data-card="{cards[0]}"]').count() == 0
    assert answerer.locator(f'[data-card="{cards[0]}"]').count() == 0
    assert len(hand(claimant)) == 16
    shot(answerer, "verish-claim")

    # the doubt turns the two cards up for both; the loser of the check takes the pile
    assert next_turn(pages) is answerer
    doubt = answerer.locator("button.act-doubt")
    assert doubt.inner_text().strip() and answerer.locator("button.act-believe").count() == 1
    click_and_wait(answerer, doubt)
    wait_move(pages, 2)
    taker = answerer if truth else claimant
    for page in pages:
        check = page.locator("#table-board .last-check")
        revealed = check.locator(".pcard").evaluate_all("els => els.map(e => e.dataset.card)")
        assert sorted(revealed) == sorted(cards)
        words = check.inner_text()
        assert ("true" if truth else "a lie") in words, words
        assert "did not believe" in words and f"{names[pages.index(taker)].title()} took the pile" in words, words
        assert pile_count(page) == 0
    held = 20 if truth else 18  # the answerer's 18 and the pile, or the claimant's 16 back with his 2
    assert len(hand(taker)) == held and seat_cards(answerer, my_seat(taker)) == held
    shot(claimant, "verish-doubt")

    # V4: a doubted lie gives the next pile to the answerer, a doubted truth to the claimant's side (the left)
    opener = next_turn(pages)
    assert opener is (claimant if truth else answerer)
    other = boris if opener is alice else alice

    # a new pile of one true card; the other adds one; the opener believes the added card
    first = hand(opener)[0]
    claim(opener, [first], first[0])
    assert next_turn(pages) is other
    added = hand(other)[0]
    tick(other, [added])
    click_and_wait(other, other.locator("button.act-add"))
    for page in pages:
        page.wait_for_selector(f'#table-status[data-move="{move_of(other)}"]')
        assert pile_count(page) == 2
    assert next_turn(pages) is opener
    click_and_wait(opener, opener.locator("button.act-believe"))
    true_add = added[0] == first[0]
    for page in pages:
        page.wait_for_selector(f'#table-status[data-move="{move_of(opener)}"]')
        words = page.inner_text("#table-board .last-check")
        assert "believed" in words and ("true" if true_add else "a lie") in words, words
        # only the latest placement is turned up
        assert page.locator("#table-board .last-check .pcard").evaluate_all("els => els.map(e => e.dataset.card)") == [
            added
        ]

    # then both play on honestly to the end: the opener puts down every card of one rank, the other believes
    page = next_turn(pages)
    while page is not None:
        if page.locator("button.act-claim").count():
            mine = hand(page)
            rank = mine[0][0]
            claim(page, [c for c in mine if c[0] == rank][:8], rank)
        else:
            click_and_wait(page, page.locator("button.act-believe"))
        page = next_turn(pages)
    for page in pages:
        page.wait_for_selector("#table-status.is-over")
        status = page.inner_text("#table-status")
        assert "loses" in status and "The match is over." in status, status
    shot(alice, "verish-over")
    for ctx in contexts:
        ctx.close()
    assert problems == [], problems


# ---------------------------------------------------------------- Durak against a bot


def durak_move(page) -> None:
    """One legal move, the way a person clicks: a raised card, else one ticked card to attack, else a button."""
    quick = page.locator(".hand button.quick")
    if quick.count():
        click_and_wait(page, quick.first)
        return
    picks = page.locator(".hand .pick")
    compose = page.locator("button.compose")
    # a single card always opens an attack; adding to one is left to the bot's judgement: "done" instead
    if picks.count() and compose.count() and page.locator("button.act-done, button.act-take").count() == 0:
        tick(page, [picks.first.locator(".pcard").get_attribute("data-card")])
        click_and_wait(page, compose.first)
        return
    for name in ("button.act-cover", "button.act-take", "button.act-done", "button.act"):
        button = page.locator(name)
        if button.count():
            click_and_wait(page, button.first)
            return
    raise AssertionError(f"no legal move offered: {page.inner_text('#table-play')}")


def test_durak_against_a_bot_from_quick_start_to_the_end(browser, platform_server):
    problems: list[str] = []
    _names, contexts, (alice,) = players(browser, platform_server, 1, problems)
    alice.goto(f"{platform_server.url}/play/")
    alice.select_option('.lobby-bots-form select[name="game"]', "durak")
    alice.click('.lobby-bots-form button[type="submit"]')
    alice.wait_for_url("**/tables/*/")
    alice.wait_for_selector(".live-table.ws-open")
    assert len(hand(alice)) == 6 and alice.locator("#table-seats .badge", has_text="bot").count() == 1

    moves = 0
    page = next_turn([alice])
    while page is not None:
        durak_move(alice)
        moves += 1
        if moves == 5:
            shot(alice, "durak-bot-play")
        assert moves < 200, "the game does not end"
        page = next_turn([alice])
    status = alice.inner_text("#table-status")
    assert "Game over." in status and ("is the fool" in status or "A draw" in status), status
    assert "The match is over." in status
    assert alice.locator(".hand .pick, .hand button.quick, #table-play button.act").count() == 0
    # the log ends with the last move, and the sheet counts the game
    assert alice.get_attribute("#table-log li >> nth=0", "value") == str(move_of(alice))
    assert "No game finished yet." not in alice.inner_text("#table-sheet")
    shot(alice, "durak-bot-over")
    for ctx in contexts:
        ctx.close()
    assert problems == [], problems

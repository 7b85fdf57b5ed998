"""The table page reads in Russian and Ukrainian -- board, seats, move log, buttons, sheet --
and the move log, drawn per reader from each move's stored words, never shows a card its reader may not see."""

from __future__ import annotations

import html
import re
import unicodedata

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from tables.models import Game, Move, Table
from tables.selectors import seat_view
from tables.services import table_apply_action
from tests.platform.tables.factories import started_table

pytestmark = pytest.mark.django_db

#: the parts of the page a player reads while he plays
SECTIONS = ("table-seats", "table-board", "table-log", "table-play", "table-sheet")
#: Latin letters that are not English: the deck's fingerprint ("SHA-256") and a rule's number ("B7")
NOT_ENGLISH = {"SHA"}


def act(game: Game, seat: int, action: dict) -> Game:
    game.refresh_from_db()
    table_apply_action(game.pk, seat, game.move_number, action)
    game.refresh_from_db()
    return game


def section(page: str, element_id: str) -> str:
    start = page.index(f'id="{element_id}"')
    start = page.rindex("<", 0, start)
    tag = re.match(r"<(\w+)", page[start:]).group(1)
    end = page.index(f"</{tag}>", start)
    return page[start:end]


def english_words(fragment: str, names: list[str]) -> list[str]:
    """Latin words a reader sees: text and the tooltips and labels of elements, without names and card codes."""
    shown = re.sub(r"<code>.*?</code>", " ", fragment, flags=re.S)  # the deck's hash
    readable = re.findall(r'(?:title|aria-label)="([^"]*)"', shown)
    text = re.sub(r"<[^>]+>", " ", shown)
    words = html.unescape(" ".join([text, *readable]))
    for name in names:
        words = words.replace(name, " ")
    return [w for w in re.findall(r"[A-Za-z]{2,}", words) if w not in NOT_ENGLISH]


def page_in(table: Table, user: User | None, lang: str) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    page = client.get(reverse("table", args=[table.pk]), headers={"accept-language": lang})
    assert page.status_code == 200
    return page.content.decode()


def durak_position() -> tuple[Table, list[User], int]:
    """A Durak bout with a lead, a cover and a throw-in behind it; returns who acts now."""
    table, players, game = started_table("durak", 3, {"mode": "transfer"})
    attacker = seat_view(game, None)["view"]["attacker"]
    lead = next(a for a in seat_view(game, attacker)["legal"] if a["type"] == "attack" and len(a["cards"]) == 1)
    game = act(game, attacker, lead)
    defender = seat_view(game, None)["view"]["defender"]
    legal = seat_view(game, defender)["legal"]
    cover = next((a for a in legal if a["type"] == "cover"), {"type": "take"})
    game = act(game, defender, cover)
    return table, players, seat_view(game, None)["view"]["to_act"][0]


def biznes_position() -> tuple[Table, list[User], int, list[str]]:
    """A Biznes deal past the bidding and the discard; returns who acts now and the discarded cards."""
    table, players, game = started_table("biznes", 5, {"deck": 52})
    discarded: list[str] = []
    for _ in range(40):
        view = seat_view(game, None)["view"]
        if view["phase"] == "play":
            break
        seat = view["to_act"][0]
        legal = seat_view(game, seat)["legal"]
        if view["phase"] == "bidding":
            bids = [a for a in legal if a["type"] == "bid"]
            action = bids[0] if not any(m.public.get("type") == "bid" for m in Move.objects.filter(game=game)) else None
            action = action or next(a for a in legal if a["type"] == "pass")
        elif view["phase"] == "discard":
            # the widow was turned up for everyone (B2): the declarer's secret is what he lays away from his hand
            shown = set(view.get("widow") or ())
            action = next((a for a in legal if not shown & set(a["cards"])), legal[0])
            discarded = [c for c in action["cards"] if c not in shown]
        else:
            action = legal[0]
        game = act(game, seat, action)
    return table, players, seat_view(game, None)["view"]["to_act"][0], discarded


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_durak_table_reads_with_no_english_word_left(lang):
    table, players, to_act = durak_position()
    page = page_in(table, players[to_act], lang)
    names = [p.display_name for p in players]
    for element_id in SECTIONS:
        part = section(page, element_id)
        assert not english_words(part, names), (element_id, english_words(part, names))
    log = section(page, "table-log")
    assert {"ru": "ходит", "uk": "ходить"}[lang] in log and "pcard" not in log and "cardtext" in log
    play = section(page, "table-play")
    assert {"ru": "Взять карты", "uk": "Взяти карти"}[lang] in play or "Бито" in play


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_biznes_table_reads_with_no_english_word_left(lang):
    table, players, to_act, _ = biznes_position()
    page = page_in(table, players[to_act], lang)
    names = [p.display_name for p in players]
    for element_id in SECTIONS:
        part = section(page, element_id)
        assert not english_words(part, names), (element_id, english_words(part, names))
    log = section(page, "table-log")
    assert {"ru": "заявляет", "uk": "заявляє"}[lang] in log
    assert {"ru": "сносит 2 карты", "uk": "зносить 2 карти"}[lang] in log
    sheet = section(page, "table-sheet")
    assert {"ru": "Законченных сдач пока нет.", "uk": "Завершених роздач поки немає."}[lang] in sheet


def test_the_same_stored_move_reads_in_each_readers_language():
    """One shared log row: English on the row (for old readers), each page in its own language."""
    table, players, to_act = durak_position()
    move = Move.objects.filter(game__table=table).order_by("number").first()
    assert move.text.startswith("leads ") and move.words["t"] == "leads %(cards)s"
    for lang, verb in (("ru", "ходит"), ("uk", "ходить"), ("en", "leads")):
        log = section(page_in(table, players[to_act], lang), "table-log")
        assert f"</strong> {verb} " in log, (lang, log)


def test_an_old_row_without_words_shows_its_english_text():
    table, players, to_act = durak_position()
    Move.objects.filter(game__table=table).update(words=None, text="leads 7C")
    log = section(page_in(table, players[to_act], "ru"), "table-log")
    assert "leads" in log and 'data-card="7C"' in log


def test_the_log_never_shows_the_biznes_discard_to_another_seat_or_a_spectator():
    table, players, _, discarded = biznes_position()
    assert len(discarded) == 2  # both from his own hand: nobody else has seen either
    game = Game.objects.get(table=table)
    move = Move.objects.get(game=game, action__type="discard")
    declarer = move.seat
    assert not set(discarded) & set(re.findall(r"[2-9TJQKAX][SCDH12]", repr(move.words)))
    with translation.override("en"):
        readers = [None, *[p for i, p in enumerate(players) if i != declarer]]
        for lang in ("en", "ru", "uk"):
            for reader in readers:
                page = page_in(table, reader, lang)
                log = section(page, "table-log")
                shown = set(re.findall(r'data-card="(\w+)"', log))
                assert not shown & set(discarded), (lang, reader, shown & set(discarded))
                # and nowhere else on the page either: the discard is the declarer's secret (B2)
                assert not set(re.findall(r'data-card="(\w+)"', page)) & set(discarded)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("uk", {"ходити можна лише картами одного значення", "ходіть лише однією картою"}),
        ("ru", {"ходить можно только картами одного достоинства", "ходите только одной картой"}),
        ("en", {"a lead must be cards of one rank", "lead one card only"}),
    ],
)
def test_an_engines_refusal_reads_in_the_players_language(lang, expected):
    from games import get_game
    from tables.services import ActionRefused

    _, _, game = started_table("durak", 2)
    state = get_game("durak").from_json(game.state)
    attacker = state.attacker
    hand = state.hands[attacker]
    pair = next([a, b] for a in hand for b in hand if a[0] != b[0])  # two ranks: never a legal lead
    with translation.override(lang), pytest.raises(ActionRefused) as refused:
        table_apply_action(game.pk, attacker, game.move_number, {"type": "attack", "cards": pair})
    assert refused.value.code == "illegal" and str(refused.value) in expected, refused.value
    game.refresh_from_db()
    assert game.move_number == 0  # refused: nothing changed


def verish_position() -> tuple[Table, list[User], int, list[str]]:
    """A Believe It or Not pile opened with two cards, added to and doubted; who acts now, the first claim's cards."""
    table, players, game = started_table("verish", 3)
    opener = seat_view(game, None)["view"]["turn"]
    legal = seat_view(game, opener)["legal"]
    opening = next((a for a in legal if a["type"] == "claim" and len(a["cards"]) == 2), legal[0])
    game = act(game, opener, opening)
    adder = seat_view(game, None)["view"]["turn"]
    game = act(game, adder, next(a for a in seat_view(game, adder)["legal"] if a["type"] == "add"))
    game = act(game, seat_view(game, None)["view"]["turn"], {"type": "doubt"})
    return table, players, seat_view(game, None)["view"]["turn"], list(opening["cards"])


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_believe_table_reads_with_no_english_word_left(lang):
    table, players, to_act, _ = verish_position()
    page = page_in(table, players[to_act], lang)
    names = [p.display_name for p in players]
    for element_id in SECTIONS:
        part = section(page, element_id)
        assert not english_words(part, names), (element_id, english_words(part, names))
    log = section(page, "table-log")
    for words in {
        "ru": ("кладёт «2 ", "добавляет «ещё ", "не верит — ", " карт"),
        "uk": ("кладе «2 ", "додає «ще ", "не вірить — ", " карт"),
    }[lang]:
        assert words in log, (words, log)


def test_the_believe_log_never_names_a_face_down_card():
    """The opening claim stays face down (only the addition is turned up by the doubt): no reader's log shows it."""
    table, players, _, hidden = verish_position()
    game = Game.objects.get(table=table)
    for move in Move.objects.filter(game=game):
        assert not set(hidden) & set(re.findall(r"[2-9TJQKA][SCDH]", repr(move.words) + move.text)), move.words
    for lang in ("en", "ru", "uk"):
        for reader in [None, *players]:
            log = section(page_in(table, reader, lang), "table-log")
            assert not set(re.findall(r'data-card="(\w+)"', log)) & set(hidden), (lang, reader)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("ru", "не ваш ход: ходит место"), ("uk", "не ваш хід: ходить місце"), ("en", "not your turn: seat")],
)
def test_a_believe_refusal_reads_in_the_players_language(lang, expected):
    from tables.services import ActionRefused

    _, _, game = started_table("verish", 3)
    waiting = (seat_view(game, None)["view"]["turn"] + 1) % 3
    with translation.override(lang), pytest.raises(ActionRefused) as refused:
        table_apply_action(game.pk, waiting, game.move_number, {"type": "believe"})
    assert str(refused.value).startswith(expected), refused.value


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_named_bots_are_written_in_the_readers_script(lang):
    from lobbies.services import table_against_bots

    player = User.objects.create_user("reader", "reader@example.com", "pw-cards-123", display_name="Reader")
    table = table_against_bots(user=player, game="durak", seats=6)
    seats = section(page_in(table, player, lang), "table-seats")
    names = [re.sub(r"<[^>]+>", "", n) for n in re.findall(r'<span class="seat-name">(.*?)</span>', seats)]
    bots = [n.strip() for n in names if n.strip() != "Reader"]
    assert len(bots) == 5 and all(n and all("CYRILLIC" in unicodedata.name(c) for c in n) for n in bots), bots


@pytest.mark.parametrize(("lang", "lie"), [("ru", "ложь"), ("uk", "брехня")])
def test_the_last_check_says_a_lie_in_the_nominative(lang, lie):
    """The rules' table reads "the claim was ... a lie" (instrumental in Russian); the board's line stands alone."""
    from django.template.loader import render_to_string

    players = [{"index": i, "name": n} for i, n in enumerate(["Anna", "Boris", "Vera"])]
    check = {
        "answer": "believe",
        "answerer": 1,
        "claimant": 0,
        "kind": "7",
        "true": False,
        "taker": 1,
        "count": 3,
        "cards": ["6S"],
    }
    view = {"pile": {"count": 0, "placements": []}, "kind": None, "discard": 0, "last_check": check}
    with translation.override(lang):
        board = render_to_string("tables/boards/verish.html", {"view": view, "players": players})
    assert f"<strong>{lie}</strong>" in board, board

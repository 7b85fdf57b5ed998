"""The bots' grading of a pair's finished games (Celery, once per game) and the moderators' fair-play queue."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from fairplay import tasks
from fairplay.models import GameGrade
from fairplay.selectors import graded_pairs, pair_grades
from fairplay.services import pair_grade, pair_scan_store
from games import get_game
from games.bots import get_bot
from moderation import services as moderation
from moderation.models import AuditEntry
from tables.models import Game, Match, Move, Seat, Table

pytestmark = pytest.mark.django_db

GAME = "durak"  # any game with a bot kit; the platform never asks which


def store(players: list[User], seed: int, by: dict[int, str] | None = None) -> Game:
    """A finished game played by heuristic bots, stored as the tables store one: setup, deck, full moves."""
    engine = get_game(GAME)
    state = engine.new(seats=len(players), seed=seed)
    setup = {"options": state.options, "dealer": state.dealer, "deck": list(state.deck)}
    bot, rng, moves = get_bot("heuristic"), random.Random(seed), []
    while not state.is_over():
        seat = state.to_act()[0]
        action = bot.choose(GAME, state.view(seat), state.legal_actions(seat), [], rng)
        state.apply(seat, action)
        moves.append((seat, dict(action), engine.public_record(action, state.view(None))))
    now = timezone.now()
    table = Table.objects.create(
        game=GAME, seats_count=len(players), created_by=players[0], status=Table.Status.FINISHED, finished_at=now
    )
    for i, u in enumerate(players):
        Seat.objects.create(table=table, index=i, user=u)
    match = Match.objects.create(table=table, finished=True)
    game = Game.objects.create(
        match=match, table=table, number=1, salt="s", commitment="c", state=state.to_json(),
        status=Game.Status.FINISHED, finished_at=now, result=state.result(), **setup,
    )  # fmt: skip
    Move.objects.bulk_create(
        Move(game=game, number=n, seat=s, action=a, public=p, text="", by=(by or {}).get(s, "player"))
        for n, (s, a, p) in enumerate(moves, 1)
    )
    return game


@pytest.fixture
def people() -> list[User]:
    return [User.objects.create_user(n, f"{n}@example.com", "pw-cards-123") for n in ("ann", "bob", "cat")]


@pytest.fixture
def moderator() -> User:
    user = User.objects.create_user("mod", "mod@example.com", "pw-cards-123")
    moderation.moderator_add(user)
    return user


def test_a_pairs_games_are_graded_once_each_way(people, settings) -> None:
    settings.FAIRPLAY_GRADE_SECONDS = 1.0
    ann, bob, cat = people
    shared = [store([ann, bob, cat], 1), store([cat, bob, ann], 2)]
    store([ann, cat, User.objects.create_user("dan")], 3)  # bob was not there: not theirs
    annulled = store([bob, ann, cat], 4)
    Game.objects.filter(pk=annulled.pk).update(annulled=True)
    # one game per task (each player against the other), the next queued after it
    assert tasks.grade_pair(ann.pk, bob.pk) == 1 and GameGrade.objects.count() == 2
    assert tasks.grade_pair(ann.pk, bob.pk) == 1 and GameGrade.objects.count() == 4
    assert tasks.grade_pair(ann.pk, bob.pk) == 0  # fired again: nothing graded twice
    rows = GameGrade.objects.all()
    assert {(r.game_id, r.user_id, r.partner_id) for r in rows} == {
        (g.pk, u.pk, p.pk) for g in shared for u, p in ((ann, bob), (bob, ann))
    }
    for r in rows:
        assert r.seat == Seat.objects.get(table=r.game.table, user=r.user).index
        assert 0 < r.graded <= r.decisions and r.seconds < 1.0 + 1.0
        for d in r.decisive:  # every decisive move is one of his, by its number in the game's log
            assert Move.objects.get(game=r.game, number=d["number"]).seat == r.seat
    assert set(pair_grades(ann.pk, bob.pk)) == {g.pk for g in shared}
    assert graded_pairs()[(ann.pk, bob.pk)]["games"] == 2


def test_moves_a_bot_made_for_him_are_not_his_decisions(people) -> None:
    ann, bob, cat = people
    game = store([ann, bob, cat], 5, by={0: "standin"})
    pair_grade(ann.pk, bob.pk, budget=0.5)
    assert GameGrade.objects.get(game=game, user=ann).decisions == 0
    assert GameGrade.objects.get(game=game, user=bob).decisions > 0


def test_moderator_follows_a_reported_pair_to_its_graded_moves_and_annuls_a_game(client, people, moderator) -> None:
    ann, bob, cat = people
    game = store([ann, bob, cat], 6)
    moderation.report_create(reporter=cat, reported=bob, reason="cheating", table_id=game.table_id)
    GameGrade.objects.create(
        game=game, user=ann, partner=bob, seat=0, partner_seat=1, decisions=9, graded=9, agreed=5, cost=0.8,
        gift=0.9, decisive=[{"number": 3, "chosen": {"type": "take"}, "bot": {"type": "pass"}, "cost": 0.5,
                             "gift": 0.5, "harm": 0.0}],
    )  # fmt: skip
    pair_scan_store()  # the beat's scan, which the queue reads
    client.force_login(moderator)
    queue = client.get(reverse("admin:fairplay_suspectedpair_changelist")).content.decode()
    pair_url = reverse("admin:fairplay_pair", args=[ann.pk, bob.pk])
    assert pair_url in queue and "1 game graded" in queue
    page = client.get(pair_url).content.decode()
    assert reverse("replay", args=[game.pk]) + "?step=3" in page
    assert f"ids={ann.pk}&amp;ids={bob.pk}" in page  # warn, ban, reverse: moderation's act page for both
    answer = client.post(reverse("admin:fairplay_pair_annul", args=[ann.pk, bob.pk]), {"game": game.pk, "reason": ""})
    assert answer.status_code == 302 and not Game.objects.get(pk=game.pk).annulled  # a reason is required
    client.post(reverse("admin:fairplay_pair_annul", args=[ann.pk, bob.pk]), {"game": game.pk, "reason": "collusion"})
    assert Game.objects.get(pk=game.pk).annulled
    assert AuditEntry.objects.filter(action=AuditEntry.Action.GAME_ANNUL, target=bob, actor=moderator).exists()


def test_plain_staff_and_players_see_no_queue(client, people) -> None:
    staff = User.objects.create_user("staff", "s@example.com", "pw-cards-123", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse("admin:fairplay_suspectedpair_changelist")).status_code == 403
    ann, bob, cat = people
    game = store([ann, bob, cat], 7)
    answer = client.post(reverse("admin:fairplay_pair_annul", args=[ann.pk, bob.pk]), {"game": game.pk, "reason": "x"})
    assert answer.status_code == 403 and not Game.objects.get(pk=game.pk).annulled


def test_each_task_grades_one_game_and_queues_the_next_until_none_is_left(
    people, settings, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    settings.FAIRPLAY_GRADE_SECONDS = 0.3
    ann, bob, cat = people
    store([ann, bob, cat], 8)
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(tasks.grade_pair, "delay", lambda a, b: sent.append((a, b)))
    with django_capture_on_commit_callbacks(execute=True):
        tasks.grade_pair(ann.pk, bob.pk)
    assert sent == [(ann.pk, bob.pk)]
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.grade_pair(ann.pk, bob.pk) == 0
    assert sent == [(ann.pk, bob.pk)]  # nothing left: the chain stops


def test_a_moderator_opens_the_replay_of_a_private_tables_game(client, people, moderator) -> None:
    ann, bob, cat = people
    game = store([ann, bob, cat], 9)
    Table.objects.filter(pk=game.table_id).update(private=True)
    outsider = User.objects.create_user("eve", "e@example.com", "pw-cards-123")
    client.force_login(outsider)
    assert client.get(reverse("replay", args=[game.pk]) + "?step=3").status_code == 404
    client.force_login(moderator)
    assert client.get(reverse("replay", args=[game.pk]) + "?step=3").status_code == 200

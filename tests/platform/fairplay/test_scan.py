"""``fairplay_scan`` reads the stored public records back: one JSON line per pair, the colluding pair first."""

import json
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone, translation

from accounts.models import User
from fairplay.selectors import pair_scores
from moderation.models import Report
from tables.models import Game, Match, Move, Seat, Table

pytestmark = pytest.mark.django_db

GAME = "verish"  # any game that tells its interactions; the platform never asks which


def store(players, record, by=None):
    """A finished game as the tables store it: table, seats, match, game, moves with their public records."""
    now = timezone.now()
    table = Table.objects.create(
        game=GAME, seats_count=len(players), created_by=players[0], status=Table.Status.FINISHED, finished_at=now
    )
    for i, u in enumerate(players):
        Seat.objects.create(table=table, index=i, user=u)
    match = Match.objects.create(table=table, finished=True)
    game = Game.objects.create(
        match=match,
        table=table,
        number=1,
        dealer=0,
        options={},
        deck=[],
        salt="s",
        commitment="c",
        state={},
        status=Game.Status.FINISHED,
        finished_at=now,
    )
    Move.objects.bulk_create(
        Move(game=game, number=n, seat=seat, action=public, text="", public=public, by=(by or {}).get(seat, "player"))
        for n, (seat, public) in enumerate(record, 1)
    )
    return game


def answers(rng, players, soft=()):
    """Claims and answers round the table; ``soft`` (claimant seat, answerer seat) pairs never doubt."""
    record = []
    for turn in range(24):
        claimant = turn % len(players)
        answerer = (claimant + 1) % len(players)
        record.append((claimant, {"type": "claim", "count": 1, "kind": "Q"}))
        doubt = (claimant, answerer) not in soft and rng.random() < 0.5
        record.append((answerer, {"type": "doubt" if doubt else "believe"}))
    return record


@pytest.fixture
def people():
    return [User.objects.create(username=n, display_name=n) for n in ("ann", "bob", "cat", "dan", "eve")]


def play(people, games=40, by=None, seed=1):
    rng = random.Random(seed)
    ann, bob = people[0], people[1]
    for g in range(games):
        others = rng.sample(people[2:], 1)
        players = [ann, bob, *others] if g % 2 else [bob, ann, *others]
        store(players, answers(rng, players, soft={(0, 1), (1, 0)}), by=by)
        rest = rng.sample(people[1:], 3)
        store(rest, answers(rng, rest))


def scan(**opts):
    out = StringIO()
    call_command("fairplay_scan", stdout=out, **opts)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_pair_that_never_doubts_each_other_comes_first(people):
    play(people)
    lines = scan()
    assert lines[0]["players"] == ["ann", "bob"] and lines[0]["flagged"]
    assert lines[0]["games"] == 40 and "Could doubt his claim: spared each other" in lines[0]["evidence"]
    with translation.override("ru"):  # a log line: English whatever the language of whoever runs it
        assert scan()[0]["evidence"] == lines[0]["evidence"]
    assert not any(line["flagged"] for line in lines[1:])
    assert [line["players"] for line in scan(flagged=True)] == [["ann", "bob"]]
    assert scan(game="biznes") == []  # another game: none of these
    pair = (min(people[0].pk, people[1].pk), max(people[0].pk, people[1].pk))
    found = next((p for p in pair_scores() if (p.a, p.b) == pair), None)
    assert found is not None and found.flagged and len(found.game_ids) == 40


def test_moves_a_bot_made_for_an_absent_player_are_not_his(people):
    play(people, by={0: "stand-in", 1: "timeout"})
    top = pair_scores()[0]
    assert not top.flagged


def test_a_cheating_report_at_their_table_ranks_a_pair_higher(people):
    play(people, games=6)

    def place():
        ranked = pair_scores()
        return next((n, p) for n, p in enumerate(ranked) if {p.a_name, p.b_name} == {"cat", "dan"})

    before, quiet = place()
    table = Seat.objects.filter(user=people[2]).filter(table__seats__user=people[3]).first().table
    Report.objects.create(reporter=people[4], reported=people[2], reason=Report.Reason.CHEATING, table=table)
    after, reported = place()
    assert after < before and reported.reports == 1 and reported.rank > quiet.rank
    assert reported.score == quiet.score  # a report ranks, it is no evidence


def test_since_takes_a_date_and_refuses_anything_else(people):
    play(people, games=2)
    assert scan(since="2000-01-01") and scan(since="2999-01-01") == []
    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        scan(since="yesterday")

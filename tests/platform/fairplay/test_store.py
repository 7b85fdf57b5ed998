"""The stored scan: the beat's task scores every pair, the queue and a pair's page read it, "Scan now" queues one."""

import random
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from kombu.exceptions import OperationalError

from accounts.models import User
from fairplay import selectors, services, tasks
from fairplay.models import PairScan
from fairplay.selectors import SCAN_RUNNING, pair_scan, pair_scores, scanned_pairs
from fairplay.services import flagged_pairs_queue, pair_scan_queue, pair_scan_store
from moderation.models import Report
from moderation.services import moderator_add
from tables.models import Game, Seat
from tests.platform.fairplay.test_scan import answers, play, store

pytestmark = pytest.mark.django_db

QUEUE = "admin:fairplay_suspectedpair_changelist"


@pytest.fixture
def people():
    return [User.objects.create(username=n, display_name=n) for n in ("ann", "bob", "cat", "dan", "eve")]


@pytest.fixture
def moderator(client):
    user = User.objects.create_user("mod", "mod@example.com", "pw-cards-123")
    moderator_add(user)
    client.force_login(user)
    return user


@pytest.fixture
def sent(monkeypatch):
    """The scans sent to the workers (each one's ``requested_at``)."""
    out: list[str | None] = []
    monkeypatch.setattr(tasks.scan_pairs, "delay", lambda at=None: out.append(at))
    return out


def no_scoring(monkeypatch):
    """From here on, scoring every pair afresh fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("scored every pair again")

    monkeypatch.setattr(selectors, "pair_scores", refuse)
    monkeypatch.setattr(selectors, "pair_scores_and_baseline", refuse)
    monkeypatch.setattr(services, "pair_scores_and_baseline", refuse)


def report(people, a, b):
    table = Seat.objects.filter(user_id=a).filter(table__seats__user_id=b).first().table
    Report.objects.create(reporter=people[4], reported_id=a, reason=Report.Reason.CHEATING, table=table)


def test_a_stored_scan_reads_as_the_fresh_one_and_keeps_every_flagged_or_reported_pair(people, monkeypatch):
    play(people, games=12)
    quiet = next(p for p in pair_scores() if not p.flagged and not p.reports)
    report(people, quiet.a, quiet.b)
    fresh = pair_scores()
    monkeypatch.setattr(services, "SCAN_KEEPS", 1)
    scan = pair_scan_store()
    assert scan is not None and scan.total == len(fresh) > 3 and PairScan.objects.count() == 1
    # every flagged or reported pair and the strongest other (``SCAN_KEEPS``), best first: the rest counted only
    kept = [p for p in fresh if p.flagged or p.reports] + [p for p in fresh if not (p.flagged or p.reports)][:1]
    kept.sort(key=lambda p: (-p.rank, -p.games, p.a, p.b))
    stored = scanned_pairs(scan)
    assert [(p.a, p.b) for p in stored] == [(p.a, p.b) for p in kept]
    assert any(p.flagged for p in stored) and any((p.a, p.b) == (quiet.a, quiet.b) for p in stored)
    for old, new in zip(kept, stored, strict=True):  # everything a page shows, as scored
        assert (new.a_name, new.score, new.flagged, new.reports, new.kinds, new.decisive, new.games) == (
            old.a_name, old.score, old.flagged, old.reports, old.kinds, old.decisive, old.games,
        )  # fmt: skip


def test_a_scan_delivered_twice_or_while_another_runs_scans_once(people, monkeypatch):
    play(people, games=4)
    first = tasks.scan_pairs()
    no_scoring(monkeypatch)
    assert tasks.scan_pairs() == first  # the beat's task delivered twice: the scan just made answers it
    asked = timezone.now()
    later = PairScan.objects.get(pk=first)
    assert pair_scan_store(asked - timedelta(seconds=1)).pk == first  # asked before it started: it answers
    cache.add(SCAN_RUNNING, 1, 60)  # another worker is scanning
    assert pair_scan_store(asked) is None and pair_scan().pk == later.pk
    monkeypatch.undo()
    cache.delete(SCAN_RUNNING)
    assert tasks.scan_pairs(asked.isoformat()) != first  # asked after it: a new scan, the old one gone
    assert PairScan.objects.count() == 1 and cache.get(SCAN_RUNNING) is None


def test_scan_now_queues_one_scan_however_often_it_is_clicked(
    client, people, moderator, sent, django_capture_on_commit_callbacks
):
    play(people, games=4)
    pair_scan_store()
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(reverse("admin:fairplay_scan"), follow=True).content.decode()
        again = client.post(reverse("admin:fairplay_scan"), {"all": "1"}, follow=True)
    assert len(sent) == 1 and "A scan is queued" in first and "reloads itself" in first
    assert "already queued or running" in again.content.decode() and again.redirect_chain[-1][0].endswith("?all=1")
    assert not pair_scan_queue()
    tasks.scan_pairs(sent[0])  # the worker runs it: the queue offers the button again
    page = client.get(reverse(QUEUE)).content.decode()
    assert "Scan now" in page and "reloads itself" not in page
    assert client.get(reverse("admin:fairplay_scan")).status_code == 403  # a link cannot scan
    client.force_login(User.objects.create_user("staff", "s@example.com", "pw-cards-123", is_staff=True))
    assert client.post(reverse("admin:fairplay_scan")).status_code == 403


def test_a_scan_the_broker_does_not_take_is_refused_clearly_and_can_be_asked_for_again(
    client, people, moderator, monkeypatch
):
    sent: list[str] = []

    def broker_gone(at=None):
        raise OperationalError("Error 111 connecting to the broker")

    monkeypatch.setattr(tasks.scan_pairs, "delay", broker_gone)
    page = client.post(reverse("admin:fairplay_scan"), follow=True).content.decode()
    assert "try again shortly" in page and "A scan is queued" not in page and "reloads itself" not in page
    monkeypatch.setattr(tasks.scan_pairs, "delay", lambda at=None: sent.append(at))
    assert "A scan is queued" in client.post(reverse("admin:fairplay_scan"), follow=True).content.decode()
    assert len(sent) == 1  # the refused click left no lock behind


def test_a_scan_that_fails_offers_the_button_again(
    client, people, moderator, sent, monkeypatch, django_capture_on_commit_callbacks
):
    play(people, games=4)
    pair_scan_store()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("admin:fairplay_scan"))
    assert len(sent) == 1 and "reloads itself" in client.get(reverse(QUEUE)).content.decode()

    def broken(*args, **kwargs):
        raise RuntimeError("the database went away mid-scan")

    monkeypatch.setattr(services, "pair_scores_and_baseline", broken)
    with pytest.raises(RuntimeError):
        tasks.scan_pairs(sent[0])
    page = client.get(reverse(QUEUE)).content.decode()
    assert "Scan now" in page and "reloads itself" not in page


def test_the_queue_and_a_pairs_page_read_the_stored_scan(
    client, people, moderator, sent, monkeypatch, django_capture_on_commit_callbacks
):
    play(people, games=12)
    ann, bob = people[0].pk, people[1].pk
    with django_capture_on_commit_callbacks(execute=True):
        empty = client.get(reverse(QUEUE)).content.decode()
    # before the first scan the page says so and offers the button: a look queues nothing (the beat makes the first)
    assert "No scan has been made yet" in empty and "Scan now" in empty and "reloads itself" not in empty
    assert sent == [] and "every 10 minutes" in empty
    unscored = client.get(reverse("admin:fairplay_pair", args=[ann, bob])).content.decode()
    assert "Not scored yet" in unscored and unscored.count('class="pair-game"') == 12  # their games all the same
    pair_scan_store()
    no_scoring(monkeypatch)
    queue = client.get(reverse(QUEUE)).content.decode()
    assert "Scanned at" in queue and reverse("admin:fairplay_pair", args=[ann, bob]) in queue
    every = client.get(reverse(QUEUE) + "?all=1").content.decode()
    assert every.count('class="fairplay-pair"') == PairScan.objects.get().total > queue.count('class="fairplay-pair"')
    assert client.get(reverse("admin:fairplay_pair", args=[bob, ann])).status_code == 200
    PairScan.objects.update(pairs=[])  # a pair the scan does not hold: scored from their own games, nothing more
    page = client.get(reverse("admin:fairplay_pair", args=[ann, bob])).content.decode()
    assert "ann · bob" in page and "Score" in page and "Not scored yet" not in page
    lone = User.objects.create(username="fay")
    assert client.get(reverse("admin:fairplay_pair", args=[ann, lone.pk])).status_code == 404  # never met


def test_a_pair_the_scan_did_not_keep_is_scored_from_its_games_alone_as_the_scan_scored_it(
    people, monkeypatch, django_assert_max_num_queries
):
    play(people, games=12)
    strangers = people[2:]  # games neither ann nor bob sat in: the pair's score must not read them
    for seed in range(3):
        store(strangers, answers(random.Random(seed), strangers))
    report(people, people[0].pk, people[2].pk)
    full = pair_scores()
    monkeypatch.setattr(services, "SCAN_KEEPS", 0)
    scan = pair_scan_store()
    assert len(scan.pairs) < len(full)
    no_scoring(monkeypatch)
    read: list[set[int]] = []
    scored = selectors.score_pair

    def spy(games, *args, **kwargs):
        games = list(games)
        read.append({g.game_id for g in games})
        return scored(games, *args, **kwargs)

    monkeypatch.setattr(selectors, "score_pair", spy)
    unkept = 0
    for pair in full:
        own = set(
            Game.objects.filter(table__seats__user_id__in=(pair.a, pair.b)).distinct().values_list("pk", flat=True)
        )
        with django_assert_max_num_queries(7):
            alone = selectors.pair_score_in_scan(pair.b, pair.a, scan=scan)
        assert alone == pair  # every figure the page shows: score, kinds, decisive moves, reports, chance ratio
        assert read.pop() == own  # the games either sat in, not one more
        if not any((d["a"], d["b"]) == (pair.a, pair.b) for d in scan.pairs):
            unkept += 1
            assert selectors.stored_pair_score(pair.a, pair.b) == pair  # what the pair's page shows
    assert unkept and any(p.reports for p in full)
    # a scan stored before scans kept their baseline cannot judge one pair alone: not scored, rather than misjudged
    PairScan.objects.update(baseline={})
    assert selectors.pair_score_in_scan(people[0].pk, people[1].pk, scan=pair_scan()) is None


def test_the_hourly_grading_reads_a_recent_scan_and_makes_one_when_it_is_old(
    people, monkeypatch, django_capture_on_commit_callbacks
):
    play(people, games=12)
    graded: list[tuple[int, int]] = []
    pair_scan_store()
    flagged = [(p.a, p.b) for p in pair_scores() if p.flagged]
    assert flagged
    no_scoring(monkeypatch)
    monkeypatch.setattr(tasks.grade_pair, "delay", lambda a, b: graded.append((a, b)))
    with django_capture_on_commit_callbacks(execute=True):
        assert flagged_pairs_queue() == len(flagged)
    assert graded == flagged
    monkeypatch.undo()
    monkeypatch.setattr(tasks.grade_pair, "delay", lambda a, b: graded.append((a, b)))
    PairScan.objects.update(finished_at=timezone.now() - timedelta(hours=1))
    old = pair_scan().pk
    with django_capture_on_commit_callbacks(execute=True):
        flagged_pairs_queue()
    assert pair_scan().pk != old and graded == flagged * 2


def test_a_scan_that_ends_while_the_queue_is_read_is_shown_or_reloaded_for(
    client, people, moderator, sent, monkeypatch, django_capture_on_commit_callbacks
):
    """The moderator's page after "Scan now" is read while the worker may finish the scan: it must show the scan or
    reload until it does, never say "no scan yet" with nothing coming."""
    play(people, games=4)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("admin:fairplay_scan"))
    read = selectors.pair_scan

    def worker_done_meanwhile():
        found = read()
        pair_scan_store(timezone.now() - timedelta(seconds=1))  # stored, and its locks let go
        return found

    monkeypatch.setattr(selectors, "pair_scan", worker_done_meanwhile)
    page = client.get(reverse(QUEUE)).content.decode()
    assert "No scan has been made yet." not in page or "reloads itself" in page

"""Friends, blocks, challenges, notifications, history and the watch list, through the services and pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from leaderboards.models import PlayerRating
from notifications.models import Notification
from notifications.services import NOTIFICATIONS_KEPT_DAYS, notification_mark_read, notification_send
from social import services
from social.games import history_rows, live_games, visible_history
from social.models import Challenge, Friendship
from social.selectors import friend_ids, friendship_state
from tables.models import Game, Seat, Table
from tests.platform.tables.factories import make_players, play_randomly, started_table

pytestmark = pytest.mark.django_db

DURAK_2 = {
    "options": {},
    "seats": 2,
    "turn_seconds": 60,
    "time_bank_seconds": 0,
    "rated": True,
    "private": False,
    "match_length": 1,
    "match_options": {"fool_rule": "under"},
}


@pytest.fixture
def ab():
    return make_players(2, prefix="soc")


def kinds(user) -> list[str]:
    return list(Notification.objects.filter(user=user).values_list("kind", flat=True))


def test_friend_request_round_trip(ab):
    a, b = ab
    services.friend_request_send(a, b)
    assert friendship_state(a, b) == "sent" and friendship_state(b, a) == "received"
    note = Notification.objects.get(user=b)
    assert note.kind == "friend_request" and a.name in note.message and note.read_at is None
    with pytest.raises(services.SocialRefused, match="already asked"):
        services.friend_request_send(a, b)

    services.friend_request_accept(b, a)
    assert friend_ids(a) == [b.pk] and friend_ids(b) == [a.pk]
    assert kinds(a) == ["friend_accepted"]

    services.friend_remove(b, a)
    assert friend_ids(a) == [] and not Friendship.objects.exists()


def test_asking_back_accepts_and_a_declined_request_is_gone(ab):
    a, b = ab
    services.friend_request_send(a, b)
    services.friend_request_send(b, a)  # b asks a who already asked him: they are friends
    assert friendship_state(a, b) == "friends"
    services.friend_remove(a, b)
    services.friend_request_send(a, b)
    services.friend_request_decline(b, a)
    assert friendship_state(a, b) == ""
    with pytest.raises(services.SocialRefused):
        services.friend_request_accept(b, a)


def test_the_bell_stops_counting_a_friend_request_once_none_waits(ab):
    a, b = ab
    c = make_players(1, prefix="third")[0]

    def unread(user) -> int:
        return Notification.objects.filter(user=user, kind="friend_request", read_at__isnull=True).count()

    services.friend_request_send(a, b)
    services.friend_remove(a, b)  # withdrawn before b looked
    assert unread(b) == 0
    services.friend_request_send(a, b)
    services.friend_request_send(c, b)
    services.friend_request_decline(b, a)
    assert unread(b) == 2  # c's still waits, and the notifications do not say whose is whose
    services.friend_request_accept(b, c)
    assert unread(b) == 0
    services.friend_request_send(a, b)
    assert unread(b) == 1


def test_no_friendship_with_oneself_or_a_bot(ab):
    a, _ = ab
    bot = User.objects.create(username="bot-x", is_bot=True)
    for other in (a, bot):
        with pytest.raises(services.SocialRefused):
            services.friend_request_send(a, other)
    assert not Friendship.objects.exists()


def test_a_block_ends_friendship_and_stops_requests_and_challenges(ab):
    a, b = ab
    services.friend_request_send(a, b)
    services.friend_request_accept(b, a)
    challenge = services.challenge_send(a, b, "durak", DURAK_2)
    services.block_add(b, a)
    assert friendship_state(a, b) == ""
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.CANCELLED
    with pytest.raises(services.SocialRefused):
        services.friend_request_send(a, b)
    with pytest.raises(services.SocialRefused):
        services.challenge_send(a, b, "durak", DURAK_2)
    with pytest.raises(services.SocialRefused):
        services.challenge_send(b, a, "durak", DURAK_2)  # nor the other way while the block stands
    services.block_remove(b, a)
    services.friend_request_send(a, b)


def test_a_blocked_player_cannot_join_the_hosts_private_table_even_with_the_link(ab):
    from lobbies.services import LobbyRefused, seat_join, table_create

    a, b = ab
    table = table_create(user=a, game="durak", options={}, seats=2, private=True)
    services.block_add(a, b)
    with pytest.raises(LobbyRefused):
        seat_join(table_id=table.pk, user=b, token=table.invite_token)
    assert not Seat.objects.filter(table=table, user=b).exists()


def test_a_challenge_accepted_lands_both_players_at_one_started_table(ab, client):
    a, b = ab
    challenge = services.challenge_send(a, b, "durak", DURAK_2)
    note = Notification.objects.get(user=b, kind="challenge")
    assert note.url == reverse("challenge", args=[challenge.pk])

    client.force_login(b)
    response = client.post(reverse("challenge_answer", args=[challenge.pk, "accept"]))
    challenge.refresh_from_db()
    table = challenge.table
    assert challenge.status == Challenge.Status.ACCEPTED and table is not None
    assert response.status_code == 302 and response["Location"] == reverse("table", args=[table.pk])
    assert table.status == Table.Status.PLAYING
    assert [(s.index, s.user_id) for s in table.seats.order_by("index")] == [(0, a.pk), (1, b.pk)]
    assert Game.objects.filter(table=table, status=Game.Status.PLAYING).count() == 1
    assert Notification.objects.get(user=b, kind="challenge").read_at is not None  # answered: off the bell
    answer = Notification.objects.get(user=a, kind="challenge_answer")
    assert answer.url == reverse("table", args=[table.pk])
    # a second click changes nothing
    again = client.post(reverse("challenge_answer", args=[challenge.pk, "accept"]))
    assert again.status_code == 302 and Table.objects.count() == 1


def test_challenges_expire_and_only_the_challenged_may_answer(ab):
    a, b = ab
    c = make_players(1, prefix="third")[0]
    challenge = services.challenge_send(a, b, "durak", DURAK_2)
    for intruder in (a, c):
        with pytest.raises(services.SocialRefused):
            services.challenge_accept(intruder, challenge.pk)
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(services.SocialRefused, match="no longer open"):
        services.challenge_accept(b, challenge.pk)
    assert not Table.objects.exists()
    services.challenge_send(a, b, "durak", DURAK_2)  # the expired one no longer blocks a new one


def test_a_muted_or_inactive_player_cannot_challenge_and_pending_ones_are_capped(ab):
    a, b = ab
    others = make_players(services.MAX_PENDING_CHALLENGES + 1, prefix="many")
    for other in others[:-1]:
        services.challenge_send(a, other, "durak", DURAK_2)
    with pytest.raises(services.SocialRefused, match="too many"):
        services.challenge_send(a, others[-1], "durak", DURAK_2)
    from moderation.services import user_mute

    moderator = make_players(1, prefix="mod")[0]
    user_mute(b, by=moderator, reason="abusive chat", minutes=10)
    with pytest.raises(services.SocialRefused, match="muted you until"):
        services.challenge_send(b, a, "durak", DURAK_2)


def test_declining_tells_the_challenger(ab):
    a, b = ab
    challenge = services.challenge_send(a, b, "durak", DURAK_2)
    services.challenge_decline(b, challenge.pk)
    assert "declined" in Notification.objects.get(user=a).message
    with pytest.raises(services.SocialRefused):
        services.challenge_cancel(a, challenge.pk)


def test_notification_send_for_other_apps_and_the_bell(ab, client):
    a, _ = ab
    notification_send(a, "tournament", "Round 2 of the Spring Cup starts now.", "/tournaments/1/")
    client.force_login(a)
    page = client.get(reverse("home")).content.decode()
    assert 'id="bell-count" class="bell-count">1<' in page
    listing = client.get(reverse("notifications")).content.decode()
    assert "Round 2 of the Spring Cup starts now." in listing
    page = client.get(reverse("home")).content.decode()
    assert 'id="bell-count" class="bell-count"><' in page  # read once listed


def test_history_shows_result_rating_change_and_hides_private_games(ab, client):
    a, b = ab
    import random

    public, _, game = started_table("durak", 2, players=[a, b])
    play_randomly(game, random.Random(3))
    private, _, game2 = started_table("durak", 2, players=[a, b], private=True)
    play_randomly(game2, random.Random(4))
    outsider = make_players(1, prefix="out")[0]

    assert [g.table_id for g in visible_history(a, outsider)] == [public.pk]
    assert {g.table_id for g in visible_history(a, b)} == {public.pk, private.pk}
    rows = history_rows(a, list(visible_history(a, a)))
    assert all(r.opponents == [b.name] for r in rows)
    rated = next(r for r in rows if r.game.table_id == public.pk)
    assert rated.place in (1, 2) and rated.delta is not None and (rated.delta > 0) == (rated.place == 1)

    client.force_login(outsider)
    page = client.get(reverse("profile_games", args=[a.username]) + "?game=durak").content.decode()
    assert f"#{public.pk}" in page and f"#{private.pk}" not in page
    whole = round(rated.delta)
    shown = "\u00b10" if whole == 0 else (f"+{whole}" if whole > 0 else f"\u2212{-whole}")
    assert f'">{shown}</span>' in page
    assert (
        client.get(reverse("profile_games", args=[a.username]) + "?game=verish").content.decode().count("data-game=")
        == 0
    )


def test_watch_list_is_best_rated_first_and_public_only():
    low, _, _ = started_table("durak", 2)
    high, players, _ = started_table("durak", 2)
    started_table("durak", 2, private=True)
    for user, rating in ((players[0], 1500.0), (players[1], 1400.0)):
        PlayerRating.objects.create(
            user=user, game="durak", mu=30, sigma=3, rating=rating, games=5, updated_at=timezone.now()
        )
    live = live_games()
    assert [g.table.pk for g in live] == [high.pk, low.pk]
    assert [p["rating"] for p in live[0].players] == [1500, 1400]


def test_profile_edit_checks_the_display_name_as_sign_up_does(ab, client):
    a, _ = ab
    client.force_login(a)
    too_long = "x" * 41
    response = client.post(
        reverse("profile_edit"), {"display_name": too_long, "bio": "hi", "avatar": "crown", "country": "UA"}
    )
    assert response.status_code == 200 and 'class="error"' in response.content.decode()
    a.refresh_from_db()
    assert a.display_name != too_long
    response = client.post(
        reverse("profile_edit"),
        {"display_name": "  Ace  ", "bio": "Plays\u0007 durak", "avatar": "crown", "country": "UA"},
    )
    assert response.status_code == 302
    a.refresh_from_db()
    assert a.display_name == "Ace" and a.social_profile.avatar == "crown" and a.social_profile.bio == "Plays durak"
    page = client.get(reverse("profile", args=[a.username])).content.decode()
    assert "avatars/crown.svg" in page and "\U0001f1fa\U0001f1e6" in page
    bad = client.post(reverse("profile_edit"), {"display_name": "A", "avatar": "upload.php", "country": "ZZ"})
    assert bad.status_code == 200
    a.refresh_from_db()
    assert a.social_profile.country == "UA"


def test_the_beat_task_expires_overdue_challenges_only(ab):
    from social.tasks import expire_challenges

    a, b = ab
    c = make_players(1, prefix="late")[0]
    overdue = services.challenge_send(a, b, "durak", DURAK_2)
    fresh = services.challenge_send(a, c, "durak", DURAK_2)
    Challenge.objects.filter(pk=overdue.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert expire_challenges() == 1
    statuses = dict(Challenge.objects.values_list("pk", "status"))
    assert statuses == {overdue.pk: Challenge.Status.EXPIRED, fresh.pk: Challenge.Status.PENDING}


def test_old_read_notifications_are_pruned_unread_ones_kept(ab):
    from notifications.tasks import prune_notifications

    a, _ = ab
    old_read = notification_send(a, "other", "old and read")
    old_unread = notification_send(a, "other", "old, never read")
    recent = notification_send(a, "other", "recent and read")
    notification_mark_read(a, [old_read.pk, recent.pk])
    Notification.objects.filter(pk__in=[old_read.pk, old_unread.pk]).update(
        created_at=timezone.now() - timedelta(days=NOTIFICATIONS_KEPT_DAYS + 1)
    )
    assert prune_notifications() == 1
    assert set(Notification.objects.values_list("pk", flat=True)) == {old_unread.pk, recent.pk}


def test_a_notification_is_shown_in_the_readers_language(ab):
    from django.utils import translation

    a, b = ab
    services.friend_request_send(a, b)
    note = Notification.objects.get(user=b)
    with translation.override("uk"):
        assert note.message == f"{a.name} хоче додати вас у друзі."  # noqa: RUF001
    with translation.override("ru"):
        assert note.message == f"{a.name} хочет добавить вас в друзья."
    assert note.message == f"{a.name} wants to be your friend."


def test_history_places_a_points_match_by_its_score_sheet():
    """A game rated per match (Biznes) shows, on every deal's row, the match's place and points from its sheet;
    a deal of a match still being played shows none yet."""
    import random

    from tables.sheets import sheet_view

    table, players, game = started_table("biznes", 4, match_length=2)
    me = players[0]
    play_randomly(game, random.Random(7))
    table.refresh_from_db()
    [first] = history_rows(me, list(visible_history(me, me)))
    if not first.game.match.finished:
        assert first.place is None and first.points is None
    while True:
        current = Game.objects.filter(table=table, status=Game.Status.PLAYING).first()
        if current is None:
            break
        play_randomly(current, random.Random(current.number))
    match = first.game.match
    match.refresh_from_db()
    assert match.finished
    sheet = sheet_view("biznes", match.sheet)
    mine = sheet["totals"][0]
    place = 1 + sum(1 for t in sheet["totals"] if t > mine)
    rows = history_rows(me, list(visible_history(me, me)))
    assert len(rows) >= 2
    assert all(r.place == place and r.points == f"{mine:g}" for r in rows)

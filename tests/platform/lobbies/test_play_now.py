"""'Play now': the seek queue pairs compatible players, widens rated windows with the wait, seats bots after a
player's chosen wait, never pairs blocked players and refuses playbanned ones."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import get_game
from leaderboards.models import PlayerRating
from lobbies import pairing, services
from lobbies.forms import SeekForm
from lobbies.models import Seek
from moderation.services import user_playban
from notifications.models import Notification
from social.services import block_add
from tables.models import Seat, Table

pytestmark = pytest.mark.django_db

T0 = timezone.now()


def join(user, seconds: float = 0, **kwargs):
    kwargs.setdefault("game", "durak")
    kwargs.setdefault("seats", 2)
    return services.seek_join(user=user, now=T0 + timedelta(seconds=seconds), **kwargs)


def rate(user, rating: float) -> None:
    PlayerRating.objects.create(user=user, game="durak", mu=25, sigma=3, rating=rating, games=30, updated_at=T0)


def seated(table) -> set[int]:
    return set(Seat.objects.filter(table=table, bot_level="").values_list("user_id", flat=True))


def test_two_players_of_one_queue_are_seated_together_and_both_called(make_user):
    a, b = make_user(), make_user()
    assert join(a) is None
    table = join(b, 1)
    assert table is not None and table.status == Table.Status.PLAYING
    assert seated(table) == {a.pk, b.pk} and table.rated
    assert not Seek.objects.exists()
    calls = Notification.objects.filter(kind=Notification.Kind.PLAY_NOW, url=reverse("table", args=[table.pk]))
    assert set(calls.values_list("user_id", flat=True)) == {a.pk, b.pk}


def test_different_settings_are_different_queues(make_user):
    a, b, c = make_user(), make_user(), make_user()
    assert join(a, turn_seconds=30) is None
    assert join(b, rated=False) is None
    assert join(c, options={"deck": 52}) is None
    assert Seek.objects.values("queue").distinct().count() == 3


def test_the_rating_window_widens_with_the_wait(make_user):
    assert [pairing.window(s) for s in (0, 9, 10, 35, 59)] == [100, 100, 150, 250, 350]
    assert pairing.window(60) == float("inf")
    a, b = make_user(), make_user()
    rate(a, 1000)
    rate(b, 1300)
    assert join(a) is None
    assert join(b, 1) is None  # 300 apart: neither window reaches
    assert services.seek_sweep(T0 + timedelta(seconds=39)) == 0  # a's window: 250
    assert services.seek_sweep(T0 + timedelta(seconds=40)) == 1  # a's window: 300
    (table,) = Table.objects.all()
    assert seated(table) == {a.pk, b.pk}


def test_close_ratings_pair_at_once_and_far_ones_wait(make_user):
    a, b, c = make_user(), make_user(), make_user()
    rate(a, 1000)
    rate(b, 1500)
    rate(c, 1080)
    join(a)
    assert join(b, 1) is None
    table = join(c, 2)
    assert seated(table) == {a.pk, c.pk}
    assert list(Seek.objects.values_list("user_id", flat=True)) == [b.pk]


def test_an_unrated_queue_ignores_ratings(make_user):
    a, b = make_user(), make_user()
    rate(a, 800)
    rate(b, 1700)
    join(a, rated=False)
    assert join(b, 1, rated=False) is not None


def test_bots_fill_the_empty_seats_after_the_chosen_wait(make_user):
    a = make_user()
    assert join(a, seats=3, bots_after=15) is None
    assert services.seek_sweep(T0 + timedelta(seconds=14)) == 0
    assert services.seek_sweep(T0 + timedelta(seconds=15)) == 1
    (table,) = Table.objects.all()
    assert table.status == Table.Status.PLAYING and not table.rated
    assert seated(table) == {a.pk}
    assert Seat.objects.filter(table=table).exclude(bot_level="").count() == 2
    assert Notification.objects.filter(user=a, kind=Notification.Kind.PLAY_NOW).exists()


def test_bots_take_only_the_seats_people_willing_to_play_bots_leave(make_user):
    a, b, c = make_user(), make_user(), make_user()
    join(a, seats=4, bots_after=30)
    join(b, 5, seats=4, bots_after=120)
    join(c, 6, seats=4)  # people only
    services.seek_sweep(T0 + timedelta(seconds=30))
    (table,) = Table.objects.all()
    assert seated(table) == {a.pk, b.pk}
    assert list(Seek.objects.values_list("user_id", flat=True)) == [c.pk]


def test_a_player_waiting_for_people_only_never_gets_bots(make_user):
    join(make_user(), seats=3)
    assert services.seek_sweep(T0 + timedelta(hours=1)) == 0


def test_blocked_players_are_never_paired(make_user):
    a, b, c = make_user(), make_user(), make_user()
    block_add(b, a)
    join(a)
    assert join(b, 1) is None
    assert services.seek_sweep(T0 + timedelta(hours=1)) == 0
    table = join(c, 2)
    assert seated(table) == {a.pk, c.pk}
    assert Seek.objects.get().user_id == b.pk


def test_a_playbanned_player_cannot_queue_and_is_told_why(make_user, django_user_model):
    mod = django_user_model.objects.create_user(username="mod", password="pw-123456", is_staff=True)
    a = make_user()
    user_playban(a, by=mod, reason="left three games", minutes=60)
    with pytest.raises(services.LobbyRefused) as refused:
        join(a)
    assert str(refused.value)
    assert not Seek.objects.exists()


def test_a_player_playbanned_while_waiting_is_dropped_not_seated(make_user, django_user_model):
    mod = django_user_model.objects.create_user(username="mod", password="pw-123456", is_staff=True)
    a, b = make_user(), make_user()
    join(a)
    user_playban(a, by=mod, reason="left three games", minutes=60)
    assert join(b, 1) is None
    assert not Table.objects.exists()
    assert list(Seek.objects.values_list("user_id", flat=True)) == [b.pk]


def test_one_queue_at_a_time_and_sitting_down_elsewhere_leaves_it(make_user, host):
    a = make_user()
    join(a)
    join(a, seats=3)
    assert Seek.objects.get(user=a).queue.seats == 3
    table = services.table_create(user=host, game="durak", options={}, seats=3)
    services.seat_join(table_id=table.pk, user=a)
    assert not Seek.objects.filter(user=a).exists()
    with pytest.raises(services.LobbyRefused, match="already sit at table"):
        join(a)


def test_bad_settings_are_refused_and_change_nothing(make_user):
    a = make_user()
    for bad in ({"seats": 9}, {"options": {"deck": 7}}, {"turn_seconds": 1}, {"bots_after": 5}):
        with pytest.raises(services.LobbyRefused):
            join(a, **bad)
    assert not Seek.objects.exists()


def play_now_form(game: str = "durak", **changes) -> dict:
    """What the Play page's "Play now" form posts with its defaults (a switch that is off is not posted)."""
    form = SeekForm(get_game(game))
    data = {name: field.initial for name, field in form.fields.items() if field.initial not in (None, False)}
    data = {name: "on" if value is True else value for name, value in data.items()}
    return {"game": game, **data, **changes}


def test_the_play_now_form_is_each_game_s_in_each_language():
    """Its fields are made once per game and language and shared by its forms: a form in another language or of
    another game is not given the fields made for the first."""
    from django.utils import translation

    with translation.override("en"):
        durak = SeekForm(get_game("durak"))
        assert (durak.fields["opt_deck"].label, durak.fields["seats"].label) == ("Deck", "Players")
        biznes = SeekForm(get_game("biznes"), {"seats": "9"})
        assert "opt_mode" in durak.fields and "opt_mode" not in biznes.fields
        assert [n for n, _ in biznes.fields["seats"].choices] == [4, 5, 6] and not biznes.is_valid()
    with translation.override("ru"):
        russian = SeekForm(get_game("durak"))
        assert (russian.fields["opt_deck"].label, russian.fields["seats"].label) == ("Колода", "Игроки")
        assert [n for n, _ in russian.fields["seats"].choices] == list(range(2, 9))


def test_the_play_page_queues_shows_counts_and_leaves(make_user, client_of):
    a, b = make_user(), make_user()
    ca = client_of(a)
    response = ca.post(reverse("play_now"), play_now_form(seats=3))
    assert response.status_code == 302
    page = client_of(b).get(reverse("play")).content.decode()
    assert "1 waiting" in page
    mine = ca.get(reverse("play")).content.decode()
    assert "Leave the queue" in mine and 'value="3" selected' in mine  # his last settings
    ca.post(reverse("play_now_leave"))
    assert not Seek.objects.exists()


def test_the_last_settings_are_his_own_and_written_nowhere_on_the_server(make_user, client_of):
    """They ride in a signed cookie naming him: another player signed in on the same browser, or a cookie
    written by hand, starts from the game's defaults; no session row is written for them."""
    from django.contrib.sessions.models import Session

    a, b = make_user(), make_user()
    ca = client_of(a)
    sessions = {s.session_key: s.session_data for s in Session.objects.all()}
    ca.post(reverse("play_now"), play_now_form(seats=4))
    assert {s.session_key: s.session_data for s in Session.objects.all()} == sessions
    assert 'value="4" selected' in ca.get(reverse("play")).content.decode()
    ca.post(reverse("play_now_leave"))
    ca.force_login(b)  # the next player on this browser
    assert 'value="4" selected' not in ca.get(reverse("play")).content.decode()
    cb = client_of(b)
    cb.cookies["play_now"] = "forged:value"
    assert cb.get(reverse("play")).status_code == 200


def test_two_clicks_on_play_now_seat_both_players(make_user, client_of):
    a, b = make_user(), make_user()
    form = play_now_form(seats=2)
    assert client_of(a).post(reverse("play_now"), form).url.startswith(reverse("play"))
    response = client_of(b).post(reverse("play_now"), form)
    table = Table.objects.get()
    assert response.url == reverse("table", args=[table.pk])


def test_the_play_pages_htmx_join_answers_with_its_queues_part_then_the_table(make_user, client_of):
    """The page's form posts by htmx: a waiting player gets the queues' part (his line says he asked for reliable
    players only), not a whole page; the one whose click completes the group is sent to the table."""
    a, b = make_user(), make_user()
    htmx = {"HTTP_HX_REQUEST": "true"}
    response = client_of(a).post(reverse("play_now"), play_now_form(seats=2, reliable_only="on"), **htmx)
    part = response.content.decode()
    assert response.status_code == 200 and "<html" not in part
    assert "You are in the queue." in part and "Reliable players only" in part
    response = client_of(b).post(reverse("play_now"), play_now_form(seats=2), **htmx)
    table = Table.objects.get()
    assert response.status_code == 204 and response["HX-Redirect"] == reverse("table", args=[table.pk])
    assert seated(table) == {a.pk, b.pk} and table.status == Table.Status.PLAYING


def test_an_htmx_join_refused_says_why_in_the_queues_part(make_user, client_of):
    response = client_of(make_user()).post(reverse("play_now"), play_now_form(seats=9), HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'role="alert"' in response.content.decode()
    assert not Seek.objects.exists()


def test_a_table_claimed_but_never_started_is_started_by_the_sweep(make_user, monkeypatch):
    """A join claims its group's table under the queue's lock and starts it after the commit; if its process died
    in between, the sweep starts it and calls the players."""
    a, b = make_user(), make_user()
    monkeypatch.setattr(services, "_claimed_start", lambda made: None)
    join(a)
    join(b)
    table = Table.objects.get()
    assert table.status == Table.Status.OPEN and seated(table) == {a.pk, b.pk}
    assert not Seek.objects.exists()
    monkeypatch.undo()
    services.seek_sweep(now=timezone.now())
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN  # made a moment ago: its join may still be starting it
    services.seek_sweep(now=timezone.now() + timedelta(seconds=30))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert Notification.objects.filter(kind=Notification.Kind.PLAY_NOW).count() == 2


def test_a_malformed_play_now_post_is_a_message_not_an_error(make_user, client_of):
    client = client_of(make_user())
    for form in ({"game": "chess"}, play_now_form(seats="x"), play_now_form(turn_seconds="7"), play_now_form(seats=9)):
        response = client.post(reverse("play_now"), form)
        assert response.status_code == 302
    assert not Seek.objects.exists()


@pytest.mark.parametrize(
    ("lang", "seconds", "text"),
    [
        ("en", 0, "You joined just now"),
        ("en", 1, "You joined just now"),
        ("en", 42, "Waiting for 42 seconds"),
        ("en", 61, "Waiting for 1 minute;"),
        ("en", 300, "Waiting for 5 minutes"),
        ("ru", 21, "Ждёте уже 21 секунду"),
        ("ru", 23, "Ждёте уже 23 секунды"),
        ("ru", 45, "Ждёте уже 45 секунд"),
        ("ru", 60, "Ждёте уже 1 минуту"),
        ("ru", 180, "Ждёте уже 3 минуты"),
        ("ru", 660, "Ждёте уже 11 минут"),
        ("uk", 5, "Ви тільки-но стали в чергу"),
        ("uk", 31, "Чекаєте вже 31 секунду"),
        ("uk", 120, "Чекаєте вже 2 хвилини"),
        ("uk", 1260, "Чекаєте вже 21 хвилину"),
    ],
)
def test_the_wait_reads_naturally_from_the_first_second(lang, seconds, text):
    from django.utils import translation

    from lobbies.selectors import wait_text

    with translation.override(lang):
        shown = wait_text(T0, T0 + timedelta(seconds=seconds))
    assert shown.startswith(text), shown
    assert "0 minutes" not in shown


def test_a_player_who_just_clicked_play_now_is_not_told_he_waited_0_minutes(make_user, client_of):
    a = make_user()
    client = client_of(a)
    client.post(reverse("play_now"), play_now_form(seats=3))
    page = client.get(reverse("play_now_queues")).content.decode()
    assert "You joined just now" in page and "0 minutes" not in page
    ru = client.get(reverse("play_now_queues"), headers={"accept-language": "ru"}).content.decode()
    assert "Вы только что встали в очередь" in ru


def finished_table_of(a, b) -> Table:
    table = services.table_create(user=a, game="durak", options={}, seats=2, rated=False)
    services.seat_join(table_id=table.pk, user=b)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    return table


def test_a_rematch_takes_its_players_out_of_the_queue(make_user):
    a, b = make_user(), make_user()
    old = finished_table_of(a, b)
    join(a, seats=3)
    assert services.table_rematch(table_id=old.pk, user=a) is None
    assert Seek.objects.filter(user=a).exists()  # still waiting while the other has not agreed
    rematch = services.table_rematch(table_id=old.pk, user=b)
    assert rematch is not None and seated(rematch) == {a.pk, b.pk}
    assert not Seek.objects.exists()


def test_a_rematch_does_not_start_while_play_now_has_seated_one_of_its_players(make_user):
    a, b, c = make_user(), make_user(), make_user()
    old = finished_table_of(a, b)
    services.table_rematch(table_id=old.pk, user=a)
    join(b)
    queue_table = join(c)
    assert seated(queue_table) == {b.pk, c.pk}
    with pytest.raises(services.LobbyRefused, match="The rematch cannot start"):
        services.table_rematch(table_id=old.pk, user=b)
    assert Table.objects.count() == 2  # the old table and the queue's: no rematch


@pytest.mark.parametrize("way", ["creates a table", "joins a table", "plays bots", "accepts a challenge", "an event"])
def test_every_way_of_sitting_down_takes_him_out_of_the_queue(make_user, host, way):
    a = make_user()
    join(a, seats=3)
    if way == "creates a table":
        services.table_create(user=a, game="durak", options={}, seats=2)
    elif way == "joins a table":
        table = services.table_create(user=host, game="durak", options={}, seats=3)
        services.seat_join(table_id=table.pk, user=a)
    elif way == "plays bots":
        services.table_against_bots(user=a, game="durak")
    elif way == "accepts a challenge":
        from social.services import challenge_accept, challenge_send

        challenge = challenge_send(host, a, game="durak", table_settings={"options": {}, "seats": 2})
        challenge_accept(a, challenge.pk)
    else:
        services.seated_elsewhere([a.pk])
    assert not Seek.objects.filter(user=a).exists()

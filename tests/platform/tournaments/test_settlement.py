"""Unfinished tables at a round's deadline: scored by the rules from the position, or by the organizer."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from django.utils import timezone

from games import get_game
from tables.models import Game, Seat, Table
from tables.services import game_play_bot, load_state, seat_set_away
from tests.platform.tables.factories import make_players
from tests.platform.tournaments.factories import event, organizer
from tournaments import services
from tournaments.models import Board, Result, Round, Tournament
from tournaments.services import TournamentRefused
from tournaments.settlement import board_settle, parse_points
from tournaments.standings import place_points

pytestmark = pytest.mark.django_db


def started(settle: str, prefix: str, **fields):
    owner = organizer()
    t = event(owner, rounds=1, round_minutes=30, settle=settle, **fields)
    for user in make_players(fields.get("table_size", 4) - 1 if fields.get("game") == "biznes" else 4, prefix=prefix):
        services.registration_join(tournament_id=t.pk, user=user)
    services.tournament_next_round(tournament_id=t.pk, user=owner)
    return owner, t, Board.objects.get(round__tournament=t)


def playing(board: Board) -> Game:
    return Game.objects.get(table_id=board.table_id, status=Game.Status.PLAYING)


def bot_moves(board: Board, moves: int = 0, *, until_game: int | None = None, until_decided: bool = False) -> None:
    """Everyone steps away and stand-ins make ``moves`` moves, or play until game ``until_game`` starts, or until
    the position places someone above someone else."""
    for seat in Seat.objects.filter(table_id=board.table_id, user__isnull=False).select_related("user"):
        seat_set_away(board.table_id, seat.user, True)
    rng = random.Random(7)
    for _ in range(moves if until_game is None and not until_decided else 5000):
        game = playing(board)
        if until_game is not None and game.number >= until_game:
            return
        if until_decided and len(set(get_game(board.table.game).score_position(load_state(game)).ranks)) > 1:
            return
        assert game_play_bot(game.pk, game.move_number, rng)


def deadline_passes(t: Tournament) -> str:
    Round.objects.filter(tournament=t).update(deadline=timezone.now())
    return services.tournament_advance(t.pk)


def test_the_position_is_scored_by_the_rules_and_the_event_moves_on():
    _, t, board = started(Tournament.Settle.POSITION, "sp")
    bot_moves(board, until_decided=True)
    game = playing(board)
    outcome = get_game("durak").score_position(load_state(game))
    assert deadline_passes(t) == "finished"
    game.refresh_from_db()
    board.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.annulled  # stopped, never rated
    assert Table.objects.get(pk=board.table_id).status == Table.Status.ABORTED
    assert (board.finished, board.settled, board.settled_by) == (True, "position", None)
    result = Result.objects.get(board=board)
    assert result.game_id == game.pk
    assert result.points == place_points(outcome.placings)
    assert result.fool == outcome.loser


def test_an_unfinished_biznes_deal_scores_nothing_and_the_played_deals_keep_their_points():
    _, t, board = started(
        Tournament.Settle.POSITION, "sb", game="biznes", format=Tournament.Format.CUMULATIVE, games_per_round=2
    )
    bot_moves(board, 0, until_game=2)  # the first deal is played out, the second has begun
    match = board.table.matches.get()
    from tournaments.scoring import match_points

    first_deal = match_points(match)
    assert deadline_passes(t) == "finished"
    result = Result.objects.get(board=board)
    assert result.points == first_deal
    assert result.fool is None


def test_the_organizer_settles_what_the_deadline_left():
    owner, t, board = started(Tournament.Settle.ORGANIZER, "so")
    bot_moves(board, 6)
    assert deadline_passes(t) == "awaiting organizer"
    board.refresh_from_db()
    assert (board.finished, board.settled) == (False, "organizer")
    assert Table.objects.get(pk=board.table_id).status == Table.Status.ABORTED  # the position is frozen
    assert services.tournament_advance(t.pk) == "awaiting organizer"  # the beat waits for him
    stranger = organizer("st")
    with pytest.raises(TournamentRefused):
        board_settle(tournament_id=t.pk, user=stranger, board_id=board.pk, entries=["1", "2", "3", "4"])
    bad_entries = (
        ["1", "2", "2", "3"],
        ["1", "2", "3"],
        ["0", "1", "2", "3"],
        ["1", "x", "3", "4"],
        ["2", "2", "3", "4"],
    )
    for bad in bad_entries:
        with pytest.raises(TournamentRefused):
            board_settle(tournament_id=t.pk, user=owner, board_id=board.pk, entries=bad)
    assert not Result.objects.filter(board=board).exists()  # nothing changed
    board_settle(tournament_id=t.pk, user=owner, board_id=board.pk, entries=["2", "1", "3", "3"])
    board.refresh_from_db()
    assert board.finished and board.settled_by == owner and board.settled_at is not None
    result = Result.objects.get(board=board)
    assert (result.points, result.fool) == ([4, 6, 1, 1], None)  # 2, 3, ½, ½ points
    with pytest.raises(TournamentRefused):  # once only
        board_settle(tournament_id=t.pk, user=owner, board_id=board.pk, entries=["1", "2", "3", "4"])
    assert services.tournament_advance(t.pk) == "finished"


def test_the_organizer_enters_points_for_a_points_game():
    owner, t, board = started(
        Tournament.Settle.ORGANIZER, "sq", game="biznes", format=Tournament.Format.CUMULATIVE, games_per_round=2
    )
    assert deadline_passes(t) == "awaiting organizer"
    board_settle(tournament_id=t.pk, user=owner, board_id=board.pk, entries=["12.5", "-3", "0", "7½"])
    result = Result.objects.get(board=board)
    assert (result.points, result.fool) == ([25, -6, 0, 15], None)


def test_points_are_parsed_in_exact_halves():
    assert [parse_points(x) for x in ("12", "12.5", "12,5", "12½", "-0.5", "½")] == [24, 25, 25, 25, -1, 1]
    for bad in ("", "1.25", "abc", "nan", "inf", "1e9"):
        with pytest.raises(ValueError):
            parse_points(bad)


@pytest.mark.parametrize("name", ["durak", "verish", "biznes"])
def test_every_game_scores_a_fresh_position_as_shared(name):
    state = get_game(name).new(seats=4, seed=1)
    outcome = get_game(name).score_position(state)
    assert len(set(outcome.ranks)) == 1 and outcome.loser is None


def test_the_organizer_page_lists_the_stopped_tables_and_takes_their_results(client):
    owner, t, board = started(Tournament.Settle.ORGANIZER, "sv")
    page = client.get(t.get_absolute_url())
    assert b'name="entry"' not in page.content  # nothing to settle before the deadline
    assert "30 minutes per round; at the limit: settled by the organizer" in page.content.decode()
    assert deadline_passes(t) == "awaiting organizer"
    player = make_players(1, prefix="svp")[0]
    client.force_login(player)
    assert f'id="settle-{board.pk}"'.encode() not in client.get(t.get_absolute_url()).content  # players never see it
    client.post(reverse("tournament_settle", args=[t.pk]), {"board": board.pk, "entry": ["1", "2", "3", "4"]})
    assert not Result.objects.filter(board=board).exists()
    client.force_login(owner)
    page = client.get(t.get_absolute_url()).content.decode()
    assert f'id="settle-{board.pk}"' in page and page.count('name="entry"') == 4
    response = client.post(
        reverse("tournament_settle", args=[t.pk]), {"board": board.pk, "entry": ["1", "3", "3", "4"]}, follow=True
    )
    assert "Places must be consistent" in response.content.decode()
    assert not Result.objects.filter(board=board).exists()
    response = client.post(
        reverse("tournament_settle", args=[t.pk]), {"board": board.pk, "entry": ["1", "2", "2", "4"]}, follow=True
    )
    assert "The table&#x27;s result is recorded." in response.content.decode()
    assert Result.objects.get(board=board).points == [6, 3, 3, 0]
    assert Board.objects.get(pk=board.pk).settled_by == owner
    assert f'id="settle-{board.pk}"' not in response.content.decode()
    for junk in ({"board": "x"}, {"board": board.pk}, {}):
        assert client.post(reverse("tournament_settle", args=[t.pk]), junk).status_code == 302


def test_only_a_tournament_notice_pointing_at_a_table_calls_the_player_there():
    from notifications.selectors import notification_payload
    from notifications.services import notification_send

    user = make_players(1, prefix="call")[0]
    assert notification_payload(notification_send(user, "tournament", "Go", "/tables/5/"))["go"] is True
    assert notification_payload(notification_send(user, "tournament", "Event", "/events/5/"))["go"] is False
    assert notification_payload(notification_send(user, "tournament", "Odd", "/no/such/page/"))["go"] is False
    assert notification_payload(notification_send(user, "challenge_answer", "Yes", "/tables/5/"))["go"] is False


def test_fewer_cards_place_higher_and_those_out_keep_their_order():
    from games.outcome import by_fewest_cards

    out = by_fewest_cards([0, 3, 3, 5, 0], [[4], [0]])
    assert (out.ranks, out.loser) == ([2, 3, 3, 4, 1], 3)
    out = by_fewest_cards([4, 2, 4], [])
    assert (out.ranks, out.loser) == ([2, 1, 2], None)  # two share the last place: no single loser
    assert by_fewest_cards([3, 3, 3], []).ranks == [1, 1, 1]


@pytest.mark.parametrize("settle", [Tournament.Settle.BOTS, Tournament.Settle.POSITION])
def test_a_table_a_moderator_stops_waits_for_the_organizers_result_and_the_round_goes_on(client, settle):
    from moderation.services import moderator_add, table_abort
    from notifications.models import Notification

    owner, t, board = started(settle, f"ma{settle[:2]}")
    bot_moves(board, 4)
    mod = make_players(1, prefix=f"mod{settle[:2]}")[0]
    moderator_add(mod)
    table_abort(board.table_id, by=type(mod).objects.get(pk=mod.pk), reason="collusion at this table")
    board.refresh_from_db()
    assert (board.finished, board.settled) == (False, "moderator")
    # the organizer is told what to do; each player why his table stopped
    told = Notification.objects.filter(user=owner).order_by("-pk").first()
    assert told is not None and "a moderator stopped table 1" in told.text % told.params
    for user_id in board.players:
        if user_id is not None:
            text = Notification.objects.filter(user_id=user_id).order_by("-pk").first()
            assert text is not None and "a moderator stopped your table" in text.text % text.params
    assert services.tournament_advance(t.pk) != "finished"
    assert deadline_passes(t) != "finished"  # the deadline does not score or replay a table a moderator stopped
    board.refresh_from_db()
    assert (board.finished, board.settled) == (False, "moderator")

    client.force_login(owner)
    page = client.get(t.get_absolute_url()).content.decode()
    assert f'id="settle-{board.pk}"' in page and "A moderator stopped table 1: enter its result" in page
    client.post(reverse("tournament_settle", args=[t.pk]), {"board": board.pk, "entry": ["1", "2", "3", "4"]})
    board.refresh_from_db()
    assert board.finished and board.settled_by == owner
    assert services.tournament_advance(t.pk) == "finished"

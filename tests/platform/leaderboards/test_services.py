"""Finished games through the real move service update ratings; unrated games do not; recompute agrees."""

import random

import pytest
from django.core.management import call_command

from accounts.services import ensure_bot_accounts
from leaderboards import ratings
from leaderboards.models import PlayerRating, RatingChange
from tables.models import Game, Seat, Table
from tests.platform.tables.factories import make_players, play_randomly, started_table

pytestmark = pytest.mark.django_db


def play_table(table: Table, game: Game, seed: int) -> Game:
    """Play the whole match at ``table`` (void Biznes deals are dealt again)."""
    rng = random.Random(seed)
    done = play_randomly(game, rng)
    table.refresh_from_db()
    while table.status == Table.Status.PLAYING:
        done = play_randomly(Game.objects.filter(table=table).order_by("-number").first(), rng)
        table.refresh_from_db()
    return done


def snapshot():
    ratings_now = sorted(
        PlayerRating.objects.filter(games__gt=0).values_list("user_id", "game", "mu", "sigma", "rating", "games")
    )
    changes = sorted(
        RatingChange.objects.values_list(
            "user_id",
            "game",
            "played_game_id",
            "place",
            "won",
            "lost",
            "points_halves",
            "deals",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "rating_before",
            "rating_after",
        )
    )
    return ratings_now, changes


def test_a_finished_rated_durak_game_updates_both_players():
    table, players, game = started_table("durak", 2)
    done = play_table(table, game, 1)
    rows = {r.user_id: r for r in PlayerRating.objects.filter(game="durak")}
    assert set(rows) == {p.pk for p in players} and all(r.games == 1 for r in rows.values())
    changes = list(RatingChange.objects.filter(played_game=done))
    assert len(changes) == 2
    result = done.result
    out = ratings.outcome("durak", 2, done.options, result)
    expected = ratings.rate([[(25.0, 25 / 3)], [(25.0, 25 / 3)]], out.ranks)
    for seat, player in enumerate(players):
        assert (rows[player.pk].mu, rows[player.pk].sigma) == expected[seat][0]
        assert rows[player.pk].rating == pytest.approx(ratings.display(*expected[seat][0]))
    fool = result["fool"]
    if fool is not None:
        assert RatingChange.objects.get(played_game=done, user=players[fool]).lost
        assert rows[players[fool].pk].mu < 25 < rows[players[1 - fool].pk].mu


def test_biznes_is_rated_once_per_match_by_its_standings():
    table, players, game = started_table("biznes", 4, match_length=2)
    done = play_table(table, game, 2)
    sheet = done.match.sheet["biznes"]
    changes = {c.user_id: c for c in RatingChange.objects.filter(game="biznes")}
    assert set(changes) == {p.pk for p in players}
    assert {c.played_game_id for c in changes.values()} == {done.pk}  # the match's last deal, not every deal
    for row in sheet["standings"]:
        change = changes[players[row["seat"]].pk]
        assert change.points_halves == round(row["total"] * 2) and change.place == row["place"]
        assert change.deals == sheet["played"] == 2


@pytest.mark.parametrize("why", ["unrated", "private-unrated", "substituted"])
def test_unrated_games_change_nothing(why):
    table, _, game = started_table("verish", 3, private=why == "private-unrated")
    if why != "substituted":
        Table.objects.filter(pk=table.pk).update(rated=False)
    else:
        Game.objects.filter(pk=game.pk).update(bot_substituted=True)
    play_table(table, game, 3)
    assert not RatingChange.objects.exists()
    assert not PlayerRating.objects.exists()


def test_against_bots_humans_stay_put_and_the_bot_account_is_rated_in_its_own_pool():
    bots = {b.username: b for b in ensure_bot_accounts()}
    human = make_players(1, prefix="vs")[0]
    table = Table.objects.create(game="durak", seats_count=3, created_by=human)
    Seat.objects.create(table=table, index=0, user=human)
    Seat.objects.create(table=table, index=1, bot_level="random")
    Seat.objects.create(table=table, index=2, bot_level="random")
    from tables.services import match_start

    play_table(table, match_start(table), 4)
    assert not PlayerRating.objects.filter(user=human).exists()
    bot_row = PlayerRating.objects.get(user=bots["bot-random"], game="durak")
    assert bot_row.games == 1 and RatingChange.objects.filter(user=bots["bot-random"]).count() == 1


def test_recompute_gives_the_incremental_numbers():
    players = make_players(4, prefix="rc")
    for n in range(3):
        table, _, game = started_table("durak", 3, players=players[n % 2 : n % 2 + 3], match_length=2)
        play_table(table, game, 10 + n)
    table, _, game = started_table("durak", 4, {"teams": True}, players=players)
    play_table(table, game, 20)
    table, _, game = started_table("verish", 3, players=players[1:])
    play_table(table, game, 21)
    table, _, game = started_table("biznes", 4, players=players, match_length=1)
    play_table(table, game, 22)
    before = snapshot()
    assert len(before[1]) >= 6 * 3
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert snapshot() == before


def test_annulling_a_game_recomputes_only_its_kind_from_then_on_as_a_full_recompute_would():
    from moderation.services import game_annul

    players = make_players(4, prefix="an")
    moderator = make_players(1, prefix="anmod")[0]
    durak = []
    for n in range(4):
        table, _, game = started_table("durak", 3, players=players[n % 2 : n % 2 + 3])
        durak.append(play_table(table, game, 30 + n))
    table, _, game = started_table("verish", 3, players=players[1:])
    play_table(table, game, 40)  # later than every Durak game, but another chain
    victim = durak[1]
    untouched = set(RatingChange.objects.filter(game="verish").values_list("pk", flat=True)) | set(
        RatingChange.objects.filter(game="durak", at__lt=victim.finished_at).values_list("pk", flat=True)
    )
    assert RatingChange.objects.filter(played_game=victim).exists() and untouched

    game_annul(victim.pk, by=moderator, reason="collusion")
    assert not RatingChange.objects.filter(played_game=victim).exists()
    assert untouched <= set(RatingChange.objects.values_list("pk", flat=True))  # not rewritten
    partial = snapshot()
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert snapshot() == partial

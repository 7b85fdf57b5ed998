"""Leaderboards, the Biznes season and the profile over 1,000 players and 10,000 games: few queries, right rows."""

import pytest
from django.utils import timezone

from leaderboards.models import PlayerRating, RatingChange
from measure.benchdata import build

pytestmark = pytest.mark.django_db


@pytest.fixture
def crowd():
    return build(players=1000, games=10_000)


def test_pages_stay_under_ten_queries_with_a_big_history(client, crowd, django_assert_max_num_queries):
    board = PlayerRating.objects.filter(game="durak", sigma__lt=6).order_by("-rating", "user_id")
    far = board[400].user  # well beyond the top 100
    client.force_login(far)
    with django_assert_max_num_queries(9):
        page = client.get("/leaderboards/durak/")
    assert page.status_code == 200
    assert len(page.context["rows"]) == 100
    assert page.context["me"]["position"] == 401 and page.context["me"]["user"] == far
    with django_assert_max_num_queries(9):
        assert client.get("/leaderboards/verish/?period=week").status_code == 200
    with django_assert_max_num_queries(9):
        season = client.get("/leaderboards/biznes/seasons/")
    assert season.status_code == 200 and season.context["rows"]
    # the profile adds the social part (the bell's count, profile, friendship, block, the game now), a history
    # page (games, rating changes, seats), his reliability and his record against the reader: a fixed number,
    # whatever the history's size
    with django_assert_max_num_queries(15):
        profile = client.get(f"/u/{crowd[0].username}/")
    assert profile.status_code == 200
    assert {r["game"] for r in profile.context["ratings"]} <= {"durak", "biznes", "verish"}
    assert b"<svg" in profile.content and b"/replay" in profile.content


def test_leaderboard_leaves_out_provisional_players_and_bots(client, django_user_model):
    now = timezone.now()
    steady = django_user_model.objects.create_user("steady", "s@example.com", "pw-cards-123")
    fresh = django_user_model.objects.create_user("fresh", "f@example.com", "pw-cards-123")
    bot = django_user_model.objects.create_user("bot-x", "b@example.com", "pw-cards-123", is_bot=True)
    for user, sigma in ((steady, 3.0), (fresh, 7.0), (bot, 2.0)):
        PlayerRating.objects.create(user=user, game="durak", mu=30, sigma=sigma, rating=1000, games=20, updated_at=now)
    client.force_login(fresh)
    page = client.get("/leaderboards/durak/")
    assert [r["user"].username for r in page.context["rows"]] == ["steady"]
    assert page.context["mine"]["rating"].endswith("?")
    # "last 7 days" keeps only players with a rated game in the period: none here
    assert client.get("/leaderboards/durak/?period=week").context["rows"] == []


def test_biznes_season_sums_half_points_exactly(client, django_user_model):
    from tests.platform.tables.factories import started_table

    _, players, game = started_table("biznes", 4)
    at = timezone.now()
    for user, matches in zip(players, ([5, 2], [5], [-3], [1]), strict=True):  # 3.5, 2.5, -1.5, 0.5
        for halves in matches:
            RatingChange.objects.create(
                user=user,
                game="biznes",
                played_game=game,
                at=at,
                place=1,
                points_halves=halves,
                deals=4,
                mu_before=25,
                sigma_before=8,
                mu_after=25,
                sigma_after=8,
                rating_before=1000,
                rating_after=1000,
            )
    page = client.get(f"/leaderboards/biznes/seasons/?season={at:%Y-%m}")
    rows = page.context["rows"]
    assert [str(r["total"]) for r in rows] == ["3.5", "2.5", "0.5", "-1.5"]
    assert rows[0]["matches"] == 2 and rows[0]["per_deal"] == "0.44"
    assert "-1.5" in page.content.decode()
    earlier = client.get("/leaderboards/biznes/seasons/?season=2001-01")
    assert earlier.context["rows"] == [] and "2001-01" in earlier.context["seasons"]


def test_a_named_bots_profile_shows_the_ratings_of_the_levels_it_plays_at(client, django_user_model):
    """A named bot's results count for its level's account: its profile says so and shows those ratings."""
    from accounts.services import ensure_bot_accounts
    from tables.models import Seat, Table

    ensure_bot_accounts()
    olena = django_user_model.objects.get(username="bot-olena")
    human = django_user_model.objects.create_user("host", "h@example.com", "pw-cards-123")
    table = Table.objects.create(game="durak", options={}, seats_count=2, created_by=human)
    Seat.objects.create(table=table, index=0, user=human)
    Seat.objects.create(table=table, index=1, user=olena, bot_level="strong")
    strong = django_user_model.objects.get(username="bot-strong")
    now = timezone.now()
    PlayerRating.objects.create(user=strong, game="durak", mu=30, sigma=3, rating=1234, games=40, updated_at=now)

    page = client.get(f"/u/{olena.username}/").content.decode()
    assert "no rating of its own" in page
    assert 'href="/u/bot-strong/"' in page and "Durak 1234" in page
    assert "bot-random" not in page  # a level she never played at
    # a human's profile is as before
    assert "no rating of its own" not in client.get(f"/u/{human.username}/").content.decode()


def test_the_game_tabs_mark_the_board_shown_and_the_home_opens_the_first_game(client):
    def tabs(url: str) -> str:
        return client.get(url).content.decode().split('class="lobby-filter"')[1].split("</nav>")[0]

    home = client.get("/leaderboards/")
    assert home.status_code == 302 and home["Location"] == "/leaderboards/durak/"
    board = tabs("/leaderboards/verish/?period=month")
    assert board.count('class="active"') == 1 and 'href="/leaderboards/verish/" class="active"' in board
    season = tabs("/leaderboards/biznes/seasons/")
    assert season.count('class="active"') == 1 and 'href="/leaderboards/biznes/seasons/" class="active"' in season
    assert client.get("/leaderboards/no-such-game/").status_code == 404

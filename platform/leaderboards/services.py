"""Rating writes: rate one finished game inside its move's transaction, or recompute everything.

Who is rated (decisions where the issue leaves room):

- nothing on an unrated table (private tables may be marked unrated) and
  nothing from a game in which a bot stood in for an absent human (for a game
  rated by the match, Biznes: any deal of the match);
- humans only in games where every seat is a human: a game with a bot seat
  ("against bots") leaves human ratings alone;
- bots are rated in their own pool, one account per level (``bot-<level>``):
  in a game with bot seats only the bot accounts move, the humans entering
  the calculation at their current (unchanged) rating. Bot accounts never
  appear on leaderboards or in season standings, so they cannot feed them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from datetime import datetime
from statistics import fmean

from django.db import transaction
from django.db.models import Count, Max

from accounts.models import User
from games import get_game
from games.outcome import Outcome
from leaderboards import ratings
from leaderboards.models import PlayerRating, RatingChange
from tables.models import Game, Match, Seat


def _identities(seats: list[Seat]) -> tuple[dict[int, int], set[int]] | None:
    """Seat index -> rated user id, and which of those are bots; None if a seat is neither human nor a known bot."""
    names = {f"bot-{s.bot_level}" for s in seats if s.bot_level}
    bot_accounts = (
        dict(User.objects.filter(username__in=names, is_bot=True).values_list("username", "pk")) if names else {}
    )
    who, bots = {}, set()
    for seat in seats:
        uid = bot_accounts.get(f"bot-{seat.bot_level}") if seat.bot_level else seat.user_id
        if uid is None:
            return None
        who[seat.index] = uid
        if seat.bot_level or (seat.user is not None and seat.user.is_bot):
            bots.add(uid)
    return who, bots


def _rated_outcome(game: Game, match: Match) -> Outcome | None:
    """What to rate for ``game``, or None: the game's score sheet says whether a game or a whole match is rated."""
    if not game.table.rated or game.bot_substituted or game.annulled:
        return None
    table = game.table
    sheet = get_game(table.game).load_sheet(match.sheet)
    out = sheet.rated_outcome(game.result or {}, table.seats_count, game.options, game.number)
    if out is None:
        return None
    # a match rated as a whole is unrated if a bot stood in for anyone in any of its games
    if get_game(table.game).rated_by == "match" and (
        Game.objects.filter(match_id=match.pk, bot_substituted=True).exclude(pk=game.pk).exists()
    ):
        return None
    return out


def rating_on_game_finished(sender: object, game: Game, **kwargs: object) -> None:
    """``tables.signals.game_finished``: rate the game in its move's transaction."""
    rating_record_game(game, game.match)


def rating_record_game(game: Game, match: Match) -> None:
    """Rate ``game`` (already marked finished); a game whose sheet rates matches: the match, at its last game."""
    out = _rated_outcome(game, match)
    if out is None:
        return
    finished_at = game.finished_at
    if finished_at is None:
        raise ValueError(f"game {game.pk} is rated before it finished")
    table = game.table
    seats = list(Seat.objects.filter(table_id=table.pk).select_related("user").order_by("index"))
    found = _identities(seats)
    if found is None:
        return
    who, bots = found
    updated = bots if bots else set(who.values())
    # rows first (so concurrent first games cannot collide), then lock them in a fixed order
    start = (ratings.MODEL.mu, ratings.MODEL.sigma)
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                user_id=u,
                game=table.game,
                mu=start[0],
                sigma=start[1],
                rating=ratings.display(*start),
                updated_at=finished_at,
            )
            for u in sorted(updated)
        ],
        ignore_conflicts=True,
    )
    rows = {
        r.user_id: r
        for r in PlayerRating.objects.select_for_update()
        .filter(game=table.game, user_id__in=set(who.values()))
        .order_by("user_id")
    }
    prior = {
        u: (rows[u].mu, rows[u].sigma) if u in rows else (ratings.MODEL.mu, ratings.MODEL.sigma) for u in who.values()
    }
    after = ratings.rate([[prior[who[s]] for s in team] for team in out.teams], out.ranks)
    # a user seated twice (two bots of one level) moves by the mean of his seats, placed as the better one
    moves: dict[int, list[tuple[int, tuple[float, float]]]] = defaultdict(list)
    for team, new in zip(out.teams, after, strict=True):
        for seat, rating in zip(team, new, strict=True):
            if who[seat] in updated:
                moves[who[seat]].append((seat, rating))
    changes = []
    for uid, seat_moves in sorted(moves.items()):
        row = rows[uid]
        mu, sigma = fmean(r[0] for _, r in seat_moves), fmean(r[1] for _, r in seat_moves)
        placing = min((out.placings[s] for s, _ in seat_moves), key=lambda p: p.place)
        new_rating = ratings.display(mu, sigma)
        changes.append(
            RatingChange(
                user_id=uid,
                game=table.game,
                played_game_id=game.pk,
                at=finished_at,
                place=placing.place,
                won=placing.won,
                lost=placing.lost,
                points_halves=placing.points_halves,
                deals=placing.deals,
                mu_before=row.mu,
                sigma_before=row.sigma,
                mu_after=mu,
                sigma_after=sigma,
                rating_before=row.rating,
                rating_after=new_rating,
            )
        )
        row.mu, row.sigma, row.rating, row.games, row.updated_at = (
            mu,
            sigma,
            new_rating,
            row.games + 1,
            finished_at,
        )
    PlayerRating.objects.bulk_update([rows[u] for u in moves], ["mu", "sigma", "rating", "games", "updated_at"])
    RatingChange.objects.bulk_create(changes)


@transaction.atomic
def ratings_recompute(since: datetime | None = None, games: Collection[str] = ()) -> int:
    """Rate finished games again in the order they finished; returns how many games were seen.

    Everything (``since`` None: every rating is forgotten first), or only what annulling a game can
    change: the finished games of ``games`` (registry names) from ``since`` on, each of their players
    first put back to his rating just before then. Ratings are a chain per game, so nothing earlier and
    no other game moves; the result is the same as recomputing everything (tested), for a fraction of it.
    """
    finished = Game.objects.filter(status=Game.Status.FINISHED, table__rated=True, annulled=False)
    if since is None:
        RatingChange.objects.all().delete()
        PlayerRating.objects.all().delete()
    else:
        for name in games:
            _rewind(name, since)
        finished = finished.filter(table__game__in=list(games), finished_at__gte=since)
    count = 0
    for game in finished.select_related("table", "match").order_by("finished_at", "pk").iterator(chunk_size=500):
        rating_record_game(game, game.match)
        count += 1
    return count


def _rewind(game: str, since: datetime) -> None:
    """Undo every ``game`` rating change from ``since`` on: each player's row as it stood before his first."""
    later = RatingChange.objects.filter(game=game, at__gte=since)
    before: dict[int, tuple[float, float, float]] = {}
    for uid, mu, sigma, rating in later.order_by("at", "pk").values_list(
        "user_id", "mu_before", "sigma_before", "rating_before"
    ):
        before.setdefault(uid, (mu, sigma, rating))
    if not before:
        return
    kept = {
        row["user_id"]: (row["games"], row["last"])
        for row in RatingChange.objects.filter(game=game, at__lt=since, user_id__in=before)
        .values("user_id")
        .annotate(games=Count("pk"), last=Max("at"))
    }
    later.delete()
    rows = list(PlayerRating.objects.select_for_update().filter(game=game, user_id__in=before).order_by("user_id"))
    gone = [row.pk for row in rows if row.user_id not in kept]  # rated only from then on: unrated again
    PlayerRating.objects.filter(pk__in=gone).delete()
    back = [row for row in rows if row.user_id in kept]
    for row in back:
        row.mu, row.sigma, row.rating = before[row.user_id]
        row.games, row.updated_at = kept[row.user_id]
    PlayerRating.objects.bulk_update(back, ["mu", "sigma", "rating", "games", "updated_at"])

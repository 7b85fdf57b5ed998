"""Benchmark: does the fair-play detector find colluding pairs, and leave honest ones alone?

    python manage.py bench_fairplay                   # 2,000 games, 200 players, 5% of them in colluding pairs
    python manage.py bench_fairplay --games 300 --players 60

Simulates games of three setups in turn (4-seat Durak, 3-seat Believe It or Not, 5-seat Biznes: the registry's
games at those seat counts) between throw-away players. Honest players are bots of the existing levels
(``--random`` of them random, the rest heuristic); ``--colluders`` of the players form pairs
(``games.bots.collude``), alternately of the two styles: ``soft`` (spares the partner, no shared information) and
``shared`` (also sees the partner's hand). Players play in clubs of ``--club`` (regulars who meet often, so many
honest pairs share 20 games or more too); a colluder brings his partner to the table nine times in ten.

Every game is written as the platform stores it (table, seats, match, game, its moves with their public records)
and the detector then reads them back through ``fairplay.selectors.pair_scores``, the code path of
``fairplay_scan``. Prints recall (colluding pairs flagged) and the false-positive rate (honest pairs flagged) among
pairs with at least ``--min-shared`` games together, at the default threshold. Everything it creates is deleted at
the end unless ``--keep``.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Sequence
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from fairplay.pairs import THRESHOLD
from fairplay.selectors import pair_scores
from games import GAMES, get_game
from games.base import State
from games.bots import Bot, get_bot, public_record
from games.bots.collude import STYLES, ColludingBot
from games.bots.public import History
from tables.fairness import deck_commitment
from tables.models import Game, Match, Move, Seat, Table

#: (registry index, seats, options): the issue's three setups, the first game with and without transfers
SETUPS: tuple[tuple[int, int, dict[str, Any]], ...] = (
    (0, 4, {}),
    (2, 3, {}),
    (1, 5, {}),
    (0, 4, {"mode": "transfer"}),
    (2, 3, {}),
    (1, 5, {}),
)
MAX_MOVES = 5000


def play(
    name: str, seats: int, options: dict[str, Any], bots: Sequence[Bot | ColludingBot], seed: int
) -> tuple[State, list[tuple[int, dict[str, Any], dict[str, Any], str]]]:
    """One game (a Biznes deal; a void one is dealt again) to the end: its state and (seat, action, public, text)."""
    spec = get_game(name)
    rng = random.Random(seed)
    for attempt in range(5):
        state = spec.new(options=options, seats=seats, dealer=rng.randrange(seats), seed=seed * 7 + attempt)
        history: History = []
        log = []
        for _ in range(MAX_MOVES):
            if state.is_over():
                break
            seat = state.to_act()[0]
            bot = bots[seat]
            view, legal = state.view(seat), state.legal_actions(seat)
            if isinstance(bot, ColludingBot):
                action = bot.choose(name, view, legal, history, rng, partner_hand=state.view(bot.partner)["hand"])
            else:
                action = bot.choose(name, view, legal, history, rng)
            text = state.apply_described(seat, action)
            public = public_record(name, action, state.view(None))
            history.append((seat, public))
            log.append((seat, dict(action), public, text))
        if not (state.result() or {}).get("void"):
            break
    return state, log


class Command(BaseCommand):
    help = "Measures the fair-play detector on simulated games with seeded colluding pairs: recall and false positives."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=2000)
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--colluders", type=float, default=0.05, help="share of players in colluding pairs")
        parser.add_argument("--random", type=float, default=0.25, help="share of honest players at the random level")
        parser.add_argument("--club", type=int, default=6, help="players per club (who meet at tables)")
        parser.add_argument(
            "--min-shared", type=int, default=20, help="pairs judged: at least this many games together"
        )
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep", action="store_true", help="keep the simulated players and games")

    def handle(self, *args: Any, **opts: Any) -> None:
        rng = random.Random(opts["seed"])
        count = opts["players"]
        names = list(GAMES)
        prefix = f"fpb{secrets.token_hex(3)}"
        users = User.objects.bulk_create(
            User(username=f"{prefix}{i}", display_name=f"{prefix}{i}", password="!") for i in range(count)
        )
        ids = [u.pk for u in users]
        rng.shuffle(ids)
        n_pairs = max(1, round(count * opts["colluders"] / 2))
        partner: dict[int, int] = {}
        style: dict[int, str] = {}
        for k in range(n_pairs):
            a, b = ids[2 * k], ids[2 * k + 1]
            partner[a], partner[b] = b, a
            style[a] = style[b] = STYLES[k % len(STYLES)]
        honest = ids[2 * n_pairs :]
        level = {u: "random" if rng.random() < opts["random"] else "heuristic" for u in honest}
        clubs = self._clubs(ids, partner, opts["club"], rng)
        heuristic, randomly = get_bot("heuristic"), get_bot("random")

        start = timezone.now()
        began = time.perf_counter()
        tables = 0
        try:
            for i in range(opts["games"]):
                index, seats, options = SETUPS[i % len(SETUPS)]
                name = names[index % len(names)]
                players = self._seat(rng.choice([c for c in clubs if len(c) >= seats]), seats, partner, rng)
                seat_of = {u: s for s, u in enumerate(players)}
                bots: list[Bot | ColludingBot] = []
                for u in players:
                    if u in partner and partner[u] in seat_of:
                        bots.append(ColludingBot(seat_of[partner[u]], style[u]))
                    else:
                        bots.append(heuristic if level.get(u, "heuristic") == "heuristic" else randomly)
                state, log = play(name, seats, options, bots, opts["seed"] * 1_000_003 + i)
                self._store(name, players, state, log)
                tables += 1
            simulated = time.perf_counter() - began
            began = time.perf_counter()
            scores = pair_scores(since=start)
            detected = time.perf_counter() - began
            self._report(scores, set(ids), partner, style, opts["min_shared"], tables, simulated, detected)
        finally:
            if not opts["keep"]:
                table_ids = Table.objects.filter(created_by_id__in=ids).values_list("pk", flat=True)
                Move.objects.filter(game__table_id__in=table_ids).delete()
                Table.objects.filter(pk__in=list(table_ids)).delete()
                User.objects.filter(pk__in=ids).delete()

    @staticmethod
    def _clubs(ids: list[int], partner: dict[int, int], size: int, rng: random.Random) -> list[list[int]]:
        """Players in clubs of about ``size``; a colluding pair in the same club."""
        units: list[list[int]] = []
        seen: set[int] = set()
        for u in ids:
            if u in seen:
                continue
            unit = [u, partner[u]] if u in partner else [u]
            seen.update(unit)
            units.append(unit)
        rng.shuffle(units)
        clubs: list[list[int]] = [[]]
        for unit in units:
            if len(clubs[-1]) + len(unit) > size:
                clubs.append([])
            clubs[-1].extend(unit)
        return clubs

    @staticmethod
    def _seat(club: list[int], seats: int, partner: dict[int, int], rng: random.Random) -> list[int]:
        chosen = [rng.choice(club)]
        mate = partner.get(chosen[0])
        if mate is not None and rng.random() < 0.9:
            chosen.append(mate)
        rest = [u for u in club if u not in chosen]
        chosen += rng.sample(rest, seats - len(chosen))
        rng.shuffle(chosen)
        return chosen

    @staticmethod
    @transaction.atomic
    def _store(
        name: str, players: list[int], state: State, log: list[tuple[int, dict[str, Any], dict[str, Any], str]]
    ) -> None:
        now = timezone.now()
        table = Table.objects.create(
            game=name,
            options=state.options,
            seats_count=len(players),
            created_by_id=players[0],
            rated=False,
            status=Table.Status.FINISHED,
            started_at=now,
            finished_at=now,
        )
        Seat.objects.bulk_create(Seat(table=table, index=s, user_id=u) for s, u in enumerate(players))
        match = Match.objects.create(table=table, finished=True, finished_at=now)
        salt = secrets.token_hex(16)
        game = Game.objects.create(
            match=match,
            table=table,
            number=1,
            dealer=state.dealer,
            options=state.options,
            deck=list(state.deck),
            salt=salt,
            commitment=deck_commitment(list(state.deck), salt),
            state=state.to_json(),
            move_number=len(log),
            status=Game.Status.FINISHED,
            result=state.result(),
            finished_at=now,
        )
        Move.objects.bulk_create(
            Move(game=game, number=n, seat=seat, action=action, text=text[:200], public=public, by="player")
            for n, (seat, action, public, text) in enumerate(log, 1)
        )

    def _report(
        self,
        scores: list[Any],
        ours: set[int],
        partner: dict[int, int],
        style: dict[int, str],
        min_shared: int,
        tables: int,
        simulated: float,
        detected: float,
    ) -> None:
        judged = [p for p in scores if p.a in ours and p.b in ours and p.games >= min_shared]
        colluding = [p for p in judged if partner.get(p.a) == p.b]
        honest = [p for p in judged if partner.get(p.a) != p.b]
        found = [p for p in colluding if p.flagged]
        false = [p for p in honest if p.flagged]
        out = self.stdout.write
        out(f"{tables} games simulated and stored in {simulated:.0f} s; detector over them {detected:.1f} s")
        out(
            f"threshold {THRESHOLD}; pairs with >= {min_shared} games together: "
            f"{len(colluding)} colluding, {len(honest)} honest"
        )
        for s in STYLES:
            mine = [p for p in colluding if style.get(p.a) == s]
            out(f"  {s}: {sum(p.flagged for p in mine)} of {len(mine)} flagged, scores {sorted(p.score for p in mine)}")
        short = [p for p in scores if partner.get(p.a) == p.b and p.games < min_shared]
        if short:
            out(
                f"  colluding pairs under {min_shared} games (not judged): "
                f"{[(p.games, p.score, p.flagged) for p in short]}"
            )
        ranked = sorted((p.score for p in honest), reverse=True)
        out(f"  honest pairs' highest scores: {ranked[:5]}")
        # the tail, not just the count over the threshold: how close the honest pairs come to it
        tail = ", ".join(f">= {t:g}: {sum(s >= t for s in ranked)}" for t in (THRESHOLD / 2, THRESHOLD * 3 / 4))
        out(f"  honest pairs near the threshold: {tail}")
        recall = len(found) / len(colluding) if colluding else 0.0
        fpr = len(false) / len(honest) if honest else 0.0
        out(
            f"recall {recall:.1%} ({len(found)}/{len(colluding)}), "
            f"false positives {fpr:.2%} ({len(false)}/{len(honest)})"
        )

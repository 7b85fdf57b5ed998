"""Pair statistics: does a player spare one seat more than he spares everyone else in the same situation?

Pure computation over games already read from the database (``selectors.pair_scores``
reads them); no Django here, so the benchmark and the tests feed it directly.

For every interaction (``games.fairplay.Interaction``: an actor's choice that
touched a target, and whether he spared him) the expected chance that the actor
spares this target is his own rate of sparing *everyone else* in the same kind
and situation, pulled towards the whole population's rate by a prior worth
``PRIOR`` interactions (so a player seen a few times is judged by the crowd's
habits). A pair's evidence per kind, both directions pooled, is the one-sided
log-likelihood ratio of the observed sparing rate against that expectation
(zero when they spared each other no more than expected). The score is the sum
over kinds, each divided by that kind's dispersion: choices within one game are not
independent (one hand without a matching card says *done* many times), so the
spread of observed around expected over *all* pairs, (O - E)^2 / variance averaged,
is measured per kind (at least 1) and the evidence discounted by it, as a
quasi-likelihood does. Colluders are few, so they hardly move it. It grows
with the number of shared decisions: a handful of games cannot reach the threshold
unless nearly every decision went one way against strong odds. One game counts at
most ``PER_GAME`` choices of a kind from one player towards another (``counted``).
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from games.fairplay import Interaction

#: the score at or above which a pair is flagged for a moderator (measured: ``bench_fairplay``, README)
THRESHOLD = 6.5
#: how many interactions the population's rate counts for in a player's own expected rate
PRIOR = 5.0
#: how many chances the expectation counts for in a pair's own rate (``one_sided_llr``)
PAIR_PRIOR = 4.0
#: the median of a chi-square variable with one degree of freedom
CHI2_1_MEDIAN = 0.4549
#: a kind's dispersion is measured over the pairs with at least this many chances in it
DISPERSION_MIN_CHANCES = 20
#: a "cheating or collusion" report about the pair adds this much to its rank (not to its score)
REPORT_WEIGHT = 4.0
#: how many of the most telling moves a pair carries (for replay links)
DECISIVE = 5
#: at most this many of one game's choices of one kind by one seat towards another count (``counted``)
PER_GAME = 10


@dataclass(frozen=True)
class GameFacts:
    """One finished game as the detector sees it."""

    game_id: int
    game: str
    #: per seat, the user id, or None for a computer player
    players: Sequence[int | None]
    #: the game's interactions whose actor made the move himself (not a timer or a bot standing in)
    interactions: Sequence[Interaction]
    #: the move number (1 = first) of each record index
    move_numbers: Sequence[int] = ()


@dataclass(frozen=True)
class KindStat:
    kind: str
    #: interactions between the two (both directions) and how many spared the other
    chances: int
    spared: int
    #: how many would be spared if each treated the other as he treats everyone else
    expected: float
    #: one-sided log-likelihood ratio (nats), already divided by the kind's dispersion
    llr: float


@dataclass(frozen=True)
class PairScore:
    a: int
    b: int
    a_name: str
    b_name: str
    games: int
    game_ids: list[int]
    score: float
    flagged: bool
    reports: int
    #: how often they sat together compared with chance (1.0: as often as random seating would)
    together_ratio: float
    kinds: list[KindStat] = field(default_factory=list)
    #: (game id, move number) of the most telling moves, most telling first
    decisive: list[tuple[int, int]] = field(default_factory=list)

    @property
    def rank(self) -> float:
        return self.score + REPORT_WEIGHT * min(self.reports, 3)


def one_sided_llr(spared: float, chances: float, expected: float) -> float:
    """n * KL(pair's rate || expected rate) when more were spared than expected, else 0.

    The pair's rate is the observed one pulled towards the expected by ``PAIR_PRIOR``
    pseudo-chances (a Beta prior centred on the expectation): two spared of two where one
    in ten was expected is not yet evidence; two hundred of two hundred is.
    """
    if chances <= 0 or spared <= expected:
        return 0.0
    p = min(max(expected / chances, 1e-6), 1 - 1e-6)
    q = (spared + PAIR_PRIOR * p) / (chances + PAIR_PRIOR)
    out = 0.0
    if q > 0:
        out += q * math.log(q / p)
    if q < 1:
        out += (1 - q) * math.log((1 - q) / (1 - p))
    return chances * out


Key = tuple[int, str, str]  # (actor, kind, situation)


@dataclass(frozen=True)
class Baseline:
    """What a pair is judged against beyond its two players' own games: everyone's choices per (kind, situation)
    (chances, spared), each kind's dispersion over all pairs, and the seats of every game (how often two would sit
    together by chance). A stored scan keeps it, so one pair is scored from the games either player sat in alone."""

    everyone: Mapping[tuple[str, str], tuple[int, int]]
    spread: Mapping[str, float]
    seat_games: int


def score_pairs(
    games: Iterable[GameFacts],
    names: Mapping[int, str] | None = None,
    reports: Mapping[tuple[int, int], int] | None = None,
) -> list[PairScore]:
    """Every pair of users who shared a game, best (highest rank) first."""
    return scan_pairs(games, names, reports)[0]


def score_pair(
    games: Iterable[GameFacts],
    a: int,
    b: int,
    baseline: Baseline,
    names: Mapping[int, str] | None = None,
    reports: Mapping[tuple[int, int], int] | None = None,
) -> PairScore | None:
    """One pair's score from the games either of them sat in, judged against ``baseline`` (a scan's, over every
    game): what ``score_pairs`` over every game gives that pair when nothing was played since the baseline."""
    key = (min(a, b), max(a, b))
    found = scan_pairs(games, names, reports, baseline=baseline, only=key)[0]
    return found[0] if found else None


def scan_pairs(
    games: Iterable[GameFacts],
    names: Mapping[int, str] | None = None,
    reports: Mapping[tuple[int, int], int] | None = None,
    *,
    baseline: Baseline | None = None,
    only: tuple[int, int] | None = None,
) -> tuple[list[PairScore], Baseline]:
    """The pairs (every one, or ``only`` that one) best first, and the baseline they were judged against: counted
    from ``games``, or ``baseline`` when given (``games`` then need only hold the pair's players' games)."""
    if only is not None and baseline is None:
        raise ValueError("one pair is judged against a baseline over every game")
    names = names or {}
    reports = reports or {}
    everyone: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    own: dict[Key, list[int]] = defaultdict(lambda: [0, 0])
    toward: dict[tuple[int, int, str, str], list[int]] = defaultdict(lambda: [0, 0])
    shared: dict[tuple[int, int], list[int]] = defaultdict(list)
    played: dict[int, int] = defaultdict(int)
    others_at: dict[int, int] = defaultdict(int)  # seats beside each player, summed over his games
    moves: dict[tuple[int, int], list[tuple[int, int, str, str, bool, int]]] = defaultdict(list)
    seat_games = 0
    for g in games:
        users = [u for u in g.players if u is not None]
        seat_games += len(g.players)
        for u in users:
            played[u] += 1
            others_at[u] += len(g.players) - 1
        for i, u in enumerate(users):
            for v in users[i + 1 :]:
                shared[(min(u, v), max(u, v))].append(g.game_id)
        for x in counted(g.interactions):
            actor = g.players[x.actor] if 0 <= x.actor < len(g.players) else None
            if actor is None:
                continue  # a computer player's choices say nothing about a user
            target = g.players[x.target] if 0 <= x.target < len(g.players) else None
            hit = int(x.spared)
            pop = everyone[(x.kind, x.situation)]
            pop[0] += 1
            pop[1] += hit
            mine = own[(actor, x.kind, x.situation)]
            mine[0] += 1
            mine[1] += hit
            if target is not None and target != actor:
                pair = toward[(actor, target, x.kind, x.situation)]
                pair[0] += 1
                pair[1] += hit
                number = g.move_numbers[x.move] if x.move < len(g.move_numbers) else x.move + 1
                key = (min(actor, target), max(actor, target))
                moves[key].append((g.game_id, number, x.kind, x.situation, x.spared, actor))
    if baseline is not None:
        everyone.clear()
        everyone.update({k: list(v) for k, v in baseline.everyone.items()})
        seat_games = baseline.seat_games

    def expected_rate(actor: int, target: int, kind: str, situation: str) -> float:
        n_all, f_all = own[(actor, kind, situation)]
        n_t, f_t = toward.get((actor, target, kind, situation), (0, 0))
        n_pop, f_pop = everyone[(kind, situation)]
        p0 = (f_pop + 1) / (n_pop + 2)
        return (f_all - f_t + PRIOR * p0) / (n_all - n_t + PRIOR)

    by_pair: dict[tuple[int, int], dict[str, list[float]]] = defaultdict(
        lambda: defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    )
    for (actor, target, kind, situation), (n, f) in toward.items():
        key = (min(actor, target), max(actor, target))
        if only is not None and key != only:
            continue  # (the dispersion over every pair comes with the baseline)
        e = expected_rate(actor, target, kind, situation)
        acc = by_pair[key][kind]
        acc[0] += n
        acc[1] += f
        acc[2] += n * e
        acc[3] += n * e * (1 - e)
    spread = dict(baseline.spread) if baseline is not None else dispersion(by_pair)

    out = []
    for (a, b), game_ids in shared.items():
        if only is not None and (a, b) != only:
            continue
        kinds = [
            KindStat(kind, int(n), int(f), e, one_sided_llr(f, n, e) / spread.get(kind, 1.0))
            for kind, (n, f, e, _v) in sorted(by_pair.get((a, b), {}).items())
        ]
        score = sum(k.llr for k in kinds)
        chance = others_at[a] * played[b] / max(seat_games - played[a], 1)
        ratio = len(game_ids) / chance if chance > 0 else 0.0
        telling = sorted(
            (m for m in moves.get((a, b), []) if m[4]),
            key=lambda m: expected_rate(m[5], b if m[5] == a else a, m[2], m[3]),
        )
        out.append(
            PairScore(
                a=a,
                b=b,
                a_name=names.get(a, str(a)),
                b_name=names.get(b, str(b)),
                games=len(game_ids),
                game_ids=sorted(game_ids),
                score=round(score, 2),
                flagged=score >= THRESHOLD,
                reports=reports.get((a, b), 0),
                together_ratio=round(ratio, 2),
                kinds=kinds,
                decisive=[(m[0], m[1]) for m in telling[:DECISIVE]],
            )
        )
    out.sort(key=lambda p: (-p.rank, -p.games, p.a, p.b))
    found = Baseline({k: (v[0], v[1]) for k, v in everyone.items()}, spread, seat_games)
    return out, baseline if baseline is not None else found


def counted(interactions: Iterable[Interaction]) -> Iterator[Interaction]:
    """The first ``PER_GAME`` choices of each kind by one seat towards another in one game.

    Choices within one game hang together: two players adding single cards onto each other's piles
    for a whole game answer each other dozens of times, and one such game between two honest players
    would otherwise weigh like a season of them. The cap bounds what one game can say about a pair;
    sparing a partner game after game still adds up.
    """
    seen: dict[tuple[int, int, str], int] = defaultdict(int)
    for x in interactions:
        key = (x.actor, x.target, x.kind)
        seen[key] += 1
        if seen[key] <= PER_GAME:
            yield x


def dispersion(by_pair: Mapping[tuple[int, int], Mapping[str, Sequence[float]]]) -> dict[str, float]:
    """Per kind, how much wider than binomial the pairs' (observed - expected)^2 / variance runs (at least 1).

    The median over the pairs with enough chances, scaled by the median of a chi-square with one degree of
    freedom: a colluding pair far out in the tail cannot widen it and so hide itself.
    """
    ratios: dict[str, list[float]] = defaultdict(list)
    for kinds in by_pair.values():
        for kind, (n, f, e, v) in kinds.items():
            if n >= DISPERSION_MIN_CHANCES and v > 0:
                ratios[kind].append((f - e) ** 2 / v)
    return {kind: max(1.0, statistics.median(found) / CHI2_1_MEDIAN) for kind, found in ratios.items() if found}


def pair_to_json(p: PairScore) -> dict:
    """A pair as a stored scan keeps it (``fairplay.PairScan``): plain JSON, without ``game_ids``, which a pair
    that plays daily would grow without bound and no page reads (its games are read afresh)."""
    return {
        "a": p.a,
        "b": p.b,
        "a_name": p.a_name,
        "b_name": p.b_name,
        "games": p.games,
        "score": p.score,
        "flagged": p.flagged,
        "reports": p.reports,
        "together_ratio": p.together_ratio,
        "kinds": [[k.kind, k.chances, k.spared, k.expected, k.llr] for k in p.kinds],
        "decisive": [list(d) for d in p.decisive],
    }


def baseline_to_json(b: Baseline) -> dict:
    return {
        "everyone": [[kind, situation, n, f] for (kind, situation), (n, f) in b.everyone.items()],
        "spread": dict(b.spread),
        "seat_games": b.seat_games,
    }


def baseline_from_json(d: Mapping) -> Baseline | None:
    """None for a scan stored without one (made before scans kept it)."""
    if not d:
        return None
    return Baseline({(k, s): (n, f) for k, s, n, f in d["everyone"]}, d["spread"], d["seat_games"])


def pair_from_json(d: Mapping) -> PairScore:
    return PairScore(
        a=d["a"],
        b=d["b"],
        a_name=d["a_name"],
        b_name=d["b_name"],
        games=d["games"],
        game_ids=[],
        score=d["score"],
        flagged=d["flagged"],
        reports=d["reports"],
        together_ratio=d["together_ratio"],
        kinds=[KindStat(*k) for k in d["kinds"]],
        decisive=[(g, n) for g, n in d["decisive"]],
    )

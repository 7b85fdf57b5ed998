"""Bot-graded evidence: the engine check for a finished multi-player game.

Once a game is over its whole deal is known, so every decision a seat made can be
looked at again. For each decision of ``seat`` that had a choice, the strong bot
(``games.bots.search``) chooses in the same position from the same view and public
log the player had. Where the two differ, both moves are played out in the *true*
position (every hand known, as it was) by the same short heuristic rollouts with
common random numbers, and the game's own utility (``games.bots.worlds_<game>``,
through ``GameSpec.bots``) scores each seat's outcome:

- ``cost``: what the chosen move cost the mover against the bot's move
  (his utility after the bot's move minus after his own; > 0 means he played worse);
- ``gift``: what it gave ``partner`` (the partner's utility after the chosen move
  minus after the bot's; > 0 means the partner gained by it);
- ``harm``: what it did to the other seats on average (> 0: they lost by it).

A colluder's decisive moves are the ones that cost him and gave his partner.
Grading one game is bounded by ``budget_seconds``: what is left over is not graded
(``complete`` is False) rather than taking longer. Utilities run from 0 to 1 (Durak:
not being the fool; Believe It or Not: not losing; Biznes: the deal score against
the others' mean), so a cost of 0.3 is "three chances in ten of the result".

Nothing here knows a game by its name: a game whose bot kit has no world module
(no utility) is simply not graded.
"""

from __future__ import annotations

import importlib
import json
import random
import time
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from types import ModuleType
from typing import Any

from games import get_game
from games.base import RESIGN_ACTION, State
from games.bots.policies import Policy, heuristic_policy
from games.bots.public import Action, History
from games.bots.search import ROLLOUT_CAP, StrongBot
from games.words import Said

#: a decision counts as decisive when what it cost the mover plus what it gave the partner reaches this
DECISIVE = 0.15
#: the most decisive moves kept per graded game (what a moderator looks at first)
KEEP_DECISIVE = 5
#: the default share of a decision's time the bot thinks; the rest rolls the two moves out
THINK_SHARE = 0.5
#: a rollout's players choose at random this often: the heuristic alone plays one line from the true
#: position, so every rollout would be the same game and a move's value a single 0 or 1
ROLLOUT_EPSILON = 0.1


@dataclass(frozen=True)
class Decision:
    """One graded decision: the move's 1-based number in the game's log, the two moves and their values."""

    number: int
    chosen: Action
    bot: Action
    cost: float
    gift: float
    harm: float
    #: the bot chose the same move (nothing to compare: cost, gift and harm are 0)
    agreed: bool = False
    #: both moves in public words (``games.words``: each reader's language), for the moderator's page
    chosen_words: Said | None = None
    bot_words: Said | None = None

    @property
    def weight(self) -> float:
        return self.cost + self.gift


@dataclass
class Grading:
    """The grading of one seat's decisions in one finished game, against one partner."""

    seat: int
    partner: int
    #: the seat's moves that had a choice
    decisions: int = 0
    #: how many of them were graded within the budget
    graded: int = 0
    #: graded decisions where the player chose what the bot chose
    agreed: int = 0
    cost: float = 0.0
    gift: float = 0.0
    harm: float = 0.0
    #: the most decisive graded moves, heaviest first
    decisive: list[Decision] = field(default_factory=list)
    #: False: the budget ran out before every decision was graded (or the game cannot be graded)
    complete: bool = True

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for k in ("cost", "gift", "harm"):
            out[k] = round(out[k], 4)
        for d in out["decisive"]:
            for k in ("cost", "gift", "harm"):
                d[k] = round(d[k], 4)
        return out

    @property
    def decisive_count(self) -> int:
        return len(self.decisive)


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Two actions are one move whatever order their cards were listed in."""

    def canon(x: Mapping[str, Any]) -> str:
        return json.dumps({k: sorted(v) if isinstance(v, list) else v for k, v in x.items()}, sort_keys=True)

    return canon(a) == canon(b)


def _worlds(game_name: str) -> ModuleType | None:
    path = get_game(game_name).bots.get("worlds")
    return importlib.import_module(path) if path else None


def _outcomes(state: State, seat: int, action: Action, seed: int, policy: Policy, worlds: ModuleType) -> list[float]:
    """Every seat's utility after ``seat`` plays ``action`` in ``state`` and the game is rolled out."""
    st = state.copy()
    st.apply(seat, dict(action))
    rng = random.Random(seed)
    for _ in range(getattr(worlds, "ROLLOUT_CAP", ROLLOUT_CAP)):
        if st.is_over():
            break
        who = st.to_act()[0]
        legal = st.legal_actions(who)
        if len(legal) == 1:
            action = legal[0]
        elif rng.random() < ROLLOUT_EPSILON:
            action = rng.choice(legal)
        else:
            action = policy(st.view(who), legal, [], rng)
        st.apply(who, action)
    return [float(worlds.utility(st, s)) for s in range(st.seats)]


def _compare(
    state: State,
    seat: int,
    partner: int,
    chosen: Action,
    bot: Action,
    rollouts: int,
    rng: random.Random,
    policy: Policy,
    worlds: ModuleType,
    deadline: float,
) -> tuple[float, float, float] | None:
    """(cost, gift, harm) of ``chosen`` against ``bot`` by paired rollouts; None without time for one pair."""
    diffs = [0.0] * state.seats
    done = 0
    for _ in range(rollouts):
        if done and time.perf_counter() > deadline:
            break
        seed = rng.randrange(2**32)
        mine = _outcomes(state, seat, chosen, seed, policy, worlds)
        best = _outcomes(state, seat, bot, seed, policy, worlds)
        for s in range(state.seats):
            diffs[s] += best[s] - mine[s]
        done += 1
    if not done:
        return None
    diffs = [d / done for d in diffs]
    others = [s for s in range(state.seats) if s not in (seat, partner)]
    harm = sum(diffs[s] for s in others) / len(others) if others else 0.0
    return diffs[seat], -diffs[partner], harm


def grade_game(
    game_name: str,
    options: Mapping[str, Any] | None,
    seats: int,
    dealer: int,
    deck: Sequence[str],
    moves: Iterable[tuple[int, Mapping[str, Any]]],
    seat: int,
    partner: int,
    *,
    budget_seconds: float = 20.0,
    rollouts: int = 8,
    max_iterations: int | None = None,
    seed: int = 0,
    skip: Collection[int] = (),
) -> Grading:
    """Grade ``seat``'s decisions in a finished game (its setup and full move log) against ``partner``.

    ``max_iterations`` caps the bot's worlds per decision (tests pass it with a large budget so the
    grading does not depend on the machine's speed); ``seed`` makes the bot's and the rollouts' draws
    repeatable. ``skip``: numbers of moves the player did not make himself (a bot stood in for him, or
    his turn timed out), left ungraded.
    """
    if seat == partner:
        raise ValueError("the partner must be another seat")
    game = get_game(game_name)
    log = [(s, dict(a)) for s, a in moves]
    grading = Grading(seat=seat, partner=partner)
    worlds = _worlds(game_name)
    state = game.new(options=options, seats=seats, dealer=dealer, deck=deck)
    for s in (seat, partner):
        state.check_seat(s)
    if worlds is None:
        grading.complete = False
        return grading
    policy = heuristic_policy(game_name)
    rng = random.Random(seed)
    start = time.perf_counter()
    deadline = start + budget_seconds
    left = sum(1 for n, (s, a) in enumerate(log, 1) if s == seat and a != RESIGN_ACTION and n not in skip)
    history: History = []
    found: list[Decision] = []
    for number, (s, action) in enumerate(log, start=1):
        if s == seat and action != RESIGN_ACTION and number not in skip:
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                grading.decisions += 1
                now = time.perf_counter()
                if now < deadline:
                    share = (deadline - now) / max(1, left)
                    graded = _grade_one(
                        state, seat, partner, action, legal, history, share, rollouts, max_iterations,
                        rng, policy, worlds, game_name, number,
                    )  # fmt: skip
                    if graded is not None:
                        grading.graded += 1
                        if graded.agreed:
                            grading.agreed += 1
                        else:
                            grading.cost += graded.cost
                            grading.gift += graded.gift
                            grading.harm += graded.harm
                            if graded.weight >= DECISIVE:
                                found.append(graded)
            left -= 1
        state.apply_logged(s, action)
        history.append((s, game.public_record(action, state.view(None))))
    grading.complete = grading.graded == grading.decisions
    found.sort(key=lambda d: (-d.weight, d.number))
    grading.decisive = found[:KEEP_DECISIVE]
    return grading


def _grade_one(
    state: State,
    seat: int,
    partner: int,
    action: Action,
    legal: list[Action],
    history: History,
    seconds: float,
    rollouts: int,
    max_iterations: int | None,
    rng: random.Random,
    policy: Policy,
    worlds: ModuleType,
    game_name: str,
    number: int,
) -> Decision | None:
    """One decision: the bot's choice from the player's view, then the two moves rolled out."""
    think = max(seconds * THINK_SHARE, 1e-3)
    bot = StrongBot(budget_seconds=think, max_iterations=max_iterations)
    choice = bot.choose(game_name, state.view(seat), legal, list(history), rng)
    if _same(choice, action):
        return Decision(number=number, chosen=action, bot=action, cost=0.0, gift=0.0, harm=0.0, agreed=True)
    deadline = time.perf_counter() + max(seconds - think, 1e-3)
    compared = _compare(state, seat, partner, action, choice, rollouts, rng, policy, worlds, deadline)
    if compared is None:
        return None
    cost, gift, harm = compared
    return Decision(
        number=number, chosen=action, bot=dict(choice), cost=cost, gift=gift, harm=harm,
        chosen_words=state.describe_words(seat, action), bot_words=state.describe_words(seat, choice),
    )  # fmt: skip

"""The engine contract (``../shared/rules/README.md``) as a template.

``State`` owns the public API. ``new`` and ``apply`` are written here, once:
they check everything that is the same for every game (seats, options,
dealer, seed and deck; the action's shape, its type and keys, the seat, that
the game is not over) and then call the game's own ``_deal`` and ``_apply``.
So every engine refuses the same bad input with the same error:
``InvalidOptions`` for a setup, ``IllegalAction`` for a move (both
``ValueError``). A game declares what differs as class attributes:
``OPTIONS``, ``SEATS``, ``ACTIONS`` (the keys each action type may carry).

``GameSpec`` is the registry entry: it builds states (``new``), restores them
(``from_json``), replays a move log (``replay``) and describes its options for
the lobby.

Beyond the contract every state also offers what the platform and the tests
need: ``zones`` (every card exactly once, hidden places included, for the
conservation property), ``to_json``/``from_json`` (a full snapshot, so a cached
game resumes without replaying), ``default_action`` (the rules' turn-timeout
move), ``describe`` (an action in words, using public information only),
``apply_described`` (``apply`` that also returns those words, without copying
the state), ``next_game`` (who deals the next game of a match) and ``copy``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from games.cards import check_deck_order, shuffled
from games.errors import IllegalAction, InvalidOptions
from games.fairplay import Interaction, Record
from games.fields import Codec, FieldsMeta
from games.options import Option, check_dealer, check_seats, validate
from games.outcome import Outcome, by_order
from games.sheets import CountingSheet, Sheet, load_counting
from games.ui import UI
from games.words import Said, say, verbatim

Action = dict[str, Any]

#: how a resignation is written in a move log (no game has an action of this type)
RESIGN_ACTION: Action = {"type": "resign"}

S = TypeVar("S", bound="State")


class State(metaclass=FieldsMeta):
    """One game in progress. Fields are declared once, as annotations (``games.fields``)."""

    #: the registry name, ``"durak"``; set by each game's state class
    game_name: ClassVar[str]
    #: the game's declared options (validated by ``new``)
    OPTIONS: ClassVar[tuple[Option, ...]]
    #: (fewest, most) seats
    SEATS: ClassVar[tuple[int, int]]
    #: action type -> every key an action of that type may carry, ``"type"`` included
    ACTIONS: ClassVar[Mapping[str, frozenset[str]]]
    #: the keyword arguments ``next_game`` accepts
    NEXT_GAME_CHOICES: ClassVar[frozenset[str]] = frozenset()
    #: whether ``resign`` ends the game (the game defines ``_resign``); if not, a resigner leaves and a bot
    #: plays his seat on (the platform's part)
    RESIGNS: ClassVar[bool] = False
    #: optional: action type -> the function making that move (instead of overriding ``_apply``)
    _HANDLERS: ClassVar[Mapping[str, Callable[[Any, int, Action], None]]] = {}
    #: built from ``ACTIONS`` and ``_HANDLERS``: action type -> (its allowed keys, what makes it)
    _DISPATCH: ClassVar[dict[str, tuple[frozenset[str], Callable[[Any, int, Action], None]]]] = {}
    #: built by ``FieldsMeta`` from the annotations: saved fields, derived ones
    _FIELDS: ClassVar[dict[str, Codec]]
    _DERIVED: ClassVar[tuple[str, ...]]

    options: dict[str, Any]
    seats: int
    dealer: int
    #: the deck order given to (or shuffled by) ``new``, top first: ``new(deck=state.deck)`` replays the game
    deck: list[str]
    #: the game's phase, explicit; every game ends in the phase ``"over"``
    phase: str

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        actions = getattr(cls, "ACTIONS", None)
        if actions is None:
            return
        dispatch = {}
        for kind, allowed in actions.items():
            handler = cls._HANDLERS.get(kind)
            if handler is None:
                # bind ``kind`` now: the game's own ``_apply`` decides
                def handler(self: State, seat: int, action: Action, kind: str = kind) -> None:
                    self._apply(seat, kind, action)

            dispatch[kind] = (allowed, handler)
        cls._DISPATCH = dispatch

    # -- the contract: setup ----------------------------------------------------
    @classmethod
    def new(
        cls: type[S],
        options: Mapping[str, Any] | None = None,
        seats: int | None = None,
        dealer: int = 0,
        deck: Sequence[str] | None = None,
        seed: int | None = None,
    ) -> S:
        """A new game; ``InvalidOptions`` names the first thing wrong with the setup."""
        low, high = cls.SEATS
        seats = check_seats(low if seats is None else seats, low, high)
        opts = cls._setup_options(options, seats)
        dealer = check_dealer(dealer, seats)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise InvalidOptions(f"seed: must be a whole number or null, not {seed!r}")
        full = cls._full_deck(opts)
        order = shuffled(full, seed) if deck is None else check_deck_order(deck, full)
        return cls._deal(opts, seats, dealer, order)

    @classmethod
    def _setup_options(cls, given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        """The complete, checked options; games add their cross-option rules."""
        return validate(cls.OPTIONS, given, seats)

    @classmethod
    @abstractmethod
    def _full_deck(cls, options: Mapping[str, Any]) -> list[str]:
        """Every card this setup plays with, in code order."""

    @classmethod
    @abstractmethod
    def _deal(cls: type[S], options: dict[str, Any], seats: int, dealer: int, deck: list[str]) -> S:
        """The state after the deal; every argument is already checked."""

    # -- the contract: moves ------------------------------------------------------
    def apply(self, seat: int, action: Action) -> None:
        """Make a move, or raise ``IllegalAction`` and change nothing."""
        # the common case in as few steps as possible (bots, searches and the platform apply
        # millions of moves); anything unusual goes through ``_check``, which names what is wrong
        if type(action) is dict and type(seat) is int and 0 <= seat < self.seats and self.phase != "over":
            try:
                allowed, handler = self._DISPATCH[action["type"]]
            except (KeyError, TypeError):  # no type, an unknown one, or one that is no string
                pass
            else:
                if len(action) == 1 or allowed.issuperset(action):  # one key: the "type" just looked up
                    handler(self, seat, action)
                    return
        self._apply(seat, self._check(seat, action), action)

    def apply_described(self, seat: int, action: Action) -> str:
        """``apply`` that returns the move in public words (``describe`` taken before it)."""
        kind = self._check(seat, action)
        text = self.describe(seat, action)
        self._apply(seat, kind, action)
        return text

    def apply_said(self, seat: int, action: Action) -> Said:
        """``apply`` that returns the move's public words in no language yet (``describe_words`` before it)."""
        kind = self._check(seat, action)
        said = self.describe_words(seat, action)
        self._apply(seat, kind, action)
        return said

    def _check(self, seat: object, action: object) -> str:
        """What is the same for every game: the action's shape and keys, the seat, not over."""
        if not isinstance(action, dict):
            raise IllegalAction(f"an action must be an object with a 'type', not {action!r}")
        kind = action.get("type")
        if type(kind) is not str:
            raise IllegalAction("an action needs a 'type' string")
        allowed = self.ACTIONS.get(kind)
        if allowed is None:
            raise IllegalAction(f"unknown action type {kind!r} (known: {', '.join(self.ACTIONS)})")
        if type(seat) is not int or not 0 <= seat < self.seats:
            self.check_seat(seat)
        if self.is_over():
            raise IllegalAction(say("the game is over"))
        if not action.keys() <= allowed:
            extra = sorted(set(action) - allowed)
            raise IllegalAction(f"unexpected key {extra[0]!r} in a {kind!r} action")
        return kind

    def _apply(self, seat: int, kind: str, action: Action) -> None:
        """The game's rules for one move; the common checks have passed.

        A game either overrides this or names one handler per action type in
        ``_HANDLERS`` (one call less per move).
        """
        self._HANDLERS[kind](self, seat, action)

    # -- resigning: owned by the framework, never one of ``legal_actions`` ---------------
    def resign(self, seat: int) -> None:
        """``seat`` gives the game up: it ends now, as the game's rules end it for a resigner.

        Not an action (``apply`` refuses it and ``legal_actions`` never lists it), so
        the contract and random play are untouched; the platform logs it as
        ``RESIGN_ACTION`` and a replay passes the log through ``apply_logged``.
        """
        self.check_seat(seat)
        if self.is_over():
            raise IllegalAction(say("the game is over"))
        if not self.RESIGNS:
            raise IllegalAction("resigning does not end this game")
        self._resign(seat)

    def _resign(self, seat: int) -> None:
        """The game's end for a resigner (set ``phase = "over"`` and the result); needs ``RESIGNS = True``."""
        raise IllegalAction("resigning does not end this game")

    def apply_logged(self, seat: int, action: Action) -> None:
        """One entry of a stored move log: a move, or a resignation."""
        if action == RESIGN_ACTION:
            self.resign(seat)
        else:
            self.apply(seat, action)

    @abstractmethod
    def to_act(self) -> list[int]: ...

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """The moves ``seat`` may make now, in the engine's order ([] when it may make none).

        The list is the caller's own, but the actions in it are read-only: an engine
        lists shared, pre-built actions (the same dict, card list included, in every
        list and every state), because building fresh ones was most of the cost of
        a move. Never modify a listed action; copy it to change it (``dict(a)`` and
        ``list(a["cards"])``). ``apply`` never modifies the action it is given.
        """

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]: ...

    def is_over(self) -> bool:
        return self.phase == "over"

    @abstractmethod
    def result(self) -> dict[str, Any] | None: ...

    # -- platform extras ----------------------------------------------------
    @abstractmethod
    def zones(self) -> dict[str, list[str]]:
        """Every card of the deck exactly once, keyed by where it lies."""

    @abstractmethod
    def default_action(self, seat: int) -> Action:
        """The rules' turn-timeout move for a seat in ``to_act()``."""

    @abstractmethod
    def describe(self, seat: int, action: Action) -> str:
        """An action in words without the actor's name ("covers 6H with 9H").

        Call it *before* ``apply`` (or use ``apply_described``); it may only use
        what every seat can see, and never raises for a malformed action.
        """

    def describe_words(self, seat: int, action: Action) -> Said:
        """``describe`` as a ``games.words.Said``, which each reader sees in his own language.

        The same rules as ``describe`` (public information only, before ``apply``);
        a game that words its moves in English only keeps this default.
        """
        return verbatim(self.describe(seat, action))

    # -- snapshots, from the one field list ------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A complete JSON-ready snapshot; ``from_json`` restores it exactly."""
        return self._dump_fields({"game": self.game_name})  # type: ignore[attr-defined,no-any-return]

    @classmethod
    def from_json(cls: type[S], data: Mapping[str, Any]) -> S:
        if not isinstance(data, Mapping) or data.get("game") != cls.game_name:
            raise InvalidOptions(f"not a saved {cls.game_name} state")
        self = object.__new__(cls)
        try:
            self._load_fields(data)  # type: ignore[attr-defined]
            self._derive()
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise InvalidOptions(f"not a complete saved {cls.game_name} state: {e!r}") from e
        return self

    def _derive(self) -> None:
        """Set the derived fields (``Annotated[..., DERIVED]``) from the saved ones."""

    def copy(self: S) -> S:
        """An independent copy (the bots' searches copy a state per simulation)."""
        return self._copy_fields(object.__new__(type(self)))  # type: ignore[attr-defined,no-any-return]

    def next_game(self, **choices: Any) -> tuple[int, dict[str, Any]]:
        """For a match: the next game's dealer and options, once this one is over.

        Unknown choices are ``InvalidOptions``; before the end ``IllegalAction``.
        Durak takes ``fool_rule="under"|"from"`` (D11); Biznes keeps the dealer
        after a void deal (B10); Believe It or Not: the loser deals (V1).
        """
        unknown = sorted(set(choices) - self.NEXT_GAME_CHOICES)
        if unknown:
            known = ", ".join(sorted(self.NEXT_GAME_CHOICES)) or "none"
            raise InvalidOptions(f"unknown choice {unknown[0]!r} (known: {known})")
        if not self.is_over():
            raise IllegalAction("the game is not over")
        return self._next_game(**choices)

    @abstractmethod
    def _next_game(self, **choices: Any) -> tuple[int, dict[str, Any]]: ...

    def check_seat(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise IllegalAction(f"seat: must be 0..{self.seats - 1}, not {seat!r}")
        return seat


class GameSpec:
    """A registry entry: ``games.get_game("durak")``.

    Besides building states it answers everything the platform would otherwise
    ask by the game's name: the generic outcome (``placings``), the public record
    of a move, the match's options, default length, score sheet and unit word,
    the bots' kit and the page's UI metadata.
    """

    def __init__(
        self,
        name: str,
        title: str,
        state_class: type[State],
        options: Sequence[Option] | None = None,
        seats: tuple[int, int] | None = None,
        summary: str = "",
        *,
        placings: Callable[[Mapping[str, Any], int, Mapping[str, Any]], Outcome] | None = None,
        score_position: Callable[[Any], Outcome] | None = None,
        public_action: Callable[[Mapping[str, Any]], Action] | None = None,
        public_check: Callable[[Mapping[str, Any], Mapping[str, Any]], dict[str, Any] | None] | None = None,
        match_options: Sequence[Option] = (),
        match_length: Callable[[int], int] = lambda seats: 1,
        sheet: Callable[..., Sheet] | None = None,
        load_sheet: Callable[[Mapping[str, Any]], Sheet] | None = None,
        unit: tuple[str, str] = ("game", "games"),
        loss_words: tuple[str, str, str, str] | None = ("lost", "Losses", "lost", "lost"),
        rated_by: str = "game",
        bots: Mapping[str, str] | None = None,
        ui: UI | None = None,
        replay_note: str = "",
        teams: Callable[[int, Mapping[str, Any]], list[list[int]]] | None = None,
        interactions: Callable[[Record, int, Mapping[str, Any]], list[Interaction]] | None = None,
        interaction_kinds: Mapping[str, str] | None = None,
    ) -> None:
        self.name = name
        self.title = title
        self.state_class = state_class
        # the state class declares both; the arguments stay for callers that pass them
        self.options = tuple(state_class.OPTIONS if options is None else options)
        self.min_seats, self.max_seats = state_class.SEATS if seats is None else seats
        self.summary = summary
        self._placings = placings
        self._score_position = score_position
        self._public_action = public_action
        self._public_check = public_check
        #: choices for a whole match (Durak's ``fool_rule``), passed to ``State.next_game``
        self.match_options = tuple(match_options)
        self._match_length = match_length
        self._sheet = sheet
        self._load_sheet = load_sheet
        #: the match unit, singular and plural ("deal", "deals"); the platform translates it
        self.unit = unit
        #: a counting sheet's words: one game lost ("fool"), the totals' heading ("Fools"), and a count of
        #: losses on a profile, singular and plural ("time the fool", "times the fool")
        #: None: the game scores points instead of counting losses
        self.loss_words = loss_words
        #: "game": ratings move after every game; "match": once per match, by its sheet's standings
        self.rated_by = rated_by
        #: module paths of the bots' per-game parts: ``heuristic`` (a ``choose`` policy), ``worlds`` (a sampler),
        #: ``colluding`` (how a colluder changes the heuristic choice: ``games.bots.collude``, for measuring only)
        self.bots = dict(bots or {})
        self.ui = ui or UI()
        #: what a finished game's replay reveals that was secret during play, told on the replay page
        self.replay_note = replay_note
        self._teams = teams
        self._interactions = interactions
        #: each kind of ``interactions`` in words, the situation it counts ("Could throw in on him"); the platform
        #: translates them where moderators read them
        self.interaction_kinds = dict(interaction_kinds or {})

    # -- what the platform reads instead of asking the game's name ------------------
    def teams(self, seats: int, options: Mapping[str, Any]) -> list[list[int]]:
        """The partnerships a table with these options plays in (seats of each team), or [] without teams."""
        return self._teams(seats, options) if self._teams is not None else []

    def interactions(self, record: Record, seats: int, options: Mapping[str, Any]) -> list[Interaction]:
        """Who acted on whom in one game, from its public move record (``games.fairplay``); [] if not told."""
        return self._interactions(record, seats, options) if self._interactions is not None else []

    def placings(self, result: Mapping[str, Any], seats: int, options: Mapping[str, Any]) -> Outcome:
        """The generic outcome of one finished game: places with ties, teams, the loser, points."""
        if self._placings is None:
            return by_order(seats, [[s] for s in result.get("finished", [])], result.get("loser"))
        return self._placings(result, seats, options)

    def score_position(self, state: State) -> Outcome:
        """The outcome of an unfinished game as its rules score the position (a tournament round's deadline).

        A finished game scores as it ended; a game without its own rule gives
        every seat a shared first place (nothing is decided yet).
        """
        if state.is_over():
            return self.placings(state.result() or {}, state.seats, state.options)
        if self._score_position is None:
            return by_order(state.seats, [], None, draw=True)
        return self._score_position(state)

    def public_action(self, action: Mapping[str, Any]) -> Action:
        """``action`` with its hidden parts removed: what every seat at the table saw."""
        if self._public_action is None:
            return {k: list(v) if isinstance(v, list) else v for k, v in action.items()}
        return self._public_action(action)

    def public_record(self, action: Mapping[str, Any], spectator_view_after: Mapping[str, Any] | None) -> Action:
        """The move log's public entry: ``public_action`` plus what the move made public (a turned-up check)."""
        out = self.public_action(action)
        if self._public_check is not None and spectator_view_after:
            extra = self._public_check(out, spectator_view_after)
            if extra:
                out.update(extra)
        return out

    def check_match_options(self, given: Mapping[str, Any] | None, seats: int) -> dict[str, Any]:
        return validate(self.match_options, given, seats)

    def default_match_length(self, seats: int) -> int:
        return self._match_length(seats)

    def new_sheet(self, seats: int, options: Mapping[str, Any], length: int, dealer: int) -> Sheet:
        """An empty score sheet for a match of ``length`` games (or deals)."""
        if self._sheet is not None:
            return self._sheet(seats=seats, options=options, length=length, dealer=dealer)
        words = self.loss_words or ("lost", "Losses")
        return CountingSheet(self.placings, seats, length, *words[:2])

    def load_sheet(self, data: Mapping[str, Any]) -> Sheet:
        if self._load_sheet is not None:
            return self._load_sheet(data)
        words = self.loss_words or ("lost", "Losses")
        return load_counting(data, placings=self.placings, loss_word=words[0], losses_word=words[1])

    def new(
        self,
        options: Mapping[str, Any] | None = None,
        seats: int | None = None,
        dealer: int = 0,
        deck: Sequence[str] | None = None,
        seed: int | None = None,
    ) -> State:
        return self.state_class.new(options=options, seats=seats, dealer=dealer, deck=deck, seed=seed)

    def from_json(self, data: Mapping[str, Any]) -> State:
        if not isinstance(data, Mapping) or data.get("game") != self.name:
            raise InvalidOptions(f"not a saved {self.name} state")
        return self.state_class.from_json(data)

    def replay(
        self,
        options: Mapping[str, Any] | None,
        seats: int,
        dealer: int,
        deck: Sequence[str],
        moves: Iterable[tuple[int, Action]],
    ) -> State:
        """Rebuild a game from its setup and move log; an illegal move raises."""
        state = self.new(options=options, seats=seats, dealer=dealer, deck=deck)
        for seat, action in moves:
            state.apply_logged(seat, action)
        return state

    @property
    def resign_ends(self) -> bool:
        """True: a resignation ends the game (``State.resign``); False: the resigner leaves, a bot plays on."""
        return self.state_class.RESIGNS

    def option_schema(self) -> list[dict[str, Any]]:
        return [o.describe() for o in self.options]

    def seat_counts(self, options: Mapping[str, Any] | None = None) -> tuple[int, ...]:
        """The numbers of players these options (the defaults when None) allow: what a seat picker may offer.

        The engine judges each count (Durak: at most 6 with 36 cards) with a
        throw-away deal, so a picker never offers a count the table then refuses.
        """
        counts = []
        for seats in range(self.min_seats, self.max_seats + 1):
            try:
                self.new(options=dict(options or {}), seats=seats, seed=0)
            except InvalidOptions:
                continue
            counts.append(seats)
        return tuple(counts)

    def __repr__(self) -> str:
        return f"<GameSpec {self.name}>"

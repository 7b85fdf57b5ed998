"""Durak's options, exactly the table of ``rules/durak.md``; the cross-option checks are in ``DurakState``."""

from __future__ import annotations

from games.options import Option

OPTIONS: tuple[Option, ...] = (
    Option("deck", "Deck", 36, choices=(36, 52), kind="int", help="36 cards (6..A) or 52 (2..A)"),
    Option(
        "mode",
        "Mode",
        "throw_in",
        choices=("throw_in", "transfer"),
        choice_labels=("Throw-in (podkidnoy)", "Transfer (perevodnoy)"),
        help="D8: in transfer mode the defender may pass the attack on",
    ),
    Option(
        "lead",
        "Lead",
        "same_rank",
        choices=("same_rank", "single"),
        choice_labels=("Any number of one rank", "One card"),
        help="D4",
    ),
    Option(
        "throw_in",
        "Who throws in",
        "all",
        choices=("all", "neighbors"),
        choice_labels=("Everyone but the defender", "The defender's neighbours"),
        help="D6",
    ),
    Option("first_bout_limit", "First bout limit", 5, low=1, high=6, kind="int", help="D4: until the first discard"),
    Option("bout_limit", "Bout limit", 6, low=1, high=6, kind="int", help="D4"),
    Option("dummy", "Dummy card", False, kind="bool", help="D1 D5: the joker X1 beats and is beaten by anything"),
    Option("spades_by_spades", "Spades by spades", False, kind="bool", help="D5: spades only by spades, QS is top"),
    Option("trump_show", "Transfer by showing a trump", True, kind="bool", help="D8, transfer mode only"),
    Option("teams", "Teams", False, kind="bool", help="D4 D6 D10: 2 vs 2 or 3 vs 3, even seats against odd"),
    Option("redeal_five_of_suit", "Redeal on five of a suit", False, kind="bool", help="D2"),
    Option("first_attacker", "First attacker", None, kind="seat", help="D3 override, set by a match (D11)"),
)

MAX_SEATS = {36: 6, 52: 8}

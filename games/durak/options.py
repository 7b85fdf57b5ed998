"""Durak's options, exactly the table of ``rules/durak.md``; the cross-option checks are in ``DurakState``.

Labels and help are written for players (the rule numbers stay in the rules
file); the platform translates them where it shows them (its ``makemessages``
reads them from the registry).
"""

from __future__ import annotations

from games.options import Option

OPTIONS: tuple[Option, ...] = (
    Option(
        "deck",
        "Deck",
        36,
        choices=(36, 52),
        kind="int",
        choice_labels=("36 cards", "52 cards"),
        help="36 cards run from six to ace, for up to 6 players; 52 cards from two to ace, for up to 8.",
    ),
    Option(
        "mode",
        "Mode",
        "throw_in",
        choices=("throw_in", "transfer"),
        choice_labels=("Throw-in (podkidnoy)", "Transfer (perevodnoy)"),
        help=(
            "In transfer Durak the defender may pass the attack on to the next player "
            "by adding a card of the same rank before beating any card."
        ),
    ),
    Option(
        "lead",
        "Lead",
        "same_rank",
        choices=("same_rank", "single"),
        choice_labels=("Any number of one rank", "One card"),
        help="How many cards the attacker may lead at the start of a bout.",
    ),
    Option(
        "throw_in",
        "Who throws in",
        "all",
        choices=("all", "neighbors"),
        choice_labels=("Everyone but the defender", "The defender's neighbours"),
        help="Who may add cards of a rank already on the table while the defender is beating.",
    ),
    Option(
        "first_bout_limit",
        "First bout limit",
        5,
        low=1,
        high=6,
        kind="int",
        help=("The most cards the defender has to face in a bout until cards first go to the discard pile."),
    ),
    Option(
        "bout_limit",
        "Bout limit",
        6,
        low=1,
        high=6,
        kind="int",
        help="The most cards the defender has to face in a bout after that; never more than he holds.",
    ),
    Option(
        "dummy",
        "Dummy card",
        False,
        kind="bool",
        help="Adds a joker, the dummy: it beats any card and any card beats it; it is led on its own.",
    ),
    Option(
        "spades_by_spades",
        "Spades by spades",
        False,
        kind="bool",
        help=("Spades are never trumps and only a higher spade beats a spade; the queen of spades beats every spade."),
    ),
    Option(
        "trump_show",
        "Transfer by showing a trump",
        True,
        kind="bool",
        help=(
            "In transfer Durak a defender may pass the attack on by showing a trump of the same rank "
            "and keeping it, once a game."
        ),
    ),
    Option(
        "teams",
        "Teams",
        False,
        kind="bool",
        help=(
            "With 4 or 6 players: two teams, every other seat a partner; partners never attack each other "
            "and the team that still holds cards when the other is out loses."
        ),
    ),
    Option(
        "redeal_five_of_suit",
        "Redeal on five of a suit",
        False,
        kind="bool",
        help="If anyone is dealt five or more cards of one suit, the cards are shuffled and dealt again.",
    ),
    Option(
        "first_attacker",
        "First attacker",
        None,
        kind="seat",
        help="Set by the match: who attacks first in the next game.",
    ),
)

MAX_SEATS = {36: 6, 52: 8}

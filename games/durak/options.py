"""Durak's options, exactly the table of ``rules/durak.md``; the cross-option checks are in ``DurakState``.

Labels and help are written for players (the rule numbers stay in the rules
file) and marked for translation (``games.words``).
"""

from __future__ import annotations

from games.options import Option
from games.words import gettext_noop

OPTIONS: tuple[Option, ...] = (
    Option(
        "deck",
        gettext_noop("Deck"),
        36,
        choices=(36, 52),
        kind="int",
        choice_labels=(gettext_noop("36 cards"), gettext_noop("52 cards")),
        help=gettext_noop("36 cards run from six to ace, for up to 6 players; 52 cards from two to ace, for up to 8."),
    ),
    Option(
        "mode",
        gettext_noop("Mode"),
        "throw_in",
        choices=("throw_in", "transfer"),
        choice_labels=(gettext_noop("Throw-in (podkidnoy)"), gettext_noop("Transfer (perevodnoy)")),
        help=gettext_noop(
            "In transfer Durak the defender may pass the attack on to the next player "
            "by adding a card of the same rank before beating any card."
        ),
    ),
    Option(
        "lead",
        gettext_noop("Lead"),
        "same_rank",
        choices=("same_rank", "single"),
        choice_labels=(gettext_noop("Any number of one rank"), gettext_noop("One card")),
        help=gettext_noop("How many cards the attacker may lead at the start of a bout."),
    ),
    Option(
        "throw_in",
        gettext_noop("Who throws in"),
        "all",
        choices=("all", "neighbors"),
        choice_labels=(gettext_noop("Everyone but the defender"), gettext_noop("The defender's neighbours")),
        help=gettext_noop("Who may add cards of a rank already on the table while the defender is beating."),
    ),
    Option(
        "first_bout_limit",
        gettext_noop("First bout limit"),
        5,
        low=1,
        high=6,
        kind="int",
        help=gettext_noop(
            "The most cards the defender has to face in a bout until cards first go to the discard pile."
        ),
    ),
    Option(
        "bout_limit",
        gettext_noop("Bout limit"),
        6,
        low=1,
        high=6,
        kind="int",
        help=gettext_noop("The most cards the defender has to face in a bout after that; never more than he holds."),
    ),
    Option(
        "dummy",
        gettext_noop("Dummy card"),
        False,
        kind="bool",
        help=gettext_noop("Adds a joker, the dummy: it beats any card and any card beats it; it is led on its own."),
    ),
    Option(
        "spades_by_spades",
        gettext_noop("Spades by spades"),
        False,
        kind="bool",
        help=gettext_noop(
            "Spades are never trumps and only a higher spade beats a spade; the queen of spades beats every spade."
        ),
    ),
    Option(
        "trump_show",
        gettext_noop("Transfer by showing a trump"),
        True,
        kind="bool",
        help=gettext_noop(
            "In transfer Durak a defender may pass the attack on by showing a trump of the same rank "
            "and keeping it, once a game."
        ),
    ),
    Option(
        "teams",
        gettext_noop("Teams"),
        False,
        kind="bool",
        help=gettext_noop(
            "With 4 or 6 players: two teams, every other seat a partner; partners never attack each other "
            "and the team that still holds cards when the other is out loses."
        ),
    ),
    Option(
        "redeal_five_of_suit",
        gettext_noop("Redeal on five of a suit"),
        False,
        kind="bool",
        help=gettext_noop("If anyone is dealt five or more cards of one suit, the cards are shuffled and dealt again."),
    ),
    Option(
        "first_attacker",
        gettext_noop("First attacker"),
        None,
        kind="seat",
        help=gettext_noop("Set by the match: who attacks first in the next game."),
    ),
)

MAX_SEATS = {36: 6, 52: 8}

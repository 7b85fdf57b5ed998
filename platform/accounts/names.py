"""Names that cannot lie: what a display name may be, and when two names are too alike.

A display name is shown beside every chat line and seat, so it must not pass for another account's: it is
NFKC-normalized, refused when it holds a bidi control, a zero-width or other invisible character, or too few
visible characters, and refused when its skeleton (Unicode TR 39: case folded, look-alike letters folded to
the Latin they pass for, punctuation and spaces dropped) equals another account's username or display name.
The skeletons are stored on the user (``User.username_key`` / ``name_key``) so that check is one query.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.confusables import LOOKALIKES, SEQUENCES

if TYPE_CHECKING:
    from accounts.models import User

NAME_MAX = 40
#: a name needs this many visible characters (letters, digits, symbols)
VISIBLE_MIN = 2
#: more combining marks than this on one letter is "zalgo" text that spills over the lines around it
MARKS_MAX = 2
#: characters that draw nothing but are letters or spaces to Unicode (Hangul fillers, braille blank, ...)
BLANK_LOOKING = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u034f\u17b4\u17b5\u3000")
#: before case folding: a capital I reads as a small L in most of the fonts the site uses
BEFORE_FOLD = {"I": "l"}


class NameRefused(ValueError):
    """A display name that cannot be used; the message says why, for the person choosing it."""


def skeleton(name: str) -> str:
    """What ``name`` looks like, for comparing two names: equal skeletons read the same on the page."""
    text = unicodedata.normalize("NFKC", name or "")
    text = "".join(BEFORE_FOLD.get(c, c) for c in text).casefold()
    text = unicodedata.normalize("NFD", text)
    text = "".join(LOOKALIKES.get(c, c) for c in text)
    text = "".join(c for c in text if unicodedata.category(c)[0] not in "PZC" and c not in BLANK_LOOKING)
    text = "".join(LOOKALIKES.get(c, c) for c in unicodedata.normalize("NFD", text))
    for pair, single in SEQUENCES:
        text = text.replace(pair, single)
    return unicodedata.normalize("NFC", text)


def _hidden(c: str) -> bool:
    return unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") or c in BLANK_LOOKING


def display_name_clean(value: object) -> str:
    """``value`` as a display name may be stored (possibly empty: the username is shown), or ``NameRefused``."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise NameRefused(_("A name must be text."))
    text = unicodedata.normalize("NFKC", value)
    if any(_hidden(c) for c in text):
        raise NameRefused(
            _("A name cannot contain invisible characters or characters that change the direction of the text.")
        )
    text = " ".join(text.split())
    if not text:
        return ""
    marks = 0
    for c in text:
        marks = marks + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        if marks > MARKS_MAX:
            raise NameRefused(_("A name cannot stack that many accents on one letter."))
    visible = [c for c in text if unicodedata.category(c)[0] in "LNS"]
    if len(visible) < VISIBLE_MIN:
        raise NameRefused(_("A name needs at least %(count)d letters or digits you can see.") % {"count": VISIBLE_MIN})
    if len(text) > NAME_MAX:
        raise NameRefused(_("A name holds at most %(max)d characters.") % {"max": NAME_MAX})
    return text


#: names nobody may look like, account or not: they would speak for the site itself
STAFF_WORDS = ("moderator", "moderators", "administrator", "support", "system", "staff")


def _reserved(key: str) -> bool:
    words = (*settings.ACCOUNT_USERNAME_BLACKLIST, *STAFF_WORDS)
    return key in {skeleton(word) for word in words if len(word) > 1}


def name_taken(key: str, *, user: User | None = None, own_username: str = "") -> bool:
    """Does another account's username or display name, or a name reserved for the site, look like ``key``?"""
    from accounts.models import User

    if not key:
        return False
    if _reserved(key):
        return True
    if own_username and skeleton(own_username) == key:
        return False
    others = User.objects.filter(Q(username_key=key) | Q(name_key=key))
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    return others.exists()


def display_name_check(value: object, *, user: User | None = None, own_username: str = "") -> str:
    """The display name ``user`` (or a new account named ``own_username``) may take, or ``NameRefused``."""
    text = display_name_clean(value)
    if user is not None and text == user.display_name:
        return text  # the name he has: saving his profile again does not take it from him
    mine = own_username or (user.username if user is not None else "")
    if text and name_taken(skeleton(text), user=user, own_username=mine):
        raise NameRefused(_("This name looks like another player's name; choose another."))
    return text


def username_check(username: str) -> None:
    """A new username must not look like another account's username or display name either."""
    if name_taken(skeleton(username)):
        raise NameRefused(_("This username looks like another player's name; choose another."))

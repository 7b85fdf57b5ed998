"""English words of the games that the platform shows translated.

``games`` never imports Django, so a game's words (option labels and help, the
choices' labels) are plain English marked with ``gettext_noop``. The name is the
one ``manage.py makemessages`` already looks for (Django runs xgettext with
``--keyword=gettext_noop``), so every marked string lands in the catalogues
without a list kept by hand; the platform translates the text when it shows it
(``gettext(option.help)``), in the reader's language.
"""

from __future__ import annotations


def gettext_noop(text: str) -> str:
    """Mark ``text`` for the catalogues; the text itself is returned unchanged."""
    return text

"""What the apps above the lobby add to the Play page, each in its own ``ready()`` (``core.panels``).

The games being played now, to watch, are social's; the lobby draws whatever is registered here, between the
quick start against bots and the open tables, and imports none of them.
"""

from __future__ import annotations

from core.hooks import Registry
from core.panels import Panel

#: the Play page's panels; the page's context includes ``game`` (the game filter, or None)
play_page: Registry[Panel] = Registry("lobbies.parts.play_page")

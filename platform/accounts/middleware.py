"""django-axes' middleware, kept in the request's one thread.

Axes' own middleware is async-capable. Below the platform's sync-only middleware (moderation) that makes Django
hop from the request's thread to the event loop for it and back to a thread for the view, on every request: two
thread switches and an event loop turn per page, for a middleware that only looks at the response. Declared
sync-only here, the whole chain and the view run in one thread.
"""

from __future__ import annotations

from axes.middleware import AxesMiddleware


class SyncAxesMiddleware(AxesMiddleware):
    async_capable = False
    sync_capable = True

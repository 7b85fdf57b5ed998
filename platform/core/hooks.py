"""How a lower app asks a higher one without importing it.

The apps form layers (README, "Layout"): an app imports only apps below it. When a lower app needs an answer
only a higher one has (is this player banned? have these two blocked each other?), the lower app declares a
``Hook`` with the answer it gives on its own, and the higher app plugs its implementation in its
``AppConfig.ready()``. A ``Registry`` is the same for things many apps contribute (the table page's panels).
Signals stay the bus for "something happened"; a hook is for "tell me".
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


class HookError(RuntimeError):
    """Two apps plugged different answers into one hook: a wiring mistake, found at start-up."""


class Hook(Generic[P, R]):
    """One question with one answer: ``default`` until an app plugs its own; called like the function it holds."""

    def __init__(self, name: str, default: Callable[P, R]) -> None:
        self.name = name
        self.default = default
        self._impl: Callable[P, R] | None = None

    def plug(self, impl: Callable[P, R]) -> Callable[P, R]:
        """Answer this hook with ``impl`` from now on (returns it, so it may decorate)."""
        if self._impl is not None and self._impl is not impl:
            raise HookError(f"{self.name} is already answered by {_named(self._impl)}, not {_named(impl)}")
        self._impl = impl
        return impl

    def unplug(self) -> None:
        self._impl = None

    @property
    def plugged(self) -> bool:
        return self._impl is not None

    @contextmanager
    def replaced(self, impl: Callable[P, R]) -> Iterator[None]:
        """For tests: answer with ``impl`` inside the block, then with whatever answered before."""
        before, self._impl = self._impl, impl
        try:
            yield
        finally:
            self._impl = before

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return (self._impl or self.default)(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<Hook {self.name}: {_named(self._impl or self.default)}>"


class Registry(Generic[T]):
    """Entries many apps add in their ``ready()``, read in the order they were added (``INSTALLED_APPS``)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._entries: dict[str, T] = {}

    def add(self, key: str, entry: T) -> T:
        """Add ``entry`` under ``key``; adding the same key again replaces it in place (``ready()`` may rerun)."""
        self._entries[key] = entry
        return entry

    def remove(self, key: str) -> None:
        self._entries.pop(key, None)

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._entries.values()))

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __repr__(self) -> str:
        return f"<Registry {self.name}: {', '.join(self._entries)}>"


def _named(fn: Callable[..., object]) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"

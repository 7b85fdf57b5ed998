"""The engines' modules import one way: no module of ``games`` reaches itself again through its imports.

Every import counts: at module level, inside a function and under ``TYPE_CHECKING`` (grimp reads them all,
as import-linter does for the platform's layers). A cycle is what makes a package's order unreadable and
its modules importable only in one order.
"""

from __future__ import annotations

import grimp


def cycles(package: str) -> list[list[str]]:
    graph = grimp.build_graph(package)
    found = []
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                found.append([module, *back])
    return found


def test_no_module_of_games_imports_itself_through_others() -> None:
    assert cycles("games") == []


def test_a_cycle_is_found(tmp_path, monkeypatch) -> None:
    """The check itself: two modules importing each other, one of them only for a type, are a cycle."""
    package = tmp_path / "loop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from loop.b import B\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from loop.a import A\nB = 1\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert ["loop.a", "loop.b", "loop.a"] in cycles("loop")

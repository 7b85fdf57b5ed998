"""The platform never asks which game it is, and tables never imports the apps that listen to it."""

import ast
import re

from games import GAMES
from tests.platform.helpers import ROOT

#: code about one game by definition: the Biznes season standings, the tournaments' Biznes cumulative format;
#: migrations are history
ALLOWED = {"platform/leaderboards/seasons.py", "platform/tournaments/cumulative.py"}


def sources():
    for folder in ("platform", "templates"):
        for path in sorted((ROOT / folder).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix in (".py", ".html") and "/migrations/" not in rel and rel not in ALLOWED:
                yield rel, path.read_text(encoding="utf-8")


def test_no_game_name_is_spelled_out_in_the_platform():
    name = re.compile("[\"'](" + "|".join(map(re.escape, GAMES)) + ")[\"']")
    hits = [f"{rel}:{n}" for rel, text in sources() for n, line in enumerate(text.splitlines(), 1) if name.search(line)]
    assert not hits, "the platform switches on a game's name: " + ", ".join(hits)


def test_tables_imports_neither_ratings_nor_listeners():
    listeners = {"leaderboards", "leaderboards.seasons"}
    found = []
    for path in sorted((ROOT / "platform" / "tables").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            found += [f"{path.name}: {n}" for n in names if any(n == m or n.startswith(m + ".") for m in listeners)]
    assert not found, found


def test_celery_tasks_import_services_only_inside_their_bodies():
    tree = ast.parse((ROOT / "platform" / "tables" / "tasks.py").read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all(getattr(n, "module", None) == "celery" for n in top)

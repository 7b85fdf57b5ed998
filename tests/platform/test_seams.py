"""The platform never asks which game it is, and the apps' templates keep to the import layers."""

import ast
import re
import tomllib

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


def layers() -> dict[str, int]:
    """App -> its layer in the import contract (``[tool.importlinter]``), 0 the lowest."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    (contract,) = [c for c in conf["contracts"] if c["type"] == "layers"]
    return {app.strip(): n for n, layer in enumerate(reversed(contract["layers"])) for app in layer.split("|")}


def test_every_app_is_in_the_import_contract():
    # an app left out of the contract would be free to import any other: `make lint` would not see it
    apps = {p.parent.name for p in (ROOT / "platform").glob("*/__init__.py")}
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    assert apps == set(layers()) and set(conf["root_packages"]) == apps | {"games"}


#: what a template uses of another app: its templates (include, extends) or its tag libraries (load)
TEMPLATE_USE = re.compile(r'{%\s*(?:include|extends)\s+"([\w-]+)/|{%\s*load\s+([^%]+)%}')


def test_templates_follow_the_layers_too():
    """import-linter reads Python only: an app's templates include and load only their own layer's and lower
    apps' templates and tag libraries (``templates/<app>/``, ``platform/<app>/templates/<app>/``); a page's parts
    from above come through panels (``core.panels``). The composition root's pages (``base.html``) may use any."""
    rank = layers()
    libraries = {p.stem: p.parent.parent.name for p in (ROOT / "platform").glob("*/templatetags/*.py")}
    paths = [*(ROOT / "templates").glob("*/**/*.html"), *(ROOT / "platform").glob("*/templates/*/**/*.html")]
    wrong = []
    for path in sorted(paths):
        parts = path.relative_to(ROOT).parts
        app = parts[3] if parts[0] == "platform" else parts[1]
        if app not in rank:
            continue  # admin, allauth, rules: no app's
        for included, loaded in TEMPLATE_USE.findall(path.read_text(encoding="utf-8")):
            used = [included] if included else [libraries[name] for name in loaded.split() if name in libraries]
            rel = path.relative_to(ROOT).as_posix()
            wrong += [f"{rel} uses {u}" for u in used if u in rank and u != app and rank[u] >= rank[app]]
    assert not wrong, wrong


def test_celery_tasks_import_services_only_inside_their_bodies():
    tree = ast.parse((ROOT / "platform" / "tables" / "tasks.py").read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all(getattr(n, "module", None) == "celery" for n in top)

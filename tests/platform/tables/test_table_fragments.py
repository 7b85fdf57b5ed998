"""Table page fragments as a browser reads them: what a click sends, and what the board shows.

What a click sends: htmx's WebSocket extension sends the named fields of the
clicked button's own form plus what the button's ``hx-include`` names. A Biznes
player holding a joker sees a picker "the joker becomes"; while the picker
belonged to the play form, a click on an ordinary card sent ``as`` too, and
the engine refused the card ("only a joker is named as another card").
"""

from __future__ import annotations

from html.parser import HTMLParser
from types import SimpleNamespace

from django.template.loader import render_to_string

from tables.rendering import play_controls


class Fields(HTMLParser):
    """Named fields by the form that owns them (the ``form`` attribute, else the enclosing form), and the buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[str] = []
        self.owned: dict[str, list[str]] = {}
        self.by_id: dict[str, dict[str, str]] = {}
        self.buttons: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "id" in a:
            self.by_id[a["id"]] = {"tag": tag, **a}
        if tag == "form":
            self.forms.append(a.get("id") or a.get("class", "form"))
            self.owned.setdefault(self.forms[-1], [])
            return
        if tag == "button":
            self.buttons.append({**a, "owner": a.get("form") or (self.forms[-1] if self.forms else "")})
        elif tag in ("input", "select", "textarea") and a.get("name"):
            owner = a.get("form") or (self.forms[-1] if self.forms else "")
            self.owned.setdefault(owner, []).append(a["name"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.forms:
            self.forms.pop()


def play_fragment(hand: list[str], legal: list[dict]) -> Fields:
    view = {"hand": hand, "phase": "play", "over": False}
    html = render_to_string(
        "tables/_play.html",
        {
            "game": SimpleNamespace(pk=1),
            "seat": 0,
            "view": view,
            "legal": legal,
            "controls": play_controls("biznes", legal, view),
            "table": SimpleNamespace(game="biznes", private=False),
            "players": [],
            "my_turn": True,
            "move_number": 7,
        },
    )
    parser = Fields()
    parser.feed(html)
    return parser


def test_a_card_click_does_not_send_the_jokers_pickers():
    # void in the suit led: the club and both jokers may be played, each joker as several cards
    legal = [
        {"type": "play", "card": "8C"},
        {"type": "play", "card": "X1", "as": "AH"},
        {"type": "play", "card": "X1", "as": "KS"},
        {"type": "play", "card": "X2", "as": "AH"},
    ]
    page = play_fragment(["8C", "X1", "X2"], legal)
    quick = next(b for b in page.buttons if "quick" in b.get("class", ""))
    assert '"8C"' in quick["value"]
    # the card's click sends its form's fields: the move number, never a joker's "as"
    sent = page.owned[quick["owner"]]
    assert "move" in sent and "as" not in sent, sent
    # each joker's button sends exactly its own picker
    for card in ("X1", "X2"):
        button = next(b for b in page.buttons if f'"{card}"' in b.get("value", "") and "act" in b.get("class", ""))
        assert "as" not in page.owned[button["owner"]]
        include = button.get("hx-include", "")
        assert include.startswith("#"), button
        picker = page.by_id[include[1:]]
        assert picker["tag"] == "select" and picker["name"] == "as"
        # a picker's form attribute names a form that is on the page (else the browser drops the tie)
        assert picker.get("form") in page.by_id and page.by_id[picker["form"]]["tag"] == "form"


def test_a_partly_open_widow_shows_its_face_down_cards_too():
    # 54 cards for four: a widow of two, one dealt face up; before the bidding ends the other stays closed
    view = {"widow_size": 2, "widow": ["KS"], "phase": "bidding", "tricks_per_deal": 13, "bids": [], "trick": []}
    html = render_to_string("tables/boards/biznes.html", {"view": view, "players": []})
    widow = html[html.index('class="widow"') :]
    widow = widow[: widow.index("</div>")]
    assert widow.count('data-card="KS"') == 1
    assert widow.count('class="back"') == 1 and "1 face down" in widow
    # once shown, the whole widow is face up
    view["widow"] = ["KS", "9H"]
    html = render_to_string("tables/boards/biznes.html", {"view": view, "players": []})
    assert 'data-card="9H"' in html and "face down" not in html

"""The table page's play form as a player's browser holds it, and the frame htmx-ext-ws sends for a click.

htmx sends, for a ``ws-send`` button: every field of the button's form (ticked
checkboxes, each select's chosen option, hidden inputs; several values of one
name become a list), the button's own name and value, and the fields its
``hx-include`` names (``htmx.getInputValues``), plus a ``HEADERS`` object.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

PLAY = re.compile(r'<section id="table-play".*?</section>', re.S)
STATUS_MOVE = re.compile(r'<div id="table-status"[^>]*\sdata-move="(\d+)"')
ERROR = re.compile(r'<div id="table-error"[^>]*>(.*?)</div>', re.S)


@dataclass
class Control:
    tag: str
    attrs: dict[str, str]
    form: str | None
    options: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.attrs.get("name", "")


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[str] = []
        self.controls: list[Control] = []
        self._select: Control | None = None
        self._anonymous = 0

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: v if v is not None else "" for k, v in attrs_list}
        if tag == "form":
            self._anonymous += 1
            self.forms.append(attrs.get("id") or f"form-{self._anonymous}")
            return
        if tag in ("input", "select", "button"):
            owner = attrs.get("form") or (self.forms[-1] if self.forms else None)
            control = Control(tag, attrs, owner)
            self.controls.append(control)
            if tag == "select":
                self._select = control
        elif tag == "option" and self._select is not None:
            self._select.options.append(attrs.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form" and self.forms:
            self.forms.pop()
        elif tag == "select":
            self._select = None


@dataclass
class PlayForm:
    """The controls of one play box: what a player may tick, choose and click."""

    controls: list[Control]

    @classmethod
    def read(cls, play_html: str) -> PlayForm:
        reader = _Reader()
        reader.feed(play_html)
        return cls(reader.controls)

    @property
    def boxes(self) -> list[Control]:
        return [c for c in self.controls if c.tag == "input" and c.attrs.get("type") == "checkbox"]

    @property
    def buttons(self) -> list[Control]:
        return [c for c in self.controls if c.tag == "button" and "ws-send" in c.attrs]

    def frame(self, button: Control, ticked: set[str], chosen: dict[str, str], url: str) -> dict[str, Any]:
        """What htmx-ext-ws sends when ``button`` is clicked with ``ticked`` boxes and ``chosen`` options."""
        values: dict[str, list[str]] = {}

        def add(control: Control) -> None:
            kind = control.attrs.get("type")
            if control.tag == "button" or kind in ("button", "submit") or not control.name:
                return
            if control.tag == "select":
                value = chosen.get(control.attrs.get("id") or control.name)
                if value is None:
                    value = control.options[0] if control.options else ""
            elif kind == "checkbox":
                if control.attrs.get("value") not in ticked:
                    return
                value = control.attrs.get("value", "on")
            else:
                value = control.attrs.get("value", "")
            values.setdefault(control.name, []).append(value)

        for control in self.controls:
            if button.form is not None and control.form == button.form:
                add(control)
        if button.name:
            values[button.name] = [button.attrs.get("value", "")]
        for target in filter(None, button.attrs.get("hx-include", "").split(",")):
            target = target.strip()
            for control in self.controls:
                if target.startswith("#") and control.attrs.get("id") == target[1:]:
                    add(control)
        frame: dict[str, Any] = {k: v[0] if len(v) == 1 else v for k, v in values.items()}
        frame["HEADERS"] = {
            "HX-Request": "true",
            "HX-Trigger": button.attrs.get("id"),
            "HX-Trigger-Name": button.name or None,
            "HX-Target": None,
            "HX-Current-URL": url,
        }
        return frame

    def random_choices(self, rng: random.Random) -> dict[str, str]:
        """A random option for every select, as a player who picked any of them."""
        return {
            c.attrs.get("id") or c.name: rng.choice(c.options) for c in self.controls if c.tag == "select" and c.options
        }


def action_of(button: Control) -> dict[str, Any]:
    return json.loads(button.attrs.get("value") or "{}")

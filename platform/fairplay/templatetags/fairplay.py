"""The fair-play words as template filters (``fairplay.words``): ``kind|kind_label``, ``pair|evidence``, ``t|ago``."""

from __future__ import annotations

from django import template

from fairplay import words

register = template.Library()
register.filter("kind_label", words.kind_label)
register.filter("evidence", words.evidence)
register.filter("ago", words.ago)

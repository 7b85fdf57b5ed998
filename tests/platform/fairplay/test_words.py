# ruff: noqa: RUF001 (the Russian and Ukrainian words the moderator reads)
"""A moderator reads a pair's evidence in his language: the games' situations and the summary are translated
(``fairplay_scan`` keeps its English line)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone, translation

from fairplay.pairs import KindStat, PairScore
from fairplay.words import ago, evidence, kind_label


def pair(**fields) -> PairScore:
    kinds = [KindStat("throw_in", chances=40, spared=36, expected=12.5, llr=20.0)]
    base = dict(
        a=1,
        b=2,
        a_name="a",
        b_name="b",
        games=23,
        game_ids=[],
        score=9.0,
        flagged=True,
        reports=2,
        together_ratio=3.4,
        kinds=kinds,
    )
    return PairScore(**{**base, **fields})  # type: ignore[arg-type]


def test_the_evidence_reads_in_russian_and_ukrainian():
    with translation.override("ru"):
        assert kind_label("throw_in") == "Мог подкинуть ему"
        line = evidence(pair())
        assert line.startswith("23 игры вместе (в 3.4 раза чаще случайного)")
        assert "Мог подкинуть ему: щадили друг друга 36 раз из 40 (ожидалось 12.5)" in line
        assert line.endswith("2 жалобы на нечестную игру")
    with translation.override("uk"):
        assert "Міг підкинути йому" in evidence(pair())
    with translation.override("en"):
        assert (
            evidence(pair(kinds=[], reports=0))
            == "23 games together (3.4 times chance); no more sparing than with others"
        )
        assert kind_label("unheard_of") == "unheard_of"


def test_a_scan_made_seconds_ago_was_made_just_now_in_every_language():
    now = timezone.now()
    said = {}
    for language in ("en", "ru", "uk"):
        with translation.override(language):
            said[language] = [ago(now - timedelta(seconds=s), now) for s in (0, 59, 60, 5 * 60, 3 * 3600, 3 * 86400)]
    assert said["en"] == ["just now", "just now", "1 minute ago", "5 minutes ago", "3 hours ago", "3 days ago"]
    assert said["ru"][:4] == ["только что", "только что", "1 минуту назад", "5 минут назад"]
    assert said["uk"][:4] == ["щойно", "щойно", "1 хвилину тому", "5 хвилин тому"]
    assert ago(now + timedelta(seconds=5), now) == "just now"  # a clock a little ahead is no future

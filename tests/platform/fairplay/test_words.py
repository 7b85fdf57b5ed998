# ruff: noqa: RUF001 (the Russian and Ukrainian words the moderator reads)
"""A moderator reads a pair's evidence in his language: the games' situations and the summary are translated
(``fairplay_scan`` keeps its English line)."""

from __future__ import annotations

from django.utils import translation

from fairplay.pairs import KindStat, PairScore
from fairplay.words import evidence, kind_label


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

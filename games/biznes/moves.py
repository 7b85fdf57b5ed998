"""Legal actions and turn-timeout moves of a Biznes deal (see ``state.py``).

``legal_actions`` lists every legal action, nothing representative: every
bid, every discard combination (at most C(14, 4) = 1001, 54 cards and five
players) and every joker naming (up to 52 per joker, B9).
"""

from __future__ import annotations

from itertools import combinations

from games.base import Action
from games.biznes.position import BiznesPosition
from games.biznes.rules import ORDINARY, can_lead_joker
from games.cards import JOKER_SET, RANK_VALUE, SUIT_OF, SUITS
from games.errors import IllegalAction

#: what a declarer leading a joker may name: every ordinary card but trumps (B9)
NON_TRUMP: dict[str | None, tuple[str, ...]] = {t: tuple(c for c in ORDINARY if c[1] != t) for t in SUITS}
ROLE_CHOICES = ("thief", "mafia", "policeman", "banker")


def legal_actions(st: BiznesPosition, seat: int) -> list[Action]:
    if seat != st.turn:
        return []
    phase = st.phase
    if phase == "play":
        return legal_plays(st, seat)
    if phase == "bidding":
        # B1: pass, the same number of tricks in a suit not yet named at it, or more tricks
        out: list[Action] = [{"type": "pass"}]
        if st.level:
            out += [{"type": "bid", "tricks": st.level, "suit": s} for s in SUITS if s not in st.level_suits]
        higher = range(st.level + 1, st.n_tricks + 1)
        return out + [{"type": "bid", "tricks": t, "suit": s} for t in higher for s in SUITS]
    if phase == "discard":
        hand = sorted(st.hands[seat], key=low)
        return [{"type": "discard", "cards": list(c)} for c in combinations(hand, st.widow_n)]
    if phase == "declare":
        return [{"type": "declare", "banker": False}, {"type": "declare", "banker": True}]
    if phase == "roles":
        return [{"type": "role", "role": r} for r in ROLE_CHOICES if role_open(st, r)]
    if phase == "change":
        return [{"type": "trump", "suit": s} for s in SUITS if s != st.trump]
    return []


def legal_plays(st: BiznesPosition, seat: int) -> list[Action]:
    hand = st.hands[seat]
    out: list[Action] = []
    if not st.trick:
        declarer = seat == st.declarer
        trump = st.trump
        joker_ok = can_lead_joker(hand)
        for c in hand:
            if c in JOKER_SET:
                if joker_ok:  # B9: the declarer may not name a trump when leading
                    names = NON_TRUMP[trump] if declarer else ORDINARY
                    out += [{"type": "play", "card": c, "as": a} for a in names]
            elif not declarer or SUIT_OF[c] != trump:  # B5: the declarer never leads a trump
                out.append({"type": "play", "card": c})
        if declarer and st.tricks_played and not st.change_used:
            out.append({"type": "change"})  # B6
        return out
    led = SUIT_OF[st.trick[0][2]]
    follow = [c for c in hand if SUIT_OF[c] == led]
    if follow:  # B5: follow suit (an ordinary card; B9: then no joker)
        return [{"type": "play", "card": c} for c in follow]
    for c in hand:
        if c in JOKER_SET:
            out += [{"type": "play", "card": c, "as": a} for a in ORDINARY]
        else:
            out.append({"type": "play", "card": c})
    return out


def role_open(st: BiznesPosition, role: str) -> bool:
    if role == "banker":
        return bool(st.asked_banker) and st.banker is None
    if role == "policeman":
        return "policeman" not in st.roles
    return True


def default_action(st: BiznesPosition, seat: int) -> Action:
    legal = st.legal_actions(seat)
    if not legal:
        raise IllegalAction(f"seat {seat} is not to act")
    if st.phase == "bidding":
        return {"type": "pass"}
    if st.phase == "discard":
        return {"type": "discard", "cards": sorted(st.hands[seat], key=low)[: st.widow_n]}
    if st.phase == "declare":
        return {"type": "declare", "banker": False}
    if st.phase == "roles":
        return {"type": "role", "role": "thief"}
    if st.phase == "change":
        counts = {s: sum(1 for c in st.hands[seat] if c[1] == s) for s in SUITS if s != st.trump}
        return {"type": "trump", "suit": max(counts, key=lambda s: (counts[s], -SUITS.index(s)))}
    plays = [a for a in legal if a["type"] == "play"]
    if not plays:
        return legal[0]  # B7: the change is forced
    return min(plays, key=lambda a: (RANK_VALUE[a["card"]], low(a["as"] if "as" in a else a["card"])))


def low(card: str) -> tuple[int, int]:
    """Lowest first: by rank, then suit order; jokers last."""
    return RANK_VALUE[card], SUITS.find(SUIT_OF[card])

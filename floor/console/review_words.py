"""A round's review in the reader's language: each event's name and what it says, the engines' words (actions,
payment reasons, the house way's rule, flags) worded anew from their phrases through the one catalogue the kiosk
reads too (``journal.phrase_words``), and free text (a supervisor's note) as it was typed."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, CardError, CardsText, parse_cards
from engine.phrases import TEMPLATES, Phrase, people_numbers
from floor.console import i18n
from journal import review as journal_review
from journal.events import PaymentLine
from journal.phrase_words import PHRASES
from journal.store import Entry
from journal.words import LOGS, seat_number, void_words, zone_words


def phrase(language: str, text: object) -> str:
    """An engine's or the journal's text in ``language``: a phrase is worded anew (its values too, seats as the
    table numbers them, cards with their suits); plain text as it is."""
    if not isinstance(text, Phrase):
        return text.pretty if isinstance(text, (Card, CardsText)) else str(text)
    template = PHRASES.get(language, {}).get(text.key) or TEMPLATES.get(text.key)
    if template is None:
        return str(text)
    params = people_numbers(text.key, text.params)
    return template.format(**{name: _value(language, value) for name, value in params.items()})


def _value(language: str, value: object) -> object:
    if isinstance(value, (Phrase, Card, CardsText)):
        return phrase(language, value)
    return value


def cards(codes: Sequence[object]) -> str:
    """Card codes as every screen shows cards (K♦ 7♦); codes that are not cards as they are."""
    try:
        return " ".join(card.pretty for card in parse_cards([str(code) for code in codes], allow_duplicates=True))
    except CardError:
        return " ".join(map(str, codes))


class ReviewWords:
    """The words of one round's review page in one language."""

    def __init__(self, language: str, detail: journal_review.RoundDetail) -> None:
        self.language, self.detail, self.game = language, detail, detail.summary.game
        self.by_seq = {entry.seq: entry for entry in detail.entries}

    def t(self, key: str, **params: Any) -> str:
        return i18n.text(self.language, key, **params)

    def phrase(self, text: object) -> str:
        return phrase(self.language, text)

    def why(self, reason: object) -> str:
        """A reason the kiosk records in fixed words (a correction on the picker, a shaker's fault code) in the
        language; any other reason as it was written."""
        text = str(reason or "")
        return i18n.word(self.language, "why.", text if " " in text else text.lower())

    def kind(self, entry: Entry) -> str:
        return i18n.word(self.language, "event.", entry.kind)

    def party(self, party: object) -> str:
        name = str(party)
        if name.isdigit():
            return self.t("review.seat", seat=seat_number(name, self.game))
        return self.t("review.house") if name == "house" else name

    def zone(self, zone: str) -> str:
        """A camera zone: a seat's or the house's place, a seat's high or low hand, the centre, the pile."""
        seat = re.fullmatch(r"seat ?(\d+)", zone)
        if seat is not None:
            return self.party(seat.group(1))
        return self.t("review.house") if zone == "house" else self.phrase(zone_words(zone))

    def who(self, name: object) -> str:
        """Who did something: the dealer in words, a person's name as it is."""
        return self.phrase(LOGS["who.dealer"]()) if name == "dealer" else str(name)

    def nets(self, nets: Mapping[str, int]) -> str:
        moved = [f"{self.party(party)} {'+' if amount > 0 else ''}{amount}" for party, amount in nets.items()
                 if amount]
        return ", ".join(moved) or self.t("review.all_even")

    def void_reason(self) -> str:
        return self.phrase(void_words(self.detail.summary.void_reason or ""))

    def reason(self, payment: PaymentLine) -> str:
        """A payment's reason: the replay's phrase for the same payment when the recorded text is the engine's."""
        for replayed in self.detail.replayed.payments:
            if (str(replayed.payer), str(replayed.payee), replayed.amount, str(replayed.reason)) == \
                    (str(payment.payer), str(payment.payee), payment.amount, str(payment.reason)):
                return self.phrase(replayed.reason)
        return self.phrase(payment.reason)

    def describe_seq(self, seq: int) -> str:
        entry = self.by_seq.get(seq)
        return self.describe(entry) if entry is not None else ""

    def describe(self, entry: Entry) -> str:
        p = entry.payload
        replayed = self.detail.replayed.descriptions
        match entry.kind:
            case "action_recorded":
                index = p.get("index")
                if isinstance(index, int) and 0 <= index < len(replayed):
                    return self.phrase(replayed[index])
                return str(p.get("description") or "")
            case "round_begun":
                game = i18n.word(self.language, "game.", str(p.get("game")))
                return f"{game} · {self.t('rounds.dealer')} {p['dealer']}" if p.get("dealer") else game
            case "dice_rolled":
                return " ".join(map(str, p.get("dice", [])))
            case "dice_reshaken":
                return self.why(p.get("reason"))
            case "cards_read":
                return f"{self.zone(str(p.get('zone')))}: {cards(p.get('cards', []))}"
            case "cards_misread":
                return f"{self.zone(str(p.get('zone')))}: {cards(p.get('cards', []))} · {p.get('reason')}"
            case "cards_corrected":
                return self.t("event.corrected", zone=self.zone(str(p.get("zone"))),
                              before=cards(p.get("before", [])) or "—", after=cards(p.get("after", [])) or "—",
                              by=self.who(p.get("by"))) + (f" ({self.why(p['reason'])})" if p.get("reason") else "")
            case "house_split_shown":
                return self.t("event.house_way", high=cards(p.get("high", [])), low=cards(p.get("low", [])),
                              rule=self._house_rule(p))
            case "results_shown":
                return self.nets(p.get("nets") or {})
            case "round_settled":
                return self.t("event.paid", by=self.who(p.get("confirmed_by")), nets=self.nets(p.get("nets") or {}))
            case "round_voided":
                return self.t("review.voided", by=p.get("by"), reason=self.phrase(void_words(str(p.get("reason")))))
            case "round_resumed":
                return self.t("event.resumed", actions=p.get("actions"), by=p.get("by"))
            case "note":
                return f"{self.who(p.get('by'))}: {p.get('text')}"
            case "supervisor_signed_in" | "supervisor_signed_out":
                return str(p.get("supervisor") or p.get("name") or p.get("by") or "")
            case "dealer_signed_in" | "dealer_signed_out" | "dealer_sign_in_failed":
                return str(p.get("dealer") or "")
            case "device_up" | "device_down":
                return f"{p.get('device')}: {p.get('port') or p.get('reason') or ''}"
        return " · ".join(f"{name}: {value}" for name, value in sorted(p.items()))

    def _house_rule(self, payload: Mapping[str, Any]) -> str:
        """The house way's rule in words: worked out again from the four cards (the engine's phrase) when that is
        the rule the kiosk showed; else as journaled."""
        from engine.baibuu import house_way

        shown = str(payload.get("rule") or "")
        try:
            split = house_way(parse_cards([*payload.get("high", []), *payload.get("low", [])]))
        except (CardError, ValueError, TypeError):
            return shown
        return self.phrase(split.rule) if str(split.rule) == shown else shown

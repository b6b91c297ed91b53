"""What the fold charged for an event, as its sentence tells it: the Coins, Fame and Time Units the rules took, not
the figures typed.

A sentence reads the state its event was folded in; the charge is what folding the event there changes: the
ledger's new entries into a rules sink, and each Record Sheet's Fame and Time Units. The event is folded as an
override would fold it, so that a sentence of an event logged against a rule still says what it cost.
"""

from __future__ import annotations

from msgspec import Struct

from quartermaster.events import skull_tales as ev
from quartermaster.events.base import Event
from quartermaster.projections.game import Meta, Rejection, overriding
from quartermaster.projections.sentences import Sentence
from quartermaster.projections.skull_tales.fold import apply
from quartermaster.projections.skull_tales.options import active
from quartermaster.projections.skull_tales.state import SkullTales
from quartermaster.projections.skull_tales.words import count


class Charge(Struct, frozen=True, kw_only=True):
    """Coins paid into a rules sink, by whom ("pirate:jack", "crew_booty"); Fame and Time Units spent, by Pirate."""

    coins: int = 0
    payers: tuple[str, ...] = ()
    fame: dict[str, int] = {}
    time_units: dict[str, int] = {}
    gained: dict[str, int] = {}  # Coins that came in from a rules source (a Salary, a sale), by account
    # Every other movement of Coins the fold made, in its order: (from, to, amount, reason) as the ledger names them.
    moved: tuple[tuple[str, str, int, str], ...] = ()


def charged(state: SkullTales | None, event: Event) -> Charge | None:
    """What folding the event in `state` charged, or None when it cannot be folded there."""
    if state is None:
        return None
    try:
        with overriding("told as folded"):
            after = apply(state, event, Meta(position=state.position))
    except Rejection:
        return None
    new = after.ledger[len(state.ledger) :]
    paid = [e for e in new if e.to.startswith("sink:") and not e.source.startswith("source:")]
    fame = {
        pid: p.fame - after.pirates[pid].fame
        for pid, p in state.pirates.items()
        if pid in after.pirates and p.fame > after.pirates[pid].fame
    }
    units = {
        pid: p.time_units - after.pirates[pid].time_units
        for pid, p in state.pirates.items()
        if pid in after.pirates and p.time_units > after.pirates[pid].time_units
    }
    return Charge(
        coins=sum(e.amount for e in paid),
        payers=tuple(dict.fromkeys(e.source for e in paid)),
        fame=fame,
        time_units=units,
        gained=_by_account([(e.to, e.amount) for e in new if e.source.startswith("source:")]),
        moved=tuple((e.source, e.to, e.amount, e.reason) for e in new if not e.source.startswith("source:")),
    )


def _by_account(amounts: list[tuple[str, int]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for account, amount in amounts:
        total[account] = total.get(account, 0) + amount
    return total


MANOR_ENTRY = "enter Madame Claude's Manor"  # the ledger's reason for the Manor's fee (booty.enter_manor)


def manor_fee_paid(charge: Charge) -> int:
    """The Manor's entry fee among the Coins charged: a service had inside took the Pirate in."""
    return sum(amount for _, to, amount, reason in charge.moved if to.startswith("sink:") and reason == MANOR_ENTRY)


def from_crew(charge: Charge) -> str:
    """ " from the Crew's Booty" when that is what paid."""
    return " from the Crew's Booty" if charge.payers == ("crew_booty",) else ""


def price_words(charge: Charge, pirate_id: str) -> str:
    """ "7 Coins", "2 Coins and 1 Time Unit", "15 Coins, 1 Time Unit and 10 Fame": what the Pirate was charged, the
    Manor's entry fee left to be told on its own."""
    coins = charge.coins - manor_fee_paid(charge)
    parts = [count(coins, "Coin")] if coins else []
    if charge.time_units.get(pirate_id):
        parts.append(count(charge.time_units[pirate_id], "Time Unit"))
    if charge.fame.get(pirate_id):
        parts.append(f"{charge.fame[pirate_id]} Fame")
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def manor_free(state: SkullTales, pirate_id: str) -> str:
    """Why the Manor let a Pirate in free (Book II: Locations, Madame Claude's Manor; Feats; Appendix II)."""
    if state.captain == pirate_id:
        return "the Captain enters free"
    if "Fame" in state.pirates[pirate_id].feats:
        return "the Fame Feat"
    if active(state.options, "cabin_boy.port.manor_free"):
        return "the Cabin Boy setting"
    return "free"


# The services had inside the Manor: each takes the Pirate in, so its sentence tells the entry fee it charged.
MANOR_SERVICES = (ev.PortServiceBought, ev.LoanTaken, ev.LoanRepaid, ev.SkillLearned, ev.RumorsHeard)


def entering_the_manor(render: Sentence) -> Sentence:
    """A Manor service's sentence, saying the entry fee it charged when it took the Pirate in."""

    def told(state: SkullTales, event: Event) -> str:
        sentence = render(state, event)
        charge = charged(state, event)
        fee = manor_fee_paid(charge) if charge is not None else 0
        if not fee or not sentence.endswith("."):
            return sentence
        return f"{sentence[:-1]}; entering the Manor cost {count(fee, 'Coin')}."

    return told

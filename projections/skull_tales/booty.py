"""Coins: every Personal Booty, the Crew's Booty, buried booty, loans and salaries, and the ledger of each movement.

Every change of a Coin balance goes through `move`, which writes a ledger entry naming where the Coins came from
and where they went. Coins enter only from a rules source (`source:salary`, `source:trade`...) and leave only to a
rules sink (`sink:skill`, `sink:mutiny_bid`...); the property tests hold the fold to that.
"""

from __future__ import annotations

import math

import msgspec

from quartermaster.events.skull_tales import (
    BootyBuried,
    BootyRecovered,
    CoinsChanged,
    CoinsGiven,
    LoanRepaid,
    LoanTaken,
    SalaryCollected,
)
from quartermaster.projections.game import Rejection, broken
from quartermaster.projections.skull_tales import penance
from quartermaster.projections.skull_tales.options import active
from quartermaster.projections.skull_tales.words import count
from quartermaster.projections.skull_tales.state import (
    Debt,
    Entry,
    Loan,
    Pirate,
    SkullTales,
    active_pirate,
    change,
    pirate,
    put,
    has_skill,
    in_play,
    require_ashore,
    require_phase,
    skill_effect,
)

# Where Coins may come from and go to when a player logs them with `coins.changed` (the fold's own rules use
# their own names: salary, skill, feat, upgrade...).
FOUND = frozenset(
    {"search_card", "goal", "fallen_enemy", "event", "rumor", "assignment", "gambling", "card_game", "island"}
)
SPENT = frozenset(
    {
        "gear",
        "rum_and_brew",
        "black_market",
        "event",
        "rumor",
        "gambling",
        "card_game",
        "storytelling",
        "magic",
        "bribe",
        "penalty",
        "surrender",
    }
)

# Coins spent on Gear at the Market Square, as `coins.changed` may log a purchase.
BOUGHT = frozenset({"gear", "rum_and_brew", "black_market"})

# Coins a Pirate takes by acting in the Adventure, as a sentence names where they came from.
ACTED_FOR = {"search_card": "Search card", "fallen_enemy": "Fallen Enemy token"}

CAPTAIN_SALARY = 50  # Book II: Locations, Docks
CREW_SALARY = 100
LOAN_LIMIT = 50


def balance(state: SkullTales, account: str) -> int:
    kind, _, rest = account.partition(":")
    if kind == "pirate":
        return state.pirates[rest].coins
    if kind == "risk":
        return state.pirates[rest].phase_coins
    if kind == "ally":
        return state.allies[rest].coins
    if kind == "buried":
        burier, _, island = rest.partition(":")
        return state.buried.get(burier, {}).get(island, 0)
    if account == "crew_booty":
        return state.crew_booty
    raise ValueError(f"not an account: {account}")


def _set(state: SkullTales, account: str, value: int) -> SkullTales:
    kind, _, rest = account.partition(":")
    if kind == "pirate":
        return put(state, change(state.pirates[rest], coins=value))
    if kind == "risk":
        return put(state, change(state.pirates[rest], phase_coins=value))
    if kind == "ally":
        ally = msgspec.structs.replace(state.allies[rest], coins=value)
        return msgspec.structs.replace(state, allies={**state.allies, rest: ally})
    if kind == "buried":
        burier, _, island = rest.partition(":")
        islands = {**state.buried.get(burier, {}), island: value}
        if value == 0:
            del islands[island]
        buried = {**state.buried, burier: islands}
        if not islands:
            del buried[burier]
        return msgspec.structs.replace(state, buried=buried)
    if account == "crew_booty":
        return msgspec.structs.replace(state, crew_booty=value)
    raise ValueError(f"not an account: {account}")


def external(account: str) -> bool:
    return account.startswith(("source:", "sink:"))


def holder(state: SkullTales, account: str) -> str:
    """Who holds an account, for sentences."""
    kind, _, rest = account.partition(":")
    if kind in ("pirate", "risk"):
        return state.pirates[rest].name
    if kind == "ally":
        return f"the Ally {rest}"
    if kind == "buried":
        burier, _, island = rest.partition(":")
        return f"the booty {state.pirates[burier].name} buried on island {island}"
    return "the Crew's Booty"


def move(state: SkullTales, source: str, to: str, amount: int, reason: str) -> SkullTales:
    """Move Coins between accounts, sources and sinks, writing the ledger entry."""
    if amount < 0:
        raise ValueError("amounts are positive; swap source and destination")
    if amount == 0:
        return state
    if not external(source):
        have = balance(state, source)
        if have < amount:
            raise Rejection(
                f"{holder(state, source)} cannot pay {count(amount, 'Coin')} for {reason}: only {have} "
                f"{'is' if have == 1 else 'are'} there."
            )
        state = _set(state, source, have - amount)
    if not external(to):
        state = _set(state, to, balance(state, to) + amount)
    entry = Entry(position=state.position, source=source, to=to, amount=amount, reason=reason)
    return msgspec.structs.replace(state, ledger=[*state.ledger, entry])


def pay(state: SkullTales, account: str, amount: int, doing: str, sink: str, who: str) -> SkullTales:
    """`who` pays a price from an account, or a Rejection saying what it costs and what there is."""
    have = balance(state, account)
    if have < amount:
        where = "" if account.startswith("pirate:") else f" in {holder(state, account)}"
        verb = "is" if have == 1 else "are"
        raise Rejection(f"{who} cannot {doing}: it costs {count(amount, 'Coin')} and there {verb} {have}{where}.")
    return move(state, account, f"sink:{sink}", amount, doing)


def spend_fame(state: SkullTales, pirate_id: str, amount: int, doing: str) -> SkullTales:
    """Take Fame from the Record Sheet for a price, or a Rejection."""
    p = state.pirates[pirate_id]
    if p.fame < amount:
        raise Rejection(f"{p.name} cannot {doing}: it costs {amount} Fame and {p.name} has {p.fame}.")
    return put(state, change(p, fame=p.fame - amount))


def at_risk(state: SkullTales) -> bool:
    """Coins found now wait on the Fame Dial's side of the table until the Adventure ends (Book I: Adventure Phase, Adventure Phase Setup)."""
    return state.phase == "adventure"


def gain_coins(state: SkullTales, pirate_id: str, amount: int, source: str, reason: str) -> SkullTales:
    account = f"risk:{pirate_id}" if at_risk(state) else f"pirate:{pirate_id}"
    return move(state, f"source:{source}", account, amount, reason)


def lose_coins(state: SkullTales, pirate_id: str, amount: int, sink: str, reason: str) -> SkullTales:
    """A penalty: from the at-risk Coins first, then the Record Sheet; clamped at 0 or refused per option."""
    p = state.pirates[pirate_id]
    held = p.phase_coins + p.coins
    if held < amount and state.options.penalty_floor == "reject":
        broken(f"{p.name} cannot lose {count(amount, 'Coin')} for {reason}: {p.name} has {held}.")
    from_risk = min(p.phase_coins, amount)
    state = move(state, f"risk:{pirate_id}", f"sink:{sink}", from_risk, reason)
    rest = min(p.coins, amount - from_risk)
    return move(state, f"pirate:{pirate_id}", f"sink:{sink}", rest, reason)


def owe(state: SkullTales, payer: str, to: str, amount: int, reason: str) -> SkullTales:
    """Pay what can be paid now and note the rest against the next Salary (Book II: Port Phase, Setup)."""
    p = state.pirates[payer]
    now = min(p.coins, amount)
    state = move(state, f"pirate:{payer}", to, now, reason)
    if amount > now:
        p = state.pirates[payer]
        state = put(state, change(p, debts=[*p.debts, Debt(to=to, amount=amount - now, reason=reason)]))
    return state


def coins_changed(state: SkullTales, event: CoinsChanged) -> SkullTales:
    if event.amount == 0:
        raise Rejection("A change of 0 Coins changes nothing; leave it out.")
    if event.ally_id is not None:
        ally = state.allies.get(event.ally_id)
        if ally is None or ally.status != "hired":
            raise Rejection(f"There is no hired Ally {event.ally_id!r} to take those Coins.")
        require_phase(state, "adventure", "An Ally finding Coins")
        if state.adventure_allies is not None and ally.id not in state.adventure_allies:
            raise Rejection(f"The {ally.archetype} stayed aboard and is not in this Adventure.")
        if event.amount < 0:
            raise Rejection("An Ally's Coins are only found, then shared at the end of the Adventure.")
        if event.source not in FOUND:
            raise Rejection(f"Coins cannot come from {event.source!r}; they come from {', '.join(sorted(FOUND))}.")
        return move(state, f"source:{event.source}", f"ally:{event.ally_id}", event.amount, event.source)
    if event.pirate_id is None:
        raise Rejection("Coins change for a pirate or an Ally: name one.")
    p = active_pirate(state, event.pirate_id)
    if event.amount > 0:
        if event.source not in FOUND:
            raise Rejection(
                f"{p.name} cannot gain Coins from {event.source!r}; Coins come from {', '.join(sorted(FOUND))}."
            )
        if p.status == "unconscious" and state.phase == "adventure" and event.source in ACTED_FOR:
            # "An Unconscious Character does not play their turn" (Book I: Character and Enemy States, Unconscious):
            # no Search, no Fallen Enemy token picked up, until revived.
            broken(f"{p.name} is Unconscious and cannot take Coins from a {ACTED_FOR[event.source]} until revived.")
        state = penance.check(state, p, event.source, f"took {count(event.amount, 'Coin')} from a Fallen Enemy token")
        return gain_coins(state, p.id, event.amount, event.source, event.source)
    if event.source not in SPENT:
        raise Rejection(f"{p.name} cannot lose Coins to {event.source!r}; Coins go to {', '.join(sorted(SPENT))}.")
    if event.source in ("penalty", "surrender"):
        return lose_coins(state, p.id, -event.amount, event.source, event.source)
    if event.source in BOUGHT:
        # A purchase logged as the Coins it cost: the Market loan taken for it is held to it, as for `item.gained`.
        state = loan_spent(state, "market", -event.amount, p.id)
    return pay(
        state,
        f"pirate:{p.id}",
        -event.amount,
        f"spend {count(-event.amount, 'Coin')} on {event.source}",
        event.source,
        p.name,
    )


def coins_given(state: SkullTales, event: CoinsGiven) -> SkullTales:
    giver = active_pirate(state, event.from_pirate)
    if event.amount <= 0:
        raise Rejection(f"{giver.name} can only give a positive number of Coins, not {event.amount}.")
    if event.to == "crew_booty":
        to, whom = "crew_booty", "the Crew's Booty"
    else:
        taker = active_pirate(state, event.to)
        if taker.id == giver.id:
            raise Rejection(f"{giver.name} cannot give Coins to themselves.")
        to, whom = f"pirate:{taker.id}", taker.name
    if giver.coins < event.amount:
        raise Rejection(
            f"{giver.name} cannot give {count(event.amount, 'Coin')} to {whom}: {giver.name} has {giver.coins}."
        )
    return move(state, f"pirate:{giver.id}", to, event.amount, "given")


def salary(state: SkullTales, pirate_id: str) -> tuple[int, int]:
    """What collecting Salary pays now: (to the Pirate, to the Crew's Booty)."""
    p = state.pirates[pirate_id]
    admiral = active(state.options, "admiral.port.salary_reduced")
    if state.captain == pirate_id:
        return (CAPTAIN_SALARY - (10 if admiral else 0), CREW_SALARY - (20 if admiral else 0))
    amount = p.salary + skill_effect(p, "salary")
    if active(state.options, "cabin_boy.port.salary_plus_5"):
        amount += 5
    if admiral:
        amount -= 5
    return (max(amount, 0), 0)


def salary_collected(state: SkullTales, event: SalaryCollected) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", "Collecting Salary")
    if p.salary_collected:
        broken(f"{p.name} has already collected Salary in this Port Phase.")
    automatic = active(state.options, "cabin_boy.port.salary_automatic")
    if not automatic:
        state = spend_time(state, p.id, 1, "collect Salary")
    own, crew = salary(state, p.id)
    state = move(state, "source:salary", f"pirate:{p.id}", own, "salary")
    state = move(state, "source:salary", "crew_booty", crew, "captain's salary for the crew")
    # What could not be paid before is taken from this Salary (Book II: Port Phase, Setup).
    p = state.pirates[p.id]
    left: list[Debt] = []
    for debt in p.debts:
        now = min(state.pirates[p.id].coins, debt.amount)
        state = move(state, f"pirate:{p.id}", debt.to, now, debt.reason)
        if debt.amount > now:
            left.append(msgspec.structs.replace(debt, amount=debt.amount - now))
    return put(state, change(state.pirates[p.id], salary_collected=True, debts=left))


MANOR_FEE = 7  # "Whenever you enter the manor you must pay 7 Coins" (Book II: Locations, Madame Claude's Manor)


def manor_fee(state: SkullTales, p: Pirate) -> int:
    """The Captain, the Fame Feat and the Cabin Boy setting enter free; the Admiral setting doubles the fee (Book II:
    Locations, Madame Claude's Manor; Feats, Classes and Skills, Feats; Appendix II)."""
    if state.captain == p.id or "Fame" in p.feats or active(state.options, "cabin_boy.port.manor_free"):
        return 0
    return MANOR_FEE * (2 if active(state.options, "admiral.port.manor_double") else 1)


def enter_manor(state: SkullTales, pirate_id: str) -> SkullTales:
    """The Pirate enters the Manor, paying its fee when due, and is inside for this Port Phase."""
    p = state.pirates[pirate_id]
    state = put(state, change(p, manor_serial=state.phase_serial))
    fee = manor_fee(state, p)
    return pay(state, f"pirate:{p.id}", fee, "enter Madame Claude's Manor", "manor", p.name) if fee else state


def inside_manor(state: SkullTales, pirate_id: str) -> SkullTales:
    """The Manor's own services (Francisco Carranza's lessons, its Rumors, a loan and its repayment, the Luxury
    Treatment) are had inside it: a Pirate not yet inside in this Port Phase enters, paying the fee when due, as
    "whenever you enter the manor you must pay 7 Coins" (Book II: Locations, Madame Claude's Manor) asks, without a
    `manor.entered` of its own."""
    if state.phase != "port" or state.pirates[pirate_id].manor_serial == state.phase_serial:
        return state  # outside the Port (an override), there is no Manor to enter
    return enter_manor(state, pirate_id)


def spend_time(state: SkullTales, pirate_id: str, units: int, doing: str) -> SkullTales:
    p = state.pirates[pirate_id]
    if p.time_units < units:
        broken(f"{p.name} cannot {doing}: it takes {count(units, 'Time Unit')} and {p.name} has {p.time_units} left.")
    # Overridden, the action takes what Time Units are left: they never go below none.
    return put(state, change(p, time_units=max(p.time_units - units, 0)))


def require_captain(state: SkullTales, pirate_id: str, doing: str, bosun_may: bool = False) -> bool:
    """The Captain's own action, or a rule broken. With `bosun_may` (a Port action exclusive to the Captain), a
    Bosun may do it too: the answer is True when a Bosun does, who then gains 1 Fame (`bosun_acted`)."""
    p = pirate(state, pirate_id)
    if state.captain == pirate_id:
        return False
    if bosun_may and state.phase == "port" and state.captain is not None and has_skill(p, "Bosun"):
        # Bosun: "During the Port Phase, you may perform any action exclusive to the Captain (except collecting the
        # extra Salary) as long as you get the Captain's approval" (Book II: Feats, Classes and Skills, Scholar
        # Skills): logging it is the approval.
        return True
    captain = state.pirates[state.captain].name if state.captain else "nobody"
    broken(f"{p.name} cannot {doing}: only the Captain can, and the Captain is {captain}.")
    return False


BOSUN_FAME = 1  # "By performing any Captain-exclusive action, you gain 1 Fame." (Book II: Scholar Skills, Bosun)


def bosun_acted(state: SkullTales, pirate_id: str, bosun: bool) -> SkullTales:
    """The Bosun's 1 Fame for a Captain-exclusive action, on the Record Sheet (it is the Port Phase)."""
    if not bosun:
        return state
    p = state.pirates[pirate_id]
    return put(state, change(p, fame=p.fame + BOSUN_FAME))


def booty_buried(state: SkullTales, event: BootyBuried) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_captain(state, p.id, f"bury booty on island {event.island}")
    require_phase(state, "voyage", "Burying booty")
    if event.amount <= 0:
        raise Rejection(f"{p.name} must bury a positive amount of Coins, not {event.amount}.")
    islands = state.buried.get(p.id, {})
    if islands and event.island not in islands:
        other = next(iter(islands))
        broken(
            f"{p.name} cannot bury booty on island {event.island}: each Captain buries on a single island, "
            f"and {p.name}'s is island {other}."
        )
    if state.crew_booty < event.amount:
        raise Rejection(
            f"{p.name} cannot bury {count(event.amount, 'Coin')}: the Crew's Booty holds {state.crew_booty}."
        )
    return move(state, "crew_booty", f"buried:{p.id}:{event.island}", event.amount, "buried")


def booty_recovered(state: SkullTales, event: BootyRecovered) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "voyage", "Recovering buried booty")
    there = state.buried.get(p.id, {}).get(event.island, 0)
    if event.amount <= 0 or event.amount > there:
        raise Rejection(
            f"{p.name} cannot recover {count(event.amount, 'Coin')} from island {event.island}: "
            f"{p.name} buried {there} there."
        )
    # A Captain recovers it for the crew; a former Captain may reclaim it as Personal Booty (Book III: Voyage Phase Sequence, Docking on an Island).
    to = "crew_booty" if state.captain == p.id else f"pirate:{p.id}"
    return move(state, f"buried:{p.id}:{event.island}", to, event.amount, "recovered")


def loan_taken(state: SkullTales, event: LoanTaken) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    require_phase(state, "port", "Taking a loan")
    require_ashore(state, p, f"borrow {count(event.amount, 'Coin')}")
    if p.loan is not None and p.loan.phase_serial != state.phase_serial:
        # "doesn't have the Debtor state" (Book II: Locations, Market Square; Docks): a Debtor "from the next Port
        # Phase onwards", so a second loan in the Port of the first is no Debtor's, and the two add up.
        broken(
            f"{p.name} cannot take another loan: {p.name} already owes Monsieur Fontaine {count(p.loan.owed, 'Coin')}."
        )
    # The Manor lends in 5s ("another 5 Coins"); the Market and the Docks lend "the amount needed" (Book II:
    # Locations, Market Square; Docks), both up to 50.
    if not 0 < event.amount <= LOAN_LIMIT or (event.lender == "manor" and event.amount % 5):
        broken(f"{p.name} cannot borrow {count(event.amount, 'Coin')}: loans come in 5s, up to {LOAN_LIMIT} Coins.")
    if p.loan is not None and p.loan.principal + event.amount > LOAN_LIMIT:
        broken(
            f"{p.name} cannot borrow {count(event.amount, 'Coin')} more: Monsieur Fontaine lends up to {LOAN_LIMIT} "
            f"Coins, and {p.name} borrowed {p.loan.principal} in this Port Phase."
        )
    to = f"pirate:{p.id}"
    if event.lender == "manor":
        # 1 Time Unit and Fame for the first 5 Coins, each further Time Unit or Fame another 5 (Book II: Locations, Madame Claude's Manor).
        units = event.amount // 5
        fame = event.fame
        if fame < state.options.loan_first_fame:
            broken(
                f"{p.name} cannot borrow at the Manor without spending Fame: the first 5 Coins cost 1 Time Unit "
                f"and {state.options.loan_first_fame} Fame."
            )
        extra_fame = fame - state.options.loan_first_fame
        time_units = units - extra_fame
        if time_units < 1:
            raise Rejection(f"{p.name} spends more Fame than a {event.amount}-Coin loan asks for.")
        state = spend_time(state, p.id, time_units, f"borrow {event.amount} Coins")
        state = spend_fame(state, p.id, fame, f"borrow {event.amount} Coins")
        state = inside_manor(state, p.id)
    elif event.lender == "ship":
        bosun = require_captain(state, p.id, "take a loan for the ship", bosun_may=True)
        state = bosun_acted(state, p.id, bosun)
        to = "crew_booty"
    purse = None
    if event.lender != "manor":
        # "If your Pirate does not have enough money to acquire Gear ... a loan equal to the amount you need"; "If
        # the Captain doesn't have enough money to buy an upgrade ... a loan for the amount needed" (Book II:
        # Locations, Market Square; Docks): no more than the purse lacks.
        purse = balance(state, to)
        if event.price is not None:
            needs_loan(p.name, event.lender, event.amount, event.price, purse)
            purse = None
    owed = math.ceil(event.amount * 6 / 5)
    loan = Loan(lender=event.lender, principal=event.amount, owed=owed, phase_serial=state.phase_serial, purse=purse)
    before = state.pirates[p.id].loan
    if before is not None:
        # One Debtor state on the Record Sheet: what is owed adds up, from the first loan's Port; the Crew's Booty
        # repays it only if both were for the ship.
        loan = Loan(
            lender=event.lender if before.lender == event.lender else "manor",
            principal=before.principal + event.amount,
            owed=before.owed + owed,
            phase_serial=before.phase_serial,
            purse=purse,
        )
    state = put(state, change(state.pirates[p.id], loan=loan))
    return move(state, "source:loan", to, event.amount, f"loan from Monsieur Fontaine ({event.lender})")


def needs_loan(name: str, lender: str, amount: int, price: int, purse: int) -> None:
    """A Market or ship loan is for the amount the purchase lacks, and only when it lacks some."""
    whose = "the Crew's Booty holds" if lender == "ship" else f"{name} has"
    what = "an upgrade" if lender == "ship" else "Gear"
    if purse >= price:
        broken(
            f"{name} cannot borrow for {what} costing {count(price, 'Coin')}: {whose} {purse}, enough to pay for it "
            "(Book II: Locations, Market Square; Docks)."
        )
    elif amount > price - purse:
        broken(
            f"{name} cannot borrow {count(amount, 'Coin')} for {what} costing {count(price, 'Coin')}: {whose} "
            f"{purse}, and a loan is only the amount needed, {price - purse} (Book II: Locations, Market Square; Docks)."
        )


def loan_spent(state: SkullTales, lender: str, price: int, buyer: str) -> SkullTales:
    """The purchase a Market loan (the buyer's) or a ship loan (whoever took it for the Crew's Booty) was taken for,
    at its charged price: the loan was at most what the purse lacked. A loan taken in an earlier Port, or already
    held to a purchase, is not looked at again."""
    for p in in_play(state):
        loan = p.loan
        if loan is None or loan.purse is None or loan.lender != lender or (lender == "market" and p.id != buyer):
            continue
        if loan.phase_serial == state.phase_serial:
            needs_loan(p.name, lender, loan.principal, price, loan.purse)
        state = put(state, change(p, loan=msgspec.structs.replace(loan, purse=None)))
    return state


def loan_repaid(state: SkullTales, event: LoanRepaid) -> SkullTales:
    p = active_pirate(state, event.pirate_id)
    if p.loan is None:
        raise Rejection(f"{p.name} owes Monsieur Fontaine nothing.")
    if not 0 < event.amount <= p.loan.owed:
        raise Rejection(f"{p.name} cannot repay {count(event.amount, 'Coin')}: {p.name} owes {p.loan.owed}.")
    # "you must return to the Manor and pay Monsieur Fontaine what you owe him ... Spend 1 Time Unit and pay back 6
    # Coins for every 5 Coins loaned" (Book II: Locations, Madame Claude's Manor): in Port, all of it at once.
    require_phase(state, "port", "Repaying Monsieur Fontaine")
    if event.amount < p.loan.owed:
        broken(
            f"{p.name} repays Monsieur Fontaine all that is owed at once, {count(p.loan.owed, 'Coin')} (6 for every 5 "
            f"borrowed), not {event.amount} (Book II: Locations, Madame Claude's Manor)."
        )
    if event.paid_from == "crew_booty":
        if p.loan.lender != "ship":
            broken(f"The Crew's Booty repays only a ship loan, and {p.name}'s loan was personal.")
        source, who = "crew_booty", f"{p.name} (from the Crew's Booty)"
    else:
        source, who = f"pirate:{p.id}", p.name
    # "If you want to remove the Debtor state, you must return to the Manor and pay Monsieur Fontaine what you owe
    # him (paying 7 Coins to enter if you are not the Captain, naturally)" (Book II: Locations, Madame Claude's
    # Manor); every loan is his, the Market's and the ship's too ("see Loans").
    state = inside_manor(state, p.id)
    doing = f"repay {count(event.amount, 'Coin')} of a loan"
    state = spend_time(state, p.id, 1, "repay Monsieur Fontaine")
    state = pay(state, source, event.amount, doing, "loan_repayment", who)
    owed = p.loan.owed - event.amount
    loan = None if owed == 0 else msgspec.structs.replace(p.loan, owed=owed)
    return put(state, change(state.pirates[p.id], loan=loan))


def debtor(state: SkullTales, p_id: str) -> bool:
    """Debtor from the Port Phase after the loan onwards, until repaid (Book II: Locations, Docks; Book II: Locations, Madame Claude's Manor)."""
    p = state.pirates[p_id]
    return p.loan is not None and state.phase_serial > p.loan.phase_serial

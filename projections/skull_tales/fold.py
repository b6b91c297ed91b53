"""The Skull Tales fold itself: which handler folds each event type, the campaign's start, and `apply`.

Apart from the game's module so that what reads a fold's result (a sentence telling what the rules charged, in
`charges.py`) can fold an event without importing the game, whose sentences import it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from msgspec.structs import replace

from quartermaster.events import skull_tales as ev
from quartermaster.events.base import Event
from quartermaster.events.campaign import DiceRolled
from quartermaster.projections.game import Meta, Rejection
from quartermaster.projections.skull_tales import (
    allies,
    booty,
    captaincy,
    cards,
    chapters,
    dice,
    injuries,
    pirates,
    port,
    ship,
    skills,
    voyage,
)
from quartermaster.projections.skull_tales.options import parse
from quartermaster.projections.skull_tales.state import SkullTales

# Every handler takes (state, event), as Skull & Shackles' do. The one thing a handler needs from the log beside the
# event is its position (the ledger and the roll log name it), so `apply` writes it on the state before dispatching
# rather than handing every handler a `meta` that nearly all of them would ignore.
_HANDLERS: dict[type[Event], Callable[[SkullTales, Any], SkullTales]] = {
    ev.PirateRecruited: pirates.recruited,
    ev.CharacterCardRecorded: cards.card_recorded,
    ev.FameChanged: pirates.fame_changed,
    ev.CoinsChanged: booty.coins_changed,
    ev.CoinsGiven: booty.coins_given,
    ev.WoundsChanged: pirates.wounds_changed,
    ev.DestinyChanged: pirates.destiny_changed,
    ev.PirateUnconscious: pirates.unconscious,
    ev.PirateRevived: pirates.revived,
    ev.InjurySuffered: injuries.injury_suffered,
    ev.PirateRetired: injuries.retired,
    ev.MatelotageDone: injuries.matelotage,
    ev.ProsthesisBought: injuries.prosthesis_bought,
    ev.CurseGained: pirates.curse_gained,
    ev.PenanceChosen: pirates.penance_chosen,
    ev.CurseRemoved: pirates.curse_removed,
    ev.PurgeUsed: pirates.purge_used,
    ev.ItemGained: pirates.item_gained,
    ev.ItemLost: pirates.item_lost,
    ev.ItemGiven: pirates.item_given,
    ev.PortServiceBought: pirates.port_service,
    ev.ManorEntered: pirates.manor_entered,
    ev.TimeSpent: pirates.time_spent,
    ev.ApprovalGiven: pirates.approval_given,
    ev.CampaignCompleted: pirates.campaign_completed,
    ev.SkillLearned: skills.skill_learned,
    ev.FeatGained: skills.feat_gained,
    ev.AssignmentTaken: captaincy.assignment_taken,
    ev.AssignmentResolved: captaincy.assignment_resolved,
    ev.AllyHired: allies.ally_hired,
    ev.AllyDrawn: allies.ally_drawn,
    ev.AllyUpkeepPaid: allies.upkeep_paid,
    ev.AllyDied: allies.ally_died,
    ev.AllyDismissed: allies.ally_dismissed,
    ev.CaptainElected: captaincy.captain_elected,
    ev.TrustChanged: captaincy.trust_changed,
    ev.MoraleChanged: captaincy.morale_changed,
    ev.MutinyResolved: captaincy.mutiny_resolved,
    ev.AllyMutinyResolved: captaincy.ally_mutiny_resolved,
    ev.CommandIssued: captaincy.command_issued,
    ev.ShipBought: ship.ship_bought,
    ev.ShipUpgraded: ship.ship_upgraded,
    ev.ShipDamaged: ship.ship_damaged,
    ev.ShipRepaired: ship.ship_repaired,
    ev.UpgradeUsed: ship.upgrade_used,
    ev.GroupHired: ship.group_hired,
    ev.GroupLost: ship.group_lost,
    ev.GoodsTraded: ship.goods_traded,
    ev.TradeMade: ship.trade_made,
    ev.GoodsGained: ship.goods_gained,
    ev.GoodsSpent: ship.goods_spent,
    ev.BootyBuried: booty.booty_buried,
    ev.BootyRecovered: booty.booty_recovered,
    ev.LoanTaken: booty.loan_taken,
    ev.LoanRepaid: booty.loan_repaid,
    ev.SalaryCollected: booty.salary_collected,
    ev.ChapterStarted: chapters.chapter_started,
    ev.PhaseStarted: chapters.phase_started,
    ev.PhaseEnded: chapters.phase_ended,
    ev.ChapterEnded: chapters.chapter_ended,
    ev.PirateBoarded: port.boarded,
    ev.AllyLoyaltyRolled: allies.loyalty_rolled,
    ev.RumorsHeard: port.rumors_heard,
    ev.RumorResolved: port.rumor_resolved,
    ev.StoryTold: port.story_told,
    ev.SchemeResolved: voyage.scheme_resolved,
    ev.AllySchemeResolved: voyage.ally_scheme_resolved,
    ev.CrewSurrendered: voyage.crew_surrendered,
    DiceRolled: dice.dice_rolled,
}


def initial(options: Mapping[str, Any]) -> SkullTales:
    """The campaign before its first chapter, with its rule options and the crew's ship.

    The crew owns "The Southern Lady" from the campaign's start, so that a chapter which opens at sea has a ship to
    sail: the rulebook hands it over "after successfully completing the first chapter" (Book III: Important
    Concepts) and at "the first Port Phase" (Book II: Port Phase, Setup), which agree when Chapter 1 is an
    Adventure only, and says nothing of a campaign whose chapters start elsewhere.
    """
    return SkullTales(options=parse(options), ship=ship.southern_lady())


def apply(state: SkullTales, event: Event, meta: Meta) -> SkullTales:
    """The next state, or a Rejection saying why this cannot happen."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise Rejection(f"Skull Tales does not know what a {type(event).__name__} event means.")
    return handler(replace(state, position=meta.position), event)

"""What a Skull Tales chapter report counts: phases, rolls, Fame, Coins, Wounds, injuries, skills, mutinies.

A chapter's phases run from phase.started to phase.ended (Skull Tales: Full Sail! rulebook, Chapter Phases).
Fame and Coins are what each Record Sheet holds at the chapter's end against its start, after every cost, bank
and halving the fold applies (at-risk Fame and Coins are not on the sheet until their phase ends); Wounds are the
sheet's at the end. Injuries, skills learned and mutinies are the events the table recorded.
"""

from __future__ import annotations

from typing import Any

from quartermaster.service.application.audit.episodes import count_in
from quartermaster.service.application.audit.rolls import roll, success_rates


class ChapterTally:
    reads = frozenset(
        {
            "phase.started",
            "phase.ended",
            "dice.rolled",
            "injury.suffered",
            "skill.learned",
            "mutiny.resolved",
            "ally_mutiny.resolved",
            "captain.elected",
            "pirate.retired",
            "pirate.recruited",
            "feat.gained",
            "purge.used",
        }
    )
    skim: dict[str, dict[str, str]] = {}

    def __init__(self, names: dict[str, str], chapter: str) -> None:
        self.names = names
        self.chapter = chapter
        self.phases: list[dict[str, Any]] = [self._phase(None, None)]
        self.rolls: list[dict[str, Any]] = []
        self.injuries: list[dict[str, Any]] = []
        self.skills: list[dict[str, Any]] = []
        self.feats: list[dict[str, Any]] = []
        self.mutinies: list[dict[str, Any]] = []
        self.captains: list[dict[str, Any]] = []
        self.retired: list[str] = []
        self.recruited: list[str] = []

    @staticmethod
    def _phase(phase: str | None, position: int | None) -> dict[str, Any]:
        return {"phase": phase, "first": position, "last": position, "events": 0, "outcome": None, "rolls": []}

    def add(self, position: int, type_: str, event: Any) -> None:
        if type_ == "phase.started":
            self.phases.append(self._phase(event.phase, position))
        phase = count_in(self.phases, position)
        if event is None:
            return
        match type_:
            case "phase.ended":
                phase["outcome"] = event.outcome
                if event.degrees:
                    phase["degrees"] = dict(event.degrees)
                # What follows a phase's end (an election, a matelotage) belongs to the chapter, not the phase.
                self.phases.append(self._phase(None, None))
            case "dice.rolled":
                rolled = roll(position, event, self.names.get(event.character_id or ""))
                self.rolls.append(rolled)
                phase["rolls"].append(rolled)
            case "purge.used":
                self.rolls.append(
                    {
                        "position": position,
                        "character": event.pirate_id,
                        "name": self.names.get(event.pirate_id),
                        "purpose": "purge",
                        "skill": "Charisma",
                        "dice": [f"d6={event.roll}"],
                        "total": event.roll,
                        "difficulty": 5,
                        "success": None,
                    }
                )
            case "injury.suffered":
                self.injuries.append(
                    {
                        "position": position,
                        "pirate": event.pirate_id,
                        "name": self.names.get(event.pirate_id),
                        "roll": event.roll,
                        "injury": event.injury,
                    }
                )
            case "skill.learned":
                self.skills.append(
                    {
                        "position": position,
                        "pirate": event.pirate_id,
                        "name": self.names.get(event.pirate_id),
                        "skill": event.skill,
                        "master": event.master_id,
                    }
                )
            case "feat.gained":
                self.feats.append({"position": position, "pirate": event.pirate_id, "feat": event.feat})
            case "mutiny.resolved":
                self.mutinies.append({"position": position, "instigator": event.instigator, "bids": dict(event.bids)})
            case "ally_mutiny.resolved":
                self.mutinies.append(
                    {
                        "position": position,
                        "ally": event.ally_id,
                        "coins_spent": event.coins_spent,
                        "ally_roll": event.ally_roll,
                    }
                )
            case "captain.elected":
                self.captains.append(
                    {"position": position, "pirate": event.pirate_id, "name": self.names.get(event.pirate_id)}
                )
            case "pirate.retired":
                self.retired.append(event.pirate_id)
            case "pirate.recruited":
                self.names.setdefault(event.pirate_id, event.name)
                self.recruited.append(event.pirate_id)

    def result(self, before: Any, after: Any) -> dict[str, Any]:
        start = before.pirates if before is not None else {}
        end = after.pirates if after is not None else {}
        pirates = {}
        for pirate_id, sheet in end.items():
            was = start.get(pirate_id)
            fame0, coins0 = (was.fame, was.coins) if was else (0, 0)
            pirates[pirate_id] = {
                "name": sheet.name,
                "player": sheet.player,
                "fame": {"start": fame0, "end": sheet.fame, "change": sheet.fame - fame0},
                "coins": {"start": coins0, "end": sheet.coins, "change": sheet.coins - coins0},
                "wounds": {"start": was.wounds if was else 0, "end": sheet.wounds},
                "injuries": [i["injury"] for i in self.injuries if i["pirate"] == pirate_id],
                "skills_learned": [s["skill"] for s in self.skills if s["pirate"] == pirate_id],
                "status": sheet.status,
            }
        phases = [p for p in self.phases if p["first"] is not None]
        return {
            "phases": phases,
            "rolls": len(self.rolls),
            "success_rate": success_rates(self.rolls, self.names),
            "pirates": pirates,
            "injuries": self.injuries,
            "skills_learned": self.skills,
            "feats": self.feats,
            "mutinies": self.mutinies,
            "captains_elected": self.captains,
            "retired": self.retired,
            "recruited": self.recruited,
            "crew_booty": {
                "start": before.crew_booty if before is not None else 0,
                "end": after.crew_booty if after is not None else 0,
            },
        }

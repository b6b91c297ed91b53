"""Rolling dice on the server (or logging dice thrown at the table), and statistics over a campaign's dice."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec
from litestar import Response, get, post
from litestar.params import QueryParameter

from quartermaster.events.base import tag_of
from quartermaster.events.campaign import DiceRolled
from quartermaster.projections.dice import read as roll_reading
from quartermaster.projections.dice_stats import DiceStats, dice_stats
from quartermaster.projections.game import BatchRejected, Game, Rejection
from quartermaster.service.application import dice
from quartermaster.service.http.auth import Asking, CampaignId, EventStore, may
from quartermaster.service.http.idempotency import HEADER_PARAMETER, keyed
from quartermaster.service.http.intake import prepared_event
from quartermaster.service.http.openapi import body
from quartermaster.service.http.problems import Problem, refusal_errors
from quartermaster.service.http.requests import AnyRequest, decode
from quartermaster.service.http.routes.events import appended_answer, appended_body
from quartermaster.service.store import Appended, StalePosition, Store
from quartermaster.service.store.keys import Keyed

# Another event landing between reading the state and appending the roll is rare (a table logs one thing at a
# time); three tries is plenty.
_READ_ATTEMPTS = 3

Label = Annotated[str, msgspec.Meta(min_length=1, max_length=100)]


class RollRequest(msgspec.Struct, forbid_unknown_fields=True):
    expression: Annotated[str, msgspec.Meta(max_length=dice.MAX_LENGTH)]
    character_id: Label | None = None
    purpose: Label | None = None
    skill: Label | None = None
    difficulty: int | None = None
    # Skull Tales pools: how many dice must beat the target.
    required: int | None = None
    # Faces thrown with real dice at the table, in the order the expression names its dice; absent: the server rolls.
    faces: list[int] | None = None


def _refused_roll(rejected: BatchRejected) -> Problem:
    return Problem(
        422,
        f"The roll was refused: {rejected.errors[0][1]} Nothing was written.",
        kind="rejected",
        errors=refusal_errors(rejected),
        overridable=rejected.overridable,
    )


def _rolled(request: RollRequest, game_id: str) -> DiceRolled:
    """The roll the request asks for: thrown by the server, or the faces thrown at the table."""
    try:
        expression = dice.parse(request.expression, game=game_id)
        outcome = dice.read_faces(expression, request.faces) if request.faces is not None else dice.roll(expression)
        return dice.to_event(
            expression,
            outcome,
            character_id=request.character_id,
            purpose=request.purpose,
            skill=request.skill,
            difficulty=request.difficulty,
            required=request.required,
        )
    except dice.DiceSyntaxError as error:
        raise Problem(
            422,
            f"The dice expression does not parse: {error.reason} (column {error.column}).",
            kind="bad-dice-expression",
            column=error.column,
            expression=request.expression,
            caret=error.caret,
        ) from None
    except dice.DiceError as error:
        raise Problem(422, error.reason, kind="bad-roll") from None


@post(
    "/v1/campaigns/{campaign:str}/rolls",
    summary="Roll dice on the server, or log dice thrown at the table",
    status_code=201,
    operation_class=body(RollRequest, headers=[HEADER_PARAMETER]),
    opt={**may("roll dice"), "refusal": _refused_roll},
)
async def roll(request: AnyRequest, store: EventStore, campaign_id: CampaignId, member: Asking) -> Response[Any]:
    asked = decode(await request.body(), RollRequest)
    game = await store.game_of(campaign_id)
    appended = await _append_read(
        store, campaign_id, game, _rolled(asked, game.id), actor=member.actor, keyed=await keyed(request, member.actor)
    )
    # Sent again with its Idempotency-Key: the roll recorded the first time, not a new one (200: nothing written).
    return appended_answer({**appended_body(appended), "roll": appended.events[0]}, appended)


async def _append_read(
    store: Store, campaign_id: UUID, game: Game[Any], event: DiceRolled, *, actor: str, keyed: Keyed | None = None
) -> Appended:
    """Append the roll as the game reads it in the campaign's current state (its successes and success).

    The reading depends on the state (a Destiny Point's +1, the campaign's options), so it is appended at the
    position it was read at; if another event came first, the roll is read again.
    """
    for _ in range(_READ_ATTEMPTS):
        position, state = await store.projection(campaign_id, game)
        try:
            read = roll_reading(game, state, event)
        except Rejection as rejection:
            raise Problem(
                422,
                f"The roll was refused: {rejection.reason} Nothing was written.",
                kind="rejected",
                errors=[{"index": 0, "reason": rejection.reason}],
            ) from None
        try:
            return await store.append(
                campaign_id, [prepared_event(read)], actor=actor, expected_position=position, keyed=keyed, game=game
            )
        except StalePosition:
            continue
    raise Problem(
        503, "The campaign kept changing while the roll was read; nothing was written. Roll again.", kind="busy"
    )


@get("/v1/campaigns/{campaign:str}/stats/dice", summary="Face counts per die size, success rates, and fairness")
async def stats(
    store: EventStore,
    campaign_id: CampaignId,
    member: Asking,
    source: Annotated[str | None, QueryParameter(description="Only `server` or only `table` rolls.")] = None,
    character: Annotated[str | None, QueryParameter(description="Only the rolls made for this character.")] = None,
) -> DiceStats:
    chosen: Literal["server", "table"] | None
    match source:
        case None | "server" | "table":
            chosen = source
        case _:
            raise Problem(422, f"`source` is `server` or `table`, not {source!r}.", kind="bad-parameter")
    game = await store.game_of(campaign_id)
    rolls = [
        e
        async for e in store.effective_of_types(campaign_id, game, [tag_of(DiceRolled)])
        if isinstance(e, DiceRolled) and (character is None or e.character_id == character)
    ]
    return dice_stats(rolls, source=chosen)


ROUTES = [roll, stats]

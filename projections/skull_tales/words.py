"""How the fold's sentences count things: "1 Time Unit", "2 Time Units", "1 success", "3 successes"."""

from __future__ import annotations

# Nouns whose plural is not the singular plus "s".
PLURALS = {"success": "successes", "Wound": "Wounds"}


def count(amount: int, noun: str) -> str:
    """The amount and the noun, singular for exactly one (and minus one) and plural otherwise."""
    if abs(amount) == 1:
        return f"{amount} {noun}"
    return f"{amount} {PLURALS.get(noun, noun + 's')}"

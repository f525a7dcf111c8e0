"""Why a hand or an ambition cannot be paid. All are ``ValueError`` and quote the input."""

from __future__ import annotations

__all__ = [
    "ScoringError",
    "NotCompleteError",
    "InvalidWinError",
    "UnknownAmbitionError",
    "InvalidAmbitionError",
    "ImpossibleHandError",
]


class ScoringError(ValueError):
    """Base of every scoring error."""


class NotCompleteError(ScoringError):
    """The hand is not a winning hand of the variant (wrong size or no arrangement)."""


class InvalidWinError(ScoringError):
    """The hand is complete but the win as described cannot happen or is not allowed
    (win tile not in the hand, discarder is the winner, below the table minimum...)."""


class UnknownAmbitionError(ScoringError):
    """An instant-payout kind the variant does not have."""


class InvalidAmbitionError(ScoringError):
    """An ambition declared with tiles or at a moment the rules do not allow."""


class ImpossibleHandError(ScoringError):
    """A hand that cannot exist in the variant (a fifth copy, a tile the set lacks, a face-down tile)."""

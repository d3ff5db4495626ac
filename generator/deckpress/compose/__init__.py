"""The compose layer: a card and its template become a Face."""

from .composer import Composer

__all__ = ["Composer"]

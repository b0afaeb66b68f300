"""Errors the services raise on bad requests.  Each carries the HTTP status
the web and API layers answer with, and a message that names what is wrong
and what would be right."""

from __future__ import annotations


class ServiceError(ValueError):
    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class BadInput(ServiceError):
    status = 400


class NotSignedIn(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class GameMovedOn(Conflict):
    """The player saw an older position than the game is in now."""


class PlyNotReached(Conflict):
    """The player names a ply the game has not reached yet."""


class NotYourTurn(Conflict):
    pass


class GameNotActive(Conflict):
    pass


class BadTurn(ServiceError):
    """The turn text is malformed, illegal or ambiguous in this position."""

    status = 422

"""The exception types of the mail package.

Every error the package raises on purpose derives from :class:`MailError`, so a
caller can catch the package's failures without catching programming errors.
"""


class MailError(Exception):
    """Base class of every error raised on purpose by :mod:`mail`."""


class ParseError(MailError):
    """A message could not be read at all (not even as headers and a body)."""


class SendError(MailError):
    """Sending a message failed.

    ``permanent`` is true when retrying cannot help (the server refused the
    recipient or the content with a 5xx reply); ``unreachable`` is true when
    the server could not be reached at all (so other messages would fail too).
    """

    def __init__(self, message: str, *, permanent: bool = False, unreachable: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent
        self.unreachable = unreachable

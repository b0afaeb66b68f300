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
    the server could not be reached at all (so other messages would fail too);
    ``uncertain`` is true when the whole message went out but no answer to
    its end came back, so the server may have accepted it (RFC 5321 §6.1:
    it must not be sent again at once).
    """

    def __init__(self, message: str, *, permanent: bool = False, unreachable: bool = False,
                 uncertain: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent
        self.unreachable = unreachable
        self.uncertain = uncertain


class SendWithdrawn(MailError):
    """A message was not sent after all, and nothing is to be recorded: the
    check made just before its body would have gone out said no (another
    sender holds it), or could not be made (``stop``: the round ends)."""

    def __init__(self, message: str, *, stop: bool = False) -> None:
        super().__init__(message)
        self.stop = stop

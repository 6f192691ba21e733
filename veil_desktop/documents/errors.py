"""Exceptions raised by the documents package.

Every message is meant to be shown to the reviewer as is: it says what went wrong with which file and
what to do about it. Messages never contain document text (they may end up in logs).
"""
from __future__ import annotations


class DocumentError(Exception):
    """A document could not be read or written; ``str(exc)`` is a user-facing message."""


class UnsupportedFormat(DocumentError):
    """The file type (or the requested export type) is not supported."""


class LeakDetected(DocumentError):
    """The fail-closed leak check found a masked value in the output; the output was deleted.

    ``locations`` lists where it was found, e.g. ``"word/footnotes.xml (utf-8)"`` — never the value.
    """

    def __init__(self, message: str, locations: list[str]):
        super().__init__(message)
        self.locations = list(locations)


class NeedsReview(LeakDetected):
    """The second opinion found what looks like personal information where no reviewer sees it (the
    output was deleted): the file needs a person's look, it is not broken (``locations`` names the places,
    never the value)."""

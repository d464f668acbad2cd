"""The HTTP protocol uvicorn runs for ``sudoku serve``: httptools' parser when it is installed, with a bound on a head.

httptools (C) parses a request for about a quarter less of the server's CPU than h11 (pure Python),
but uvicorn sets it no limit on a request's head: a client sending header after header, or one
endless header, grew the server's memory without end (190 MB sent, 239 MB resident). The protocol
here counts what arrives while a request's head (its request line and headers) is incomplete and
answers 400 and closes the connection past ``max_bytes``, the bound ``h11_max_incomplete_event_size``
sets with h11. Without httptools, uvicorn runs h11 with that bound.
"""

from __future__ import annotations

from typing import Any

import httptools  # noqa: F401 - uvicorn's protocol needs it: without it, this module does not import
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["HEAD_TOO_LARGE", "BoundedHttpToolsProtocol", "http_protocol"]

#: What a client whose request head passed the bound is told (status 400), before its connection is closed.
HEAD_TOO_LARGE = "Request head too large."


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, answering 400 and closing once a request's incomplete head passes ``max_head``.

    What is counted: every chunk received whole while a head is incomplete (the chunk in which a request
    begins is not, so the bound holds to within one read of the socket).
    """

    max_head = 1 << 20

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_bytes = 0  # bytes of the current request's head received so far (past its first chunk)
        self.in_head = False  # a request has begun and its head is not complete
        self.began = False  # a request began in the chunk being parsed

    def data_received(self, data: bytes) -> None:
        self.began = False
        super().data_received(data)
        if self.in_head and not self.began and not self.transport.is_closing():
            self.head_bytes += len(data)
            if self.head_bytes > self.max_head:
                self.in_head = False
                self.send_400_response(HEAD_TOO_LARGE)

    def on_message_begin(self) -> None:
        self.in_head, self.began, self.head_bytes = True, True, 0
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self.in_head = False
        super().on_headers_complete()


def http_protocol(max_bytes: int) -> type[BoundedHttpToolsProtocol]:
    """The protocol class for uvicorn's ``http``: :class:`BoundedHttpToolsProtocol` bounded at ``max_bytes``."""
    return type("BoundedHttpToolsProtocol", (BoundedHttpToolsProtocol,), {"max_head": max_bytes})

"""The outbox: messages are queued during a request and flushed to a transport afterwards.

`OUTBOX` is the process-wide queue the application uses through `enqueue` and `flush`.
"""

from __future__ import annotations

from collections import deque
from typing import Protocol

from mailq.message import Message


class Transport(Protocol):
    def send(self, message: Message) -> None: ...


class Outbox:
    def __init__(self, limit: int = 10_000) -> None:
        self.limit = limit
        self._queue: deque[Message] = deque()

    def enqueue(self, message: Message) -> None:
        if len(self._queue) >= self.limit:
            raise OverflowError(f"outbox full ({self.limit} messages)")
        self._queue.append(message)

    def pending(self) -> list[Message]:
        return list(self._queue)

    def flush(self, transport: Transport) -> int:
        """Send everything queued, oldest first; a failed send stays queued with those after it."""
        sent = 0
        while self._queue:
            transport.send(self._queue[0])
            self._queue.popleft()
            sent += 1
        return sent

    def __len__(self) -> int:
        return len(self._queue)


OUTBOX = Outbox()


def enqueue(message: Message) -> None:
    OUTBOX.enqueue(message)


def flush(transport: Transport) -> int:
    return OUTBOX.flush(transport)

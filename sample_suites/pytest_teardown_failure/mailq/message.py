"""Messages to send: one recipient each (bulk mail is fanned out before queueing)."""

from __future__ import annotations

from dataclasses import dataclass, field

from mailq.addresses import normalize

MAX_SUBJECT = 200


@dataclass(frozen=True)
class Message:
    to: str
    subject: str
    body: str
    sender: str = "noreply@example.com"
    headers: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", normalize(self.to))
        object.__setattr__(self, "sender", normalize(self.sender))
        if not self.subject.strip():
            raise ValueError("a message needs a subject")
        if len(self.subject) > MAX_SUBJECT or "\n" in self.subject:
            raise ValueError("subject too long or multi-line")

    def summary(self) -> str:
        return f"to={self.to} subject={self.subject!r}"

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None


def fan_out(recipients: list[str], subject: str, body: str) -> list[Message]:
    return [Message(to, subject, body) for to in recipients]

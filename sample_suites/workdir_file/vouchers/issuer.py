"""A voucher issuer whose counter lives in ``vouchers.json``, relative to the working directory
(as many small tools keep their state: next to where they are run)."""

from __future__ import annotations

import json
import os
import string

STATE = "vouchers.json"
ALPHABET = string.ascii_uppercase
SIZE = 5


def code_for(number: int) -> str:
    """The code of the ``number``-th voucher: AAAAA, AAAAB, ..."""
    letters = []
    for _ in range(SIZE):
        number, digit = divmod(number, len(ALPHABET))
        letters.append(ALPHABET[digit])
    return "".join(reversed(letters))


class Issuer:
    def __init__(self, path: str = STATE) -> None:
        self.path = path
        if not os.path.exists(path):
            self._save(0)

    def _load(self) -> int:
        with open(self.path) as f:
            return int(json.load(f)["next"])

    def _save(self, number: int) -> None:
        with open(self.path, "w") as f:
            json.dump({"next": number}, f)

    def issue(self) -> str:
        number = self._load()
        self._save(number + 1)
        return code_for(number)

    def peek(self) -> str:
        return code_for(self._load())

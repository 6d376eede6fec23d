import pytest

from sessionstore.store import SessionStore


@pytest.fixture
def store():
    """A private store: tests of the process-wide `DEFAULT` store use it directly."""
    return SessionStore(idle_timeout=600)


@pytest.fixture
def key():
    return b"test-signing-key-0123456789abcdef"

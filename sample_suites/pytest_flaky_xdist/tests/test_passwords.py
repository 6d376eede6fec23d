import pytest

from sessionstore.passwords import check_password, hash_password, needs_rehash, weaknesses


def test_hash_format():
    scheme, iterations, salt, digest = hash_password("Secret123", salt="abcd").split("$")
    assert (scheme, iterations, salt, len(digest)) == ("pbkdf2", "1000", "abcd", 64)


def test_same_salt_same_hash():
    assert hash_password("Secret123", salt="s1") == hash_password("Secret123", salt="s1")


def test_random_salt_differs():
    assert hash_password("Secret123") != hash_password("Secret123")


@pytest.mark.parametrize("password", ["Secret123", "ünïcödé-Pässwörd9", " spaces matter 1A "])
def test_check_correct_password(password):
    assert check_password(password, hash_password(password))


@pytest.mark.parametrize("attempt", ["secret123", "Secret1234", "", "Secret123 "])
def test_check_wrong_password(attempt):
    assert not check_password(attempt, hash_password("Secret123"))


@pytest.mark.parametrize("stored", ["", "plaintext", "md5$1$salt$abc", "pbkdf2$1000$salt"])
def test_check_rejects_foreign_formats(stored):
    assert not check_password("Secret123", stored)


@pytest.mark.parametrize("stored,rehash", [
    ("pbkdf2$500$s$x", True), ("pbkdf2$1000$s$x", False), ("pbkdf2$5000$s$x", False), ("bcrypt$x", True),
])
def test_needs_rehash(stored, rehash):
    assert needs_rehash(stored) is rehash


@pytest.mark.parametrize("password,problems", [
    ("Tr0ub4dor&3x", []),
    ("short1A", ["shorter than 10 characters"]),
    ("alllowercase1", ["needs upper and lower case"]),
    ("NoDigitsHereAtAll", ["needs a digit"]),
    ("Password123", ["too common"]),
    ("abc", ["shorter than 10 characters", "needs upper and lower case", "needs a digit"]),
])
def test_weaknesses(password, problems):
    assert weaknesses(password) == problems

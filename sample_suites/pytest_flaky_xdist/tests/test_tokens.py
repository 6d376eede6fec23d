import re

import pytest

from sessionstore.tokens import BadToken, new_id, sign, verify


@pytest.mark.parametrize("prefix", ["s", "csrf", "api"])
def test_new_id_format(prefix):
    assert re.fullmatch(rf"{prefix}-[0-9a-f]{{16}}", new_id(prefix))


def test_new_ids_differ():
    assert new_id() != new_id()


@pytest.mark.parametrize("payload", ["alice", "user:42", "ünïcödé", "", "a.b.c", "x" * 500])
def test_sign_verify_round_trip(key, payload):
    assert verify(sign(payload, key, expires_at=1000), key, now=999) == payload


def test_expired_token(key):
    with pytest.raises(BadToken, match="expired"):
        verify(sign("alice", key, expires_at=1000), key, now=1000)


def test_wrong_key(key):
    with pytest.raises(BadToken, match="signature"):
        verify(sign("alice", key, expires_at=1000), b"other-key", now=0)


def test_tampered_payload(key):
    token = sign("alice", key, expires_at=1000)
    forged = sign("mallory", key, expires_at=1000).split(".")[0] + token[token.index("."):]
    with pytest.raises(BadToken, match="signature"):
        verify(forged, key, now=0)


def test_tampered_expiry(key):
    encoded, _, mac = sign("alice", key, expires_at=1000).split(".")
    with pytest.raises(BadToken, match="signature"):
        verify(f"{encoded}.99999.{mac}", key, now=0)


@pytest.mark.parametrize("token", ["", "abc", "a.b", "a.notanumber.c", "a.b.c.d"])
def test_malformed(key, token):
    with pytest.raises(BadToken):
        verify(token, key, now=0)


def test_tokens_are_url_safe(key):
    token = sign("?&=/+", key, expires_at=1)
    assert re.fullmatch(r"[A-Za-z0-9_\-.]+", token)

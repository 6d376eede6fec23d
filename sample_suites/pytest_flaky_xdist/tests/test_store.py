import pytest

from sessionstore import store as store_module
from sessionstore.store import DEFAULT, NoSuchSession, SessionStore


def test_login_creates_session(store):
    session = store.login("bob")
    assert store.get(session.id).user == "bob"


def test_login_requires_user(store):
    with pytest.raises(ValueError, match="must not be empty"):
        store.login("")


def test_session_ids_are_unique(store):
    ids = {store.login("bob").id for _ in range(50)}
    assert len(ids) == 50


def test_rotate_keeps_user_and_data_on_default_store():
    session = DEFAULT.login("alice", now=100.0)
    session.data["cart"] = ["sku-1"]
    rotated = DEFAULT.rotate(session.id, now=101.0, elevate=True)
    assert rotated.user == "alice"
    assert rotated.data == {"cart": ["sku-1"]}
    assert rotated.elevated
    DEFAULT.logout(rotated.id)


def test_get_unknown_session(store):
    with pytest.raises(NoSuchSession):
        store.get("s-0000000000000000")


def test_get_updates_last_seen(store):
    session = store.login("bob", now=0.0)
    store.get(session.id, now=30.0)
    assert session.last_seen == 30.0


def test_idle_session_expires(store):
    session = store.login("bob", now=0.0)
    with pytest.raises(NoSuchSession):
        store.get(session.id, now=601.0)


def test_activity_keeps_session_alive(store):
    session = store.login("bob", now=0.0)
    for minute in range(1, 30):
        store.get(session.id, now=minute * 60.0)
    assert store.get(session.id, now=1800.0).user == "bob"


def test_logout_removes_session(store):
    session = store.login("carol")
    store.logout(session.id)
    with pytest.raises(NoSuchSession):
        store.get(session.id)


def test_double_logout_raises(store):
    session = store.login("carol")
    store.logout(session.id)
    with pytest.raises(NoSuchSession):
        store.logout(session.id)


def test_rotate_issues_new_id(store, monkeypatch):
    monkeypatch.setattr(store_module, "SWEEPER_MISS_RATE", 0.0)
    session = store.login("dave")
    rotated = store.rotate(session.id)
    assert rotated.id != session.id
    with pytest.raises(NoSuchSession):
        store.get(session.id)


def test_rotate_keeps_creation_time(store):
    session = store.login("dave", now=5.0)
    assert store.rotate(session.id, now=50.0).created == 5.0


def test_rotate_unknown_session(store):
    with pytest.raises(NoSuchSession):
        store.rotate("s-missing")


@pytest.mark.parametrize("logins", [0, 1, 3, 7])
def test_active_for_counts_private_store(store, logins):
    for _ in range(logins):
        store.login("erin")
    store.login("frank")
    assert store.active_for("erin") == logins


def test_purge_idle(store):
    store.login("gina", now=0.0)
    store.login("gina", now=500.0)
    assert store.purge_idle(now=700.0) == 1
    assert len(store) == 1


def test_purge_idle_on_empty_store():
    assert SessionStore().purge_idle(now=1e9) == 0


def test_active_sessions_for_user_counts_logins():
    first = DEFAULT.login("alice", now=200.0)
    second = DEFAULT.login("alice", now=201.0)
    try:
        count = DEFAULT.active_for("alice")
        assert count == 2, f"alice has {count} active sessions after 2 logins, expected 2"
    finally:
        DEFAULT.logout(first.id)
        DEFAULT.logout(second.id)


def test_len_counts_all_users(store):
    store.login("hank")
    store.login("ivy")
    assert len(store) == 2

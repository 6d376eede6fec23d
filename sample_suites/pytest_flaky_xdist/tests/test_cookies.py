import pytest

from sessionstore.cookies import CookiePolicy, clear_cookie, parse_cookie_header, set_cookie


def test_default_set_cookie():
    assert set_cookie("abc") == "sid=abc; Path=/; Secure; HttpOnly; SameSite=Lax"


def test_max_age():
    assert "Max-Age=3600" in set_cookie("abc", CookiePolicy(max_age=3600))


def test_insecure_cookie_for_local_development():
    header = set_cookie("abc", CookiePolicy(secure=False))
    assert "Secure" not in header.split("; ")


def test_script_readable_cookie():
    assert "HttpOnly" not in set_cookie("abc", CookiePolicy(http_only=False))


@pytest.mark.parametrize("same_site", ["Strict", "Lax", "None"])
def test_same_site_values(same_site):
    assert set_cookie("v", CookiePolicy(same_site=same_site)).endswith(f"SameSite={same_site}")


def test_same_site_none_requires_secure():
    with pytest.raises(ValueError, match="requires Secure"):
        CookiePolicy(same_site="None", secure=False)


@pytest.mark.parametrize("same_site", ["lax", "strict", "", "Relaxed"])
def test_same_site_is_case_sensitive(same_site):
    with pytest.raises(ValueError, match="SameSite must be one of"):
        CookiePolicy(same_site=same_site)


def test_clear_cookie_expires_immediately():
    assert clear_cookie().startswith("sid=; Path=/; Max-Age=0")


def test_custom_name_and_path():
    assert set_cookie("1", CookiePolicy(name="admin_sid", path="/admin")).startswith("admin_sid=1; Path=/admin")


@pytest.mark.parametrize("header,expected", [
    ("sid=abc", {"sid": "abc"}),
    ("sid=abc; theme=dark", {"sid": "abc", "theme": "dark"}),
    ("  sid = abc ;theme=dark  ", {"sid": "abc", "theme": "dark"}),
    ('sid="quoted"', {"sid": "quoted"}),
    ("sid=first; sid=second", {"sid": "first"}),
    ("novalue; sid=abc", {"sid": "abc"}),
    ("", {}),
    ("=orphan", {}),
])
def test_parse_cookie_header(header, expected):
    assert parse_cookie_header(header) == expected

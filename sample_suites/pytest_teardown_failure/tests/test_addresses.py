import pytest

from mailq.addresses import BadAddress, domain_of, normalize, parse_list


@pytest.mark.parametrize("raw,clean", [
    ("alice@example.com", "alice@example.com"),
    ("  bob@Example.COM ", "bob@example.com"),
    ("Carol.Smith@mail.example.org", "Carol.Smith@mail.example.org"),
    ("dave+news@example.co.uk", "dave+news@example.co.uk"),
    ("o'neil@example.ie", "o'neil@example.ie"),
    ("x@a-b.example", "x@a-b.example"),
])
def test_normalize(raw, clean):
    assert normalize(raw) == clean


@pytest.mark.parametrize("raw", [
    "", "plainaddress", "@example.com", "alice@", "alice@localhost", "al ice@example.com",
    ".alice@example.com", "alice.@example.com", "al..ice@example.com", "alice@-example.com",
    "alice@example-.com", "alice@exa_mple.com", "a" * 65 + "@example.com",
])
def test_normalize_rejects(raw):
    with pytest.raises(BadAddress):
        normalize(raw)


def test_at_sign_in_quoted_local_part_is_split_at_last():
    with pytest.raises(BadAddress, match="local part"):
        normalize("a@b@example.com")


def test_parse_list_mixed_separators():
    assert parse_list("a@x.org, b@y.org; c@z.org") == ["a@x.org", "b@y.org", "c@z.org"]


def test_parse_list_drops_duplicates_keeping_order():
    assert parse_list("b@y.org, a@X.org, a@x.org") == ["b@y.org", "a@x.org"]


def test_parse_list_ignores_empty_parts():
    assert parse_list(" , a@x.org ,, ") == ["a@x.org"]


def test_parse_list_reports_bad_address():
    with pytest.raises(BadAddress, match="nope"):
        parse_list("a@x.org, nope")


@pytest.mark.parametrize("address,domain", [("a@Mail.Example.org", "mail.example.org"), ("b@x.io", "x.io")])
def test_domain_of(address, domain):
    assert domain_of(address) == domain

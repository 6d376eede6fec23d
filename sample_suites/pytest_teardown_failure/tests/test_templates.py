import pytest

from mailq.templates import WELCOME, MissingField, fields, render


@pytest.mark.parametrize("template,context,text", [
    ("Hello {name}", {"name": "Ada"}, "Hello Ada"),
    ("{a}{b}{a}", {"a": 1, "b": 2}, "121"),
    ("no fields", {}, "no fields"),
    ("{{literal}}", {}, "{literal}"),
    ("{{{name}}}", {"name": "x"}, "{x}"),
    ("total: {amount}", {"amount": 9.5}, "total: 9.5"),
    ("{name}", {"name": ""}, ""),
])
def test_render(template, context, text):
    assert render(template, context) == text


def test_strict_mode_refuses_missing_field():
    with pytest.raises(MissingField, match="product"):
        render(WELCOME, {"name": "Ada", "login": "ada"})


def test_lenient_mode_keeps_placeholder():
    assert render("Hi {name}, {missing}", {"name": "Ada"}, strict=False) == "Hi Ada, {missing}"


def test_extra_context_is_ignored():
    assert render("Hi {name}", {"name": "Ada", "unused": 1}) == "Hi Ada"


@pytest.mark.parametrize("template,names", [
    (WELCOME, ["login", "name", "product"]),
    ("{b} {a} {b}", ["a", "b"]),
    ("{{escaped}}", []),
    ("{Upper} {9digit} {ok_1}", ["ok_1"]),
])
def test_fields(template, names):
    assert fields(template) == names


def test_welcome_template_renders_fully():
    text = render(WELCOME, {"name": "Ada", "product": "Mailq", "login": "ada"})
    assert "{" not in text and text.endswith("Your login is ada.\n")

import datetime

import pytest

from remind.schedule import Reminder


def test_create_strips_text():
    assert Reminder.create("  call mum  ").text == "call mum"


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_create_needs_text(text):
    with pytest.raises(ValueError, match="needs some text"):
        Reminder.create(text)


def test_create_rejects_due_date_in_the_past():
    with pytest.raises(ValueError, match="before today"):
        Reminder.create("file taxes", due=datetime.date(2020, 5, 31))


def test_new_reminder_is_stamped_today():
    reminder = Reminder.create("renew passport")
    assert reminder.created == datetime.date.today(), f"new reminder stamped {reminder.created}, not today"


def test_create_copies_tags():
    tags = {"home"}
    reminder = Reminder.create("fix tap", tags=tags)
    tags.add("urgent")
    assert reminder.tags == {"home"}


def test_snooze_moves_due_date(monday):
    reminder = Reminder("standup notes", created=monday, due=monday)
    reminder.snooze(2)
    assert reminder.due == datetime.date(2024, 6, 5)


def test_snooze_backwards(monday):
    reminder = Reminder("standup notes", created=monday, due=monday)
    reminder.snooze(-3)
    assert reminder.due == datetime.date(2024, 5, 31)


def test_snooze_without_due_date(monday):
    with pytest.raises(ValueError, match="without a due date"):
        Reminder("someday", created=monday).snooze(1)


def test_complete(monday):
    reminder = Reminder("book flights", created=monday)
    reminder.complete()
    assert reminder.done


def test_new_reminders_are_not_done():
    assert not Reminder.create("buy milk").done


def test_far_future_due_date_is_accepted():
    assert Reminder.create("renew licence", due=datetime.date(2099, 1, 1)).due.year == 2099

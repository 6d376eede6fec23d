"""Reminders with due dates: scheduling, recurrence, public holidays and friendly wording."""

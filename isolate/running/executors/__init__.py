"""Executors run one repetition of a list somewhere and hand back what it left behind; the
Runner schedules them and judges the result. See base.py for the interface."""

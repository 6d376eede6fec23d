import datetime

import pytest


@pytest.fixture
def monday():
    return datetime.date(2024, 6, 3)


@pytest.fixture
def new_year():
    return datetime.date(2025, 1, 1)

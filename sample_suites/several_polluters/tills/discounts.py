"""Discounts on a subtotal: percentage, fixed amount, buy-n-get-one."""

from decimal import Decimal


def percent_off(subtotal, percent):
    if not 0 <= percent <= 100:
        raise ValueError("percent must be 0..100")
    return subtotal * (Decimal(100) - Decimal(percent)) / Decimal(100)


def amount_off(subtotal, amount):
    return max(subtotal - Decimal(amount), Decimal(0))


def free_items(quantity, buy):
    """Buy BUY, get one free: how many of QUANTITY are free."""
    if buy < 1:
        raise ValueError("buy must be at least 1")
    return quantity // (buy + 1)

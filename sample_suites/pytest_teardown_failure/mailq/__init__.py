"""Outgoing mail: addresses, messages, templates, a queued outbox and retrying transports."""

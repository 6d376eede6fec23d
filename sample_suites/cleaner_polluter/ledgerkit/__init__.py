"""ledgerkit: small ledger summaries (isolate sample suite: a polluter with a cleaner)."""

"""Web login sessions: tokens, a session store with rotation, cookies, rate limits and passwords."""

"""A tiny HTTP gateway: routing, headers, responses, with request tracing and canary routing."""

"""reportgen: small financial report generator."""

__version__ = "0.9.2"

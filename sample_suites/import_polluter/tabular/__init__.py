"""tabular: write and read small delimited tables (CSV and friends) and render them as text."""

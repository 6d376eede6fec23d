"""Distances for reports, in the units and decimal mark the command line chose."""

"""Content pack -> compiled ruleset: load, validate, parse, resolve, check, build graph, lower."""

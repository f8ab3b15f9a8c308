"""Compiled ruleset -> games: state, interpreter, agents, simulation, logs, and the CLI."""

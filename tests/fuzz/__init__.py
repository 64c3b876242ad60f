"""Hypothesis fuzzing of both backends with mutated options, state dicts and actions."""

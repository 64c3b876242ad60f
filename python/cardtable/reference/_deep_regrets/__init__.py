"""Helpers of the Deep Regrets reference (:mod:`cardtable.reference.deep_regrets`)."""

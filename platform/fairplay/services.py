"""Writes for fair play (none yet: the detector only reads the tables' public records)."""

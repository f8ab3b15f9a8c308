"""JSON Schemas (draft 2020-12) for every kind of content file, shipped as package data."""

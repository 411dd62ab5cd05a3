"""Catan: board model (axial hexes, crossings, edges), scores, longest road, production, rule checks."""

"""Synthetic photos of game tables with exact ground truth, for tests and benchmarks."""

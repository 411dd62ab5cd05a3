"""Pixels to board models: table view, piece segmentation, towers, walls, keeps, reconstruction."""

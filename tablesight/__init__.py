"""tablesight: a camera companion that reads and scores physical board games."""

__version__ = "0.1.0"

"""Errors that end a command with a documented exit status and one plain sentence."""

from __future__ import annotations

EXIT_OK = 0
EXIT_INTERNAL = 1  # a fault of tablesight's own (not in the spec's list: no input should cause it)
EXIT_USAGE = 2
EXIT_UNREADABLE = 3
EXIT_NOT_RECOGNISED = 4


class TablesightError(Exception):
    """A failure the user can act on; `exit_code` follows shared/spec/interface.md."""

    exit_code = 1

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


class UsageError(TablesightError):
    exit_code = EXIT_USAGE


class UnreadableInput(TablesightError):
    exit_code = EXIT_UNREADABLE


class NothingRecognised(TablesightError):
    exit_code = EXIT_NOT_RECOGNISED

"""Where a model element came from, for error messages."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    """Location of an element in its description file.

    Attributes:
        file: path of the file, or ``"<string>"`` when XML was given as a string.
        line: 1-based line of the element's start tag, or ``None`` when unknown.
    """

    file: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        if self.file is None:
            return f"line {self.line}" if self.line is not None else "<unknown>"
        return f"{self.file}:{self.line}" if self.line is not None else self.file

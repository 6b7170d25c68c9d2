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


@dataclass(frozen=True)
class Skip:
    """A non-essential element the loader left out of the model (DESIGN.md, "Contain per
    element"), recorded on :attr:`Robot.skipped <sdf_bridge.description.model.Robot.skipped>`.

    Attributes:
        kind: what was skipped: ``"sensor"``, ``"transmission"``, ``"gazebo"``,
            ``"ros2_control"``, ``"ros2_control joint"``, ``"ros2_control limit"``,
            ``"inertial"``, ``"visual"``, ``"collision"``, ``"material"``, ``"plugin"``,
            ``"dynamics"``, ``"safety_controller"``, ``"effort limit"``, ``"velocity limit"``.
        name: the element's name; for a link's unnamed inertial, visual or collision, and for
            a joint's limit attribute, dynamics or safety controller, the link's or joint's
            name; ``None`` when there is none.
        source: where the element is.
        reason: why it was skipped (the problem, and the fix when there is one).
    """

    kind: str
    name: str | None
    source: Source
    reason: str

    def __str__(self) -> str:
        named = f" {self.name!r}" if self.name else ""
        return f"{self.source}: {self.kind}{named} skipped: {self.reason}"

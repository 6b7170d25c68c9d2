"""Exception hierarchy of sdf_bridge.

Every error a user can cause is one of these types. Description errors carry the file, line and
element they concern and say what to change, so that the message alone is enough to fix the input::

    robot.urdf:42: <joint name="elbow">: axis is (0, 0, 0). Fix: give a non-zero axis xyz.

A full stop is added after ``problem`` when it does not end with punctuation.
"""

from __future__ import annotations


class SdfBridgeError(Exception):
    """Base class of every error raised on purpose by sdf_bridge."""


class DescriptionError(SdfBridgeError, ValueError):
    """A robot description (URDF, xacro, SDFormat) is invalid or cannot be read.

    Args:
        problem: what is wrong, in one sentence.
        file: path of the file (or ``"<string>"`` for XML given as a string), if known.
        line: 1-based source line of the element, if known.
        element: short rendering of the element, e.g. ``'<joint name="elbow">'``.
        fix: what the user should change.
    """

    def __init__(
        self,
        problem: str,
        *,
        file: str | None = None,
        line: int | None = None,
        element: str | None = None,
        fix: str | None = None,
    ) -> None:
        self.problem = problem
        self.file = file
        self.line = line
        self.element = element
        self.fix = fix
        super().__init__(self._render())

    def _render(self) -> str:
        where = ""
        if self.file is not None:
            where = str(self.file)
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        element = f"{self.element}: " if self.element else ""
        problem = self.problem
        if self.fix and problem and problem.rstrip()[-1:] not in (".", "!", "?", ":", ";", "…"):
            problem = problem.rstrip() + "."  # a sentence ends before "Fix:"
        fix = f" Fix: {self.fix}" if self.fix else ""
        return f"{where}{element}{problem}{fix}"


class XmlSyntaxError(DescriptionError):
    """The file is not well-formed XML."""


class UnsafeXmlError(DescriptionError):
    """The XML uses a DTD, entities or external references, or exceeds the size cap."""


class XacroError(DescriptionError):
    """xacro failed to expand the file (message, argument or include errors), or the expansion
    went over its memory or time bound."""


class UnexpandedXacroError(XacroError):
    """XML text (a ``robot_description`` topic or parameter, a string given to ``load``) still
    holds xacro: text is never xacro-expanded (xacro is code), only files the user names."""


class PathResolutionError(DescriptionError):
    """A ``package://``, ``model://``, ``$(find ...)`` or ``file://`` path cannot be resolved,
    or resolves outside its package root."""


class RefusedPathError(PathResolutionError):
    """A description from the network (the ``robot_description`` topic or parameter) names a
    file it may not read: a ``file://`` URI or a path, or a ``package://``, ``model://`` or
    ``$(find pkg)`` path that leaves the configured directories or is no regular file. The
    message names the URI and the rule, never what a file holds or whether it exists
    (:mod:`sdf_bridge.description.confine`)."""


class MissingReferenceError(DescriptionError):
    """An element names a link, joint, frame, material, model or include that does not exist."""


class DuplicateNameError(DescriptionError):
    """Two elements of the same kind share a name."""


class KinematicTreeError(DescriptionError):
    """The links and joints do not form one tree (several roots, a cycle, two parents)."""


class InvalidValueError(DescriptionError):
    """An attribute or element has a value of the wrong type or out of range
    (not a number, zero axis, lower limit above upper limit, …)."""


class UnsupportedError(DescriptionError):
    """The description uses a version or feature this loader does not support."""


class TransmissionError(SdfBridgeError, ValueError):
    """A transmission cannot be built: missing or duplicated joint/actuator, bad reduction,
    wrong number of joints or actuators for its type, unknown type."""


class LimitsError(SdfBridgeError, ValueError):
    """Joint limits are inconsistent or a joint-limits override file is invalid."""


class ConfigError(SdfBridgeError, ValueError):
    """A parameter or configuration file value is invalid."""


class JointPropertyError(ConfigError):
    """A run-time change of a joint property (``joints.<joint>.<property>``) is refused: an
    unknown joint or property, a value out of range, or stops that do not bound an interval.
    Nothing of the change was applied."""


class CommandError(SdfBridgeError, ValueError):
    """A command is rejected (unknown joint, wrong length, not finite, follower joint, wrong
    mode). The control cycle catches these, counts them and keeps the last good command."""


class TrajectoryInPastError(CommandError):
    """A trajectory whose last point is already in the past (joint_trajectory_controller rejects
    it too); counted under :attr:`reason`."""

    #: The rejection reason it is counted under (``CommandBuffer.rejections``).
    reason = "trajectory_in_past"


class BackendError(SdfBridgeError, RuntimeError):
    """A backend cannot be found, configured or driven."""


class ModelTooLargeError(BackendError):
    """A simulator refuses a model over its stated size cap (e.g. the MuJoCo backend's
    ``max_bodies``): the message names the count, the cap and the parameter that raises it."""

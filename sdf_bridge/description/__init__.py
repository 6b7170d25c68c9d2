"""Robot descriptions (URDF, xacro, SDFormat) → one typed, immutable, validated model.

Public API::

    from sdf_bridge.description import load
    robot = load("robot.urdf.xacro", xacro_args={"prefix": "left_"})
    robot.joints["elbow"].limit.upper

:func:`load` returns a :class:`Robot` (or a :class:`World` for an SDFormat world with several
models); :func:`load_with_warnings` also returns the warnings found. The model types are
re-exported here. ``load``/``load_with_warnings`` are imported on first use (PEP 562), so that
importing a submodule such as ``sdf_bridge.description.kinematics`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import *  # noqa: F401,F403  (re-export of the model types)
from .model import __all__ as _model_all

if TYPE_CHECKING:
    from .loader import load, load_with_warnings, load_with_xml

__all__ = ["load", "load_with_warnings", "load_with_xml", *_model_all]


def __getattr__(name: str) -> Any:
    if name in ("load", "load_with_warnings", "load_with_xml"):
        from . import loader

        return getattr(loader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

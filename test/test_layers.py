"""The ROS layer boundary (doc/dev/architecture.md): only ``sdf_bridge/ros/`` imports rclpy, its
runtime or message packages, and nothing outside ``sdf_bridge/ros/`` imports from
``sdf_bridge.ros`` (the ROS layer depends on the rest, never the reverse). Every import
statement counts: module level, inside functions (lazy imports), under ``TYPE_CHECKING``,
relative or absolute, and ``importlib.import_module`` of a literal name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "sdf_bridge"
ROS_LAYER = "sdf_bridge.ros"
#: Top-level modules of the ROS 2 client library and its runtime (ament_index_python, the
#: ament index lookup, is plain Python: the description layer uses it when it is installed).
ROS_RUNTIME = frozenset({"rclpy", "rpyutils", "launch", "launch_ros"})
ROS_PREFIXES = ("rosidl", "rmw", "rcl_")
#: Message, service and action packages: ``sensor_msgs``, ``std_srvs``,
#: ``simulation_interfaces``, ``builtin_interfaces``, ...
MESSAGE_SUFFIXES = ("_msgs", "_srvs", "_interfaces", "_actions")


def module_name(path: Path, root: Path = PACKAGE) -> str:
    """``root/a/b.py`` → ``sdf_bridge.a.b``; ``root/a/__init__.py`` → ``sdf_bridge.a``."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _forbidden(name: str) -> bool:
    """True for ``sdf_bridge.ros`` and below, and for the ROS 2 packages."""
    if name == ROS_LAYER or name.startswith(ROS_LAYER + "."):
        return True
    root = name.split(".", 1)[0]
    return root in ROS_RUNTIME or root.startswith(ROS_PREFIXES) or root.endswith(MESSAGE_SUFFIXES)


def _imported(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """The absolute names an import node (or ``importlib.import_module("literal")`` call)
    brings in: for ``from X import a`` both ``X`` and ``X.a`` (``a`` may be a submodule)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            anchor = package[: len(package) - (node.level - 1)]
            base = ".".join(anchor + ([node.module] if node.module else []))
        return [base, *(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")]
    if (
        isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
            or (isinstance(node.func, ast.Name) and node.func.id in ("import_module", "__import__"))
        )
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return [node.args[0].value]
    return []


def ros_imports(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """``(line, imported name)`` of every import of ``source`` (the text of ``module``) that
    reaches into the ROS layer: ``sdf_bridge.ros`` or a ROS 2 package; the first forbidden name
    of each statement."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = [name for name in _imported(node, module, is_package) if _forbidden(name)]
        if names:
            found.append((node.lineno, names[0]))
    return sorted(found)


def test_nothing_outside_ros_imports_ros() -> None:
    """``git grep -n "import rclpy\\|from rclpy" sdf_bridge`` lists only sdf_bridge/ros/, and no
    module outside it imports from sdf_bridge.ros."""
    offences = []
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 100  # (the scan sees the package)
    for path in files:
        name = module_name(path)
        if name == ROS_LAYER or name.startswith(ROS_LAYER + "."):
            continue
        for line, imported in ros_imports(
            path.read_text(encoding="utf-8"), name, path.name == "__init__.py"
        ):
            offences.append(f"{path.relative_to(PACKAGE.parent)}:{line}: imports {imported}")
    assert offences == [], (
        "only sdf_bridge/ros/ may import rclpy, message packages or sdf_bridge.ros; move the "
        "ROS-free part to sdf_bridge/app/ or let the ROS side call it:\n" + "\n".join(offences)
    )


#: The command line as it was before the ``sdf-bridge`` executable moved to the ROS layer: a
#: lazy, relative import inside a function.
OLD_CLI = """
import sys
from .errors import ConfigError

def main(argv):
    if argv[0] == "control":
        try:
            from .ros.control_command import control_command
        except KeyboardInterrupt:
            return 0
    from .ros import main as ros_main
    return ros_main.run_command(argv)
"""


@pytest.mark.parametrize(
    ("source", "module", "is_package", "expected"),
    [
        (
            OLD_CLI,
            "sdf_bridge.cli",
            False,
            [(8, "sdf_bridge.ros.control_command"), (11, "sdf_bridge.ros")],
        ),
        ("import rclpy.node\n", "sdf_bridge.app.x", False, [(1, "rclpy.node")]),
        ("from rclpy.qos import QoSProfile\n", "sdf_bridge.x", False, [(1, "rclpy.qos")]),
        ("from sensor_msgs.msg import Imu\n", "sdf_bridge.x", False, [(1, "sensor_msgs.msg")]),
        ("import std_srvs.srv\n", "sdf_bridge.x", False, [(1, "std_srvs.srv")]),
        (
            "from simulation_interfaces.srv import X\n",
            "sdf_bridge.x",
            False,
            [(1, "simulation_interfaces.srv")],
        ),
        ("import rosidl_runtime_py\n", "sdf_bridge.x", False, [(1, "rosidl_runtime_py")]),
        (
            "from launch_ros.actions import Node\n",
            "sdf_bridge.x",
            False,
            [(1, "launch_ros.actions")],
        ),
        ("import sdf_bridge.ros.node\n", "sdf_bridge.app.x", False, [(1, "sdf_bridge.ros.node")]),
        ("from sdf_bridge import ros\n", "sdf_bridge.x", False, [(1, "sdf_bridge.ros")]),
        ("from . import ros\n", "sdf_bridge.cli", False, [(1, "sdf_bridge.ros")]),
        ("from . import ros\n", "sdf_bridge", True, [(1, "sdf_bridge.ros")]),
        ("from ..ros.topics import x\n", "sdf_bridge.app.y", False, [(1, "sdf_bridge.ros.topics")]),
        ("from ..ros import params\n", "sdf_bridge.app", True, [(1, "sdf_bridge.ros")]),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..ros.node import N\n",
            "sdf_bridge.hardware.z",
            False,
            [(3, "sdf_bridge.ros.node")],
        ),
        (
            "import importlib\nimportlib.import_module('rclpy')\n",
            "sdf_bridge.x",
            False,
            [(2, "rclpy")],
        ),
        # not the ROS layer: look-alike names, plain-Python ament index, computed names
        ("from .hardware import command_interfaces\n", "sdf_bridge.x", False, []),
        ("from .roster import ros\n", "sdf_bridge.x", False, []),
        ("import sdf_bridge.rosy\n", "sdf_bridge.x", False, []),
        ("from ament_index_python.packages import get_package_prefix\n", "sdf_bridge.x", False, []),
        (
            "import importlib\nimportlib.import_module(f'{__package__}.mujoco')\n",
            "sdf_bridge.b",
            False,
            [],
        ),
        ("import numpy\nfrom lxml import etree\n", "sdf_bridge.x", False, []),
    ],
)
def test_ros_imports(source: str, module: str, is_package: bool, expected: list) -> None:
    assert ros_imports(source, module, is_package) == expected


def test_module_name() -> None:
    assert module_name(PACKAGE / "cli.py") == "sdf_bridge.cli"
    assert module_name(PACKAGE / "app" / "__init__.py") == "sdf_bridge.app"
    assert module_name(PACKAGE / "__init__.py") == "sdf_bridge"

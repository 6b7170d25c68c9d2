"""``sdf-bridge convert``: load any description and write it as SDFormat or URDF."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ...errors import SdfBridgeError
from ..world import select_robot
from .sdf_writer import to_sdf
from .urdf_writer import to_urdf

LOG = logging.getLogger("sdf_bridge.description.export")


class _Collect(logging.Handler):
    """Keeps the messages of the records it receives."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def collect_warnings() -> Iterator[list[str]]:
    """Within the block, warnings of the ``sdf_bridge.description.export`` logger (what a
    conversion could not carry over) are collected into the yielded list instead of being
    passed on to other handlers."""
    handler = _Collect()
    propagate = LOG.propagate
    LOG.addHandler(handler)
    LOG.propagate = False
    try:
        yield handler.messages
    finally:
        LOG.removeHandler(handler)
        LOG.propagate = propagate


def _print_warnings(messages: list[str]) -> None:
    for message in messages:
        print(f"warning: {message}", file=sys.stderr)


def convert_command(args: argparse.Namespace) -> int:
    """Run ``sdf-bridge convert``.

    Args:
        args: ``source`` (file), ``output`` (file, or ``None``/``"-"`` for standard output),
            ``to`` (``"sdf"`` or ``"urdf"``), ``lump_fixed`` (bool), ``xacro_args`` (dict);
            optional ``package_paths`` (dict), ``sdf_paths`` (list) and ``model`` (the robot of
            an SDFormat world: :func:`~sdf_bridge.description.world.select_robot`; the world's
            other models are not written).

    Returns:
        0 on success, 1 when the description cannot be loaded or converted (the error message,
        with file, line and fix, goes to standard error). Everything the conversion could not
        carry over is printed to standard error as ``warning: ...`` lines (the file is still
        written).
    """
    from .. import load

    with collect_warnings() as warnings:
        try:
            model = load(
                args.source,
                xacro_args=getattr(args, "xacro_args", None) or None,
                package_paths=getattr(args, "package_paths", None) or None,
                sdf_paths=getattr(args, "sdf_paths", None) or None,
            )
            # a world's robot, its scenery left out
            model = select_robot(model, getattr(args, "model", None))
            if args.to == "urdf":
                if getattr(args, "lump_fixed", False):
                    from .lump import lump_fixed_joints

                    model = lump_fixed_joints(model)
                text = to_urdf(model)
            else:
                text = to_sdf(model, lump_fixed=bool(getattr(args, "lump_fixed", False)))
        except SdfBridgeError as exc:
            _print_warnings(warnings)
            print(f"error: {exc}", file=sys.stderr)
            return 1
    _print_warnings(warnings)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0

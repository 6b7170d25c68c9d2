"""``sdf-bridge convert``: load any description and write it as SDFormat or URDF."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...errors import SdfBridgeError
from ..model import World
from .sdf_writer import to_sdf
from .urdf_writer import to_urdf


def convert_command(args: argparse.Namespace) -> int:
    """Run ``sdf-bridge convert``.

    Args:
        args: ``source`` (file), ``output`` (file, or ``None``/``"-"`` for standard output),
            ``to`` (``"sdf"`` or ``"urdf"``), ``lump_fixed`` (bool), ``xacro_args`` (dict);
            optional ``package_paths`` (dict) and ``sdf_paths`` (list).

    Returns:
        0 on success, 1 when the description cannot be loaded or converted (the error message,
        with file, line and fix, goes to standard error).
    """
    from .. import load

    try:
        model = load(
            args.source,
            xacro_args=getattr(args, "xacro_args", None) or None,
            package_paths=getattr(args, "package_paths", None) or None,
            sdf_paths=getattr(args, "sdf_paths", None) or None,
        )
        if isinstance(model, World):
            raise SdfBridgeError(
                f"{args.source} is a world with {len(model.models)} models ({', '.join(model.models)}); "
                "convert a file holding one model"
            )
        if args.to == "urdf":
            if getattr(args, "lump_fixed", False):
                from .lump import lump_fixed_joints

                model = lump_fixed_joints(model)
            text = to_urdf(model)
        else:
            text = to_sdf(model, lump_fixed=bool(getattr(args, "lump_fixed", False)))
    except SdfBridgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0

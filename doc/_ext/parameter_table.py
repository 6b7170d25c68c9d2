"""Sphinx extension: the bridge node's parameter table, generated from
:data:`sdf_bridge.ros.params.PARAMETERS` when the documentation is built.

``parameter_rows()`` is the table as text (one tuple of cells per parameter), so that a test
can check it without Sphinx; the ``sdf-bridge-parameters`` directive renders it. The table is
never written by hand: a parameter added to ``PARAMETERS`` appears in the documentation at the
next build, with its declared type, default, range and description.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive

HEADER = ("parameter", "type", "default", "range", "description")

# rcl_interfaces' ParameterType constants (values fixed by the message definition)
_TYPE_NAMES = {
    1: "bool",
    2: "integer",
    3: "double",
    4: "string",
    5: "byte array",
    6: "bool array",
    7: "integer array",
    8: "double array",
    9: "string array",
}


def _default_text(value: Any) -> str:
    if value == ():
        return "[] (empty)"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return value if value else '""'
    return repr(value)


def _range_text(descriptor: Any) -> str:
    for r in list(descriptor.floating_point_range) + list(descriptor.integer_range):
        return f"{r.from_value!r} .. {r.to_value!r}"
    return ""


def parameter_rows() -> list[tuple[str, str, str, str, str]]:
    """One row ``(name, type, default, range, description)`` per declared parameter, in
    :data:`~sdf_bridge.ros.params.PARAMETERS` order (imports rclpy's message types)."""
    from sdf_bridge.ros.params import PARAMETERS, default

    rows = []
    for name, (_, descriptor) in PARAMETERS.items():
        if descriptor.dynamic_typing:
            type_text = "string or string array"
        else:
            type_text = _TYPE_NAMES.get(descriptor.type, str(descriptor.type))
        rows.append(
            (
                name,
                type_text,
                _default_text(default(name)),
                _range_text(descriptor),
                descriptor.description,
            )
        )
    return rows


def _cell(text: str, literal: bool) -> nodes.entry:
    para = nodes.paragraph()
    if text:
        para += nodes.literal(text, text) if literal else nodes.Text(text)
    return nodes.entry("", para)


class ParameterTable(Directive):
    """``.. sdf-bridge-parameters::``: the table of :func:`parameter_rows`."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        rows = parameter_rows()
        table = nodes.table(classes=["sdf-bridge-parameters"])
        group = nodes.tgroup(cols=len(HEADER))
        table += group
        for width in (18, 10, 10, 12, 50):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        head_row = nodes.row()
        for title in HEADER:
            head_row += _cell(title, literal=False)
        head += head_row
        group += head
        body = nodes.tbody()
        for row in rows:
            body_row = nodes.row()
            for i, text in enumerate(row):
                body_row += _cell(text, literal=i in (0, 2, 3))
            body += body_row
        group += body
        return [table]


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("sdf-bridge-parameters", ParameterTable)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}

"""Hostile inputs shared by the tests (our own, written for the fault classes of issue 12):
xacro that runs code, xacro that grows without end."""

from __future__ import annotations

from pathlib import Path

XACRO_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
#: The seed of :func:`doubling_payload` (16 characters).
SEED = "a" * 16


def doubling_payload(n: int) -> str:
    """``n`` nested doublings of a 16-character property: about 1.4 kB of XML for n = 27, whose
    last property is 16 · 2ⁿ characters (2 GiB for n = 27, 16 GiB for n = 30)."""
    lines = [f'<robot name="d" {XACRO_NS}>', f'<xacro:property name="p0" value="{SEED}"/>']
    lines += [
        f'<xacro:property name="p{i}" value="${{p{i - 1}+p{i - 1}}}"/>' for i in range(1, n + 1)
    ]
    lines += [f'<link name="${{p{n}}}"/>', "</robot>"]
    return "\n".join(lines)


def os_call(function: str, arguments: str) -> str:
    """A xacro expression that calls ``os.<function>(<arguments>)`` (xacro is no sandbox: a
    comprehension's nested scope escapes its check of names and reaches the ``os`` module)."""
    return (
        f"[c.__init__.__globals__['{function}']({arguments}) for x in [1] "
        "for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close']"
    )


def creating(marker: Path) -> str:
    """A xacro expression that would create the file ``marker``."""
    return os_call("system", f"'touch {marker}'")

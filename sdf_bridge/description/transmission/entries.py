"""Reading the elements of one ``<transmission>`` (whatever its dialect): its entries, their
names, roles, values and spellings, with every message naming the transmission, file and line.
The dialects' rules are in :mod:`.dialects`."""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

from ...errors import DescriptionError, DuplicateNameError, InvalidValueError
from ..xmlio import ParseContext

PREFIX = "hardware_interface/"
"""Prefix of ROS 1 hardware interface names (removed where written)."""
CAMEL = "mechanicalReduction"
"""The classic dialect's spelling of a reduction."""
SNAKE = "mechanical_reduction"
"""The ros2_control dialect's spelling of a reduction."""


def elements(elem: etree._Element, tag: str | None = None) -> list[etree._Element]:
    """Element children (comments and processing instructions skipped), optionally by tag."""
    return [c for c in elem if isinstance(c.tag, str) and (tag is None or c.tag == tag)]


class Reader:
    """Reads one ``<transmission>``; carries its name for every message."""

    def __init__(self, elem: etree._Element, ctx: ParseContext, name: str) -> None:
        self.elem = elem
        self.ctx = ctx
        self.name = name

    # -- errors and values --------------------------------------------------------------------

    def error(
        self, cls: type[DescriptionError], at: etree._Element, problem: str, fix: str
    ) -> DescriptionError:
        """An error located at ``at`` whose message names this transmission."""
        return self.ctx.error(cls, at, f"in transmission {self.name!r}: {problem}", fix)

    def warn(self, at: etree._Element, message: str) -> None:
        """A warning located at ``at`` naming this transmission."""
        self.ctx.warn(at, f"in transmission {self.name!r}: {message}")

    def number(self, at: etree._Element, text: str | None, what: str) -> float:
        """``text`` as a finite float.

        Raises:
            InvalidValueError: empty, not a number or not finite.
        """
        try:
            return self.ctx.to_float(at, text, what)
        except InvalidValueError:
            raise self.error(
                InvalidValueError,
                at,
                f"{what} is {text!r}, not a finite number",
                f"write {what} as a decimal number",
            ) from None

    def reduction(self, at: etree._Element, text: str | None, what: str) -> float:
        """A mechanical reduction: a finite, non-zero number (negative reverses direction).

        Raises:
            InvalidValueError: not a number or zero.
        """
        value = self.number(at, text, what)
        if value == 0.0:
            raise self.error(
                InvalidValueError,
                at,
                f"{what} is 0; a transmission with ratio 0 cannot move its joint",
                "give the gear ratio (actuator turns per joint turn), negative to reverse "
                "direction",
            )
        return value

    def required_name(self, at: etree._Element) -> str:
        """The non-empty ``name`` attribute of a joint/actuator entry.

        Raises:
            InvalidValueError: absent or empty.
        """
        name = (at.get("name") or "").strip()
        if not name:
            raise self.error(
                InvalidValueError,
                at,
                f"<{at.tag}> has no name attribute",
                f'add name="..." to the <{at.tag}>',
            )
        return name

    # -- pieces ---------------------------------------------------------------------------------

    def child_reduction(
        self, entry: etree._Element, *, canonical: str
    ) -> tuple[float | None, list[str]]:
        """Reduction written as a child of ``entry`` in either spelling.

        Returns the value (or ``None``) and the list of spellings found. Both spellings with
        different values is an error; the same value twice is accepted.

        Raises:
            InvalidValueError: bad number, zero, or conflicting spellings.
        """
        found: dict[str, float] = {}
        for tag in (CAMEL, SNAKE):
            children = elements(entry, tag)
            if len(children) > 1:
                raise self.error(
                    InvalidValueError,
                    children[1],
                    f"<{tag}> is given {len(children)} times",
                    f"keep one <{tag}>",
                )
            if children:
                found[tag] = self.reduction(children[0], children[0].text, f"<{tag}>")
        if len(set(found.values())) > 1:
            raise self.error(
                InvalidValueError,
                entry,
                f"<{entry.tag} name={entry.get('name')!r}> gives both <{CAMEL}>={found[CAMEL]} and "
                f"<{SNAKE}>={found[SNAKE]}",
                f"keep only <{canonical}>",
            )
        value = next(iter(found.values()), None)
        return value, list(found)

    def offset(self, entry: etree._Element) -> float:
        """``<offset>`` child of a joint entry (0.0 when absent).

        Raises:
            InvalidValueError: not a number.
        """
        children = elements(entry, "offset")
        if not children:
            return 0.0
        return self.number(children[0], children[0].text, "<offset>")

    def role(self, entry: etree._Element) -> str | None:
        """Role of an entry: ``role`` attribute or ``<role>`` child (they must agree)."""
        attr = entry.get("role")
        child = elements(entry, "role")
        text = child[0].text.strip() if child and child[0].text else None
        if attr is not None and text is not None and attr.strip() != text:
            raise self.error(
                InvalidValueError,
                entry,
                f"role attribute {attr!r} and <role>{text}</role> disagree",
                "give the role once",
            )
        if attr is not None:
            return attr.strip() or None
        return text

    def interfaces(self, entry: etree._Element) -> tuple[str, ...]:
        """``<hardwareInterface>`` texts with the ``hardware_interface/`` prefix removed."""
        out = []
        for child in elements(entry, "hardwareInterface"):
            text = (child.text or "").strip()
            if not text:
                raise self.error(
                    InvalidValueError,
                    child,
                    "<hardwareInterface> is empty",
                    "write e.g. hardware_interface/EffortJointInterface",
                )
            out.append(text[len(PREFIX) :] if text.startswith(PREFIX) else text)
        return tuple(out)

    def params(self) -> list[tuple[str, str]]:
        """``<param name>`` children of the transmission.

        Raises:
            InvalidValueError: a ``<param>`` without a name.
        """
        out = []
        for p in elements(self.elem, "param"):
            key = (p.get("name") or "").strip()
            if not key:
                raise self.error(
                    InvalidValueError,
                    p,
                    "<param> has no name attribute",
                    'add name="..." to the <param>',
                )
            out.append((key, (p.text or "").strip()))
        return out

    def extra_params(self, child: etree._Element) -> list[tuple[str, str]]:
        """An uninterpreted child as params: attributes as ``tag.attr``, text as ``tag``."""
        out = [(f"{child.tag}.{k}", v) for k, v in child.attrib.items()]
        text = (child.text or "").strip()
        if text or not child.attrib:
            out.append((child.tag, text))
        return out


def check_roles(
    reader: Reader,
    side: str,
    entries: Iterable[tuple[etree._Element, str | None]],
    valid: frozenset[str] | None,
) -> None:
    """Roles on one side: unique, all-or-none when several entries, and in ``valid`` if given.

    Raises:
        DuplicateNameError: a role used twice.
        InvalidValueError: a role outside ``valid``, or roles on only some entries.
    """
    entries = list(entries)
    choices = ", ".join(sorted(valid)) if valid else f"{side}1, {side}2, ..."
    seen: dict[str, etree._Element] = {}
    for at, role in entries:
        if role is None:
            continue
        if role in seen:
            raise reader.error(
                DuplicateNameError,
                at,
                f"role {role!r} is given to two {side}s ({seen[role].get('name')!r} and "
                f"{at.get('name')!r})",
                f"give each {side} its own role ({choices})",
            )
        if valid is not None and role not in valid:
            raise reader.error(
                InvalidValueError,
                at,
                f"role {role!r} is not a {side} role of this transmission type",
                f"use one of {', '.join(sorted(valid))}",
            )
        seen[role] = at
    if seen and len(seen) != len(entries):
        missing = [at.get("name") for at, role in entries if role is None]
        raise reader.error(
            InvalidValueError,
            entries[0][0],
            f"some {side}s have a role and {missing} do not",
            f"give every {side} a role",
        )

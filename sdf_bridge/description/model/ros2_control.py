"""``<ros2_control>`` hardware components, as ros2_control's component parser reads them."""

from __future__ import annotations

from dataclasses import dataclass

from .source import Source
from .transmission import Transmission

Params = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class InterfaceInfo:
    """A ``<command_interface>`` or ``<state_interface>``.

    Attributes are strings as ros2_control keeps them (``min``/``max``/``initial_value`` may be
    written as expressions the hardware interprets); use :class:`float` where a number is meant.
    ``size`` is 1 unless given. ``parameters`` are its ``<param>`` children.
    """

    name: str
    min: str | None = None
    max: str | None = None
    initial_value: str | None = None
    data_type: str = "double"
    size: int = 1
    enable_limits: bool = True
    parameters: Params = ()

    def written_parameters(self) -> Params:
        """The ``<param>`` children to write back: ``parameters`` in their order, ``min``,
        ``max`` and ``initial_value`` as the fields of those names hold them, so that one the
        reader left out (a ``min`` in quotes, above its ``max``: skipped with a warning, the
        field ``None``) is not written again (a controller_manager would log "Error parsing
        the limits" for it), and each once."""
        fields = {"min": self.min, "max": self.max, "initial_value": self.initial_value}
        written: list[tuple[str, str]] = []
        for key, value in self.parameters:
            if key in fields:
                value = fields.pop(key)
                if value is None:
                    continue
            written.append((key, value))
        written.extend((key, value) for key, value in fields.items() if value is not None)
        return tuple(written)


@dataclass(frozen=True)
class ComponentInfo:
    """A ``<joint>``, ``<sensor>`` or ``<gpio>`` of a hardware component.

    ``type`` is ``"joint"``, ``"sensor"`` or ``"gpio"``. ``is_mimic`` is the ``mimic`` attribute
    (``None`` when absent: then the URDF ``<mimic>`` decides). ``enable_limits`` comes from
    ``<limits enable="...">`` (default true).
    """

    name: str
    type: str
    command_interfaces: tuple[InterfaceInfo, ...] = ()
    state_interfaces: tuple[InterfaceInfo, ...] = ()
    parameters: Params = ()
    is_mimic: bool | None = None
    enable_limits: bool = True
    source: Source | None = None

    def param(self, key: str, default: str | None = None) -> str | None:
        """Value of ``<param name=key>`` or ``default``."""
        return dict(self.parameters).get(key, default)


@dataclass(frozen=True)
class HardwareComponent:
    """A ``<ros2_control>`` block.

    Attributes:
        name: the block's ``name``.
        type: ``"system"``, ``"actuator"`` or ``"sensor"`` (lower-case).
        plugin: ``<hardware><plugin>`` (``<classType>`` in old files), or ``None``.
        parameters: ``<hardware><param>`` values.
        joints, sensors, gpios: the component's entries.
        transmissions: ``<transmission>`` children (ros2_control dialect).
        is_async: the ``is_async`` attribute; ``rw_rate`` the ``rw_rate`` attribute (Hz) or 0.
    """

    name: str
    type: str
    plugin: str | None = None
    parameters: Params = ()
    joints: tuple[ComponentInfo, ...] = ()
    sensors: tuple[ComponentInfo, ...] = ()
    gpios: tuple[ComponentInfo, ...] = ()
    transmissions: tuple[Transmission, ...] = ()
    is_async: bool = False
    rw_rate: int = 0
    source: Source | None = None

    def param(self, key: str, default: str | None = None) -> str | None:
        """Value of ``<hardware><param name=key>`` or ``default``."""
        return dict(self.parameters).get(key, default)

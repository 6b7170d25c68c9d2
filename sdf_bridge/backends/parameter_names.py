"""The parameters a backend is given that are not its own: one warning per configuration.

A backend is given the ``<hardware><param>``\\ s of the description's ``<ros2_control>`` blocks
and the node's ``backend_params.*`` (:func:`~sdf_bridge.hardware.backend_setup.backend_parameters`).
A description written for a real driver (``kortex_driver/KortexMultiInterfaceHardware``:
``robot_ip``, ``username``, ``password``, ``port``, …) brings a dozen parameters that are that
driver's, not the simulator's; a misspelt ``backend_params.timstep`` is one too. Both are ignored
and said so in one warning (:func:`warn_unknown`), which names the parameters, a known one each
probably meant (:func:`~sdf_bridge.util.similarity.close_match`: :mod:`difflib` similarity
or one edit away) and the backend's own parameters once.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable

from ..util.similarity import close_match


def _message(backend: str, unknown: list[str], known: Collection[str]) -> str:
    meant = "".join(
        f"; {name!r} is probably {match!r}"
        for name in unknown
        if (match := close_match(name, known)) is not None
    )
    return (
        f"{backend}: {len(unknown)} parameter(s) not its own, ignored: "
        f"{', '.join(map(repr, unknown))} (the parameters of another plug-in, e.g. a real "
        f"driver's <ros2_control><hardware><param>s, or a misspelt backend_params.*){meant}. "
        f"Its parameters: {', '.join(sorted(known))}"
    )


def warn_unknown(
    log: logging.Logger,
    backend: str,
    keys: Iterable[object],
    known: Collection[str],
    prefixes: tuple[str, ...] = (),
) -> None:
    """Log on ``log`` one warning listing every key of ``keys`` (as strings, in their order)
    that is not in ``known`` (the parameters of ``backend``, e.g. ``"MuJoCo backend"``) and
    does not start with one of ``prefixes`` (flattened mappings such as
    ``pid_gains.<joint>.p``, which their own parser checks), the known parameter each
    probably meant, and ``known`` once; nothing when every key is known."""
    unknown = [str(k) for k in keys if str(k) not in known and not str(k).startswith(prefixes)]
    if unknown:
        log.warning("%s", _message(backend, unknown, known))

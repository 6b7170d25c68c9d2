"""Flattening of one SDFormat ``<model>`` (nested models and includes included) into a
:class:`Robot`.

Two passes: :meth:`ModelBuilder.collect` registers every frame (links, joints, ``<frame>``s,
nested models, scoped with ``::``) in a :class:`~.frames.FrameGraph`; :meth:`ModelBuilder.build`
resolves every pose into the root model frame and produces the model types (the elements
waiting between the passes: :class:`~.scoped.ScopedElement`):

* ``Link.pose`` = ``X_ML`` (link frame in the model frame);
* ``Joint.origin`` = ``X_PJ = X_MP⁻¹·X_MJ`` and ``Joint.joint_to_child`` = ``X_JC = X_MJ⁻¹·X_MC``;
* axes are unit vectors in the joint frame (``R_MJᵀ·R_MF·xyz`` for ``expressed_in="F"``);
  joints are resolved by :mod:`.joint_tree`;
* visual, collision, inertial and sensor poses are in their link frame;
* ``<transmission>`` elements of each (nested) model are read with scoped names
  (:mod:`~sdf_bridge.description.sdf.transmissions`), before those of ``<ros2_control>`` blocks, as
  the URDF loader orders them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from lxml import etree

from ...errors import DuplicateNameError, InvalidValueError, KinematicTreeError, UnsupportedError
from ..contain import contained
from ..model import HardwareComponent, Joint, Link, Plugin, Pose, Robot, Sensor
from ..resolve import PackagePaths
from ..urdf.gazebo import parse_plugin
from ..xmlio import ParseContext, parse_xml, read_file
from . import joints as J
from .frames import MODEL_FRAME, FrameGraph, FrameNode, join, model_frame, parse_pose
from .includes import SUPPORTED_MAX, parse_version, resolve_include
from .joint_tree import WORLD_LINK, check_cycles, resolve_joint
from .links import MeshResolver, _default_resolver, parse_collision, parse_inertial, parse_visual
from .scoped import ScopedElement
from .transmissions import TRANSMISSION_TAGS, read_transmission

#: Most files an include chain may nest (the flattening recurses once per level).
MAX_INCLUDE_DEPTH = 64

#: Lowest SDFormat version read (1.4, the first with today's joint axis semantics).
SUPPORTED_MIN = (1, 4)


def check_version(root: etree._Element, ctx: ParseContext) -> tuple[int, int]:
    """The ``<sdf version>`` as (major, minor).

    Raises:
        UnsupportedError: missing, malformed, or outside 1.4 … 1.11.
    """
    text = root.get("version")
    if text is None:
        raise ctx.error(
            UnsupportedError,
            root,
            "<sdf> has no version attribute",
            'add version="1.9" (or the version the file follows)',
        )
    version = parse_version(text)
    if version is None or not (SUPPORTED_MIN <= version <= SUPPORTED_MAX):
        raise ctx.error(
            UnsupportedError,
            root,
            f"SDFormat version {text!r} is not supported (supported: 1.4 to 1.11)",
            "convert the file with `gz sdf -p` to a version between 1.4 and 1.11",
        )
    return version


@dataclass
class ModelBuilder:
    """Builds one top-level model; see the module docstring.

    Attributes:
        search: include search path; sdf_paths given by the user come first.
        resolve_mesh: mesh URI resolver (:func:`.links.make_mesh_resolver`).
        package_paths: package → directory map for ``package://`` include URIs.
        including: files being included (outermost first), to refuse include loops.
        placements: ``<include><placement_frame>`` requests (model key, frame, element, context).
    """

    search: Sequence[Path]
    resolve_mesh: MeshResolver = _default_resolver
    package_paths: PackagePaths | None = None
    graph: FrameGraph = field(default_factory=FrameGraph)
    links: list[ScopedElement] = field(default_factory=list)
    joints: list[ScopedElement] = field(default_factory=list)
    plugins: list[Plugin] = field(default_factory=list)
    ros2_control: list[ScopedElement] = field(default_factory=list)
    transmissions: list[ScopedElement] = field(default_factory=list)
    _pending: list[tuple[FrameNode, ScopedElement, str | None, str | None]] = field(
        default_factory=list
    )
    model_pose: np.ndarray = field(default_factory=lambda: np.eye(4))
    including: list[Path] = field(default_factory=list)
    placements: list[tuple[str, str, etree._Element, ParseContext]] = field(default_factory=list)

    # -- pass 1 --------------------------------------------------------------------------------

    def collect(
        self,
        elem: etree._Element,
        scope: str,
        ctx: ParseContext,
        base_dir: Path,
        version: tuple[int, int],
        *,
        pose_elem: etree._Element | None = None,
        pose_ctx: ParseContext | None = None,
        parent_scope: str | None = None,
        merged: str | None = None,
        parent_frame: str | None = None,
    ) -> None:
        """Register the frames of model ``elem`` (scope ``scope``; ``""`` for the top model).

        ``pose_elem`` overrides the model's own ``<pose>`` (``<include><pose>``), read with
        ``pose_ctx``; ``parent_scope`` is the enclosing model (``None`` for the top model).
        ``merged``: the model is merged into ``scope`` (``<include merge="true">``, SDFormat
        1.9): its links, joints and frames join the parent model under their own names, and
        its model frame becomes the frame ``merged`` of the parent (libsdformat's
        ``_merged__<name>__model__``), which is what ``__model__`` and unspecified poses of its
        elements refer to. ``parent_frame``: the frame ``__model__`` names in the parent, when
        the parent is itself merged.

        Raises:
            DuplicateNameError: two frames of one model share a name.
            MissingReferenceError, InvalidValueError: from includes and poses.
        """
        key = merged or model_frame(scope)
        canonical = elem.get("canonical_link")
        if parent_scope is None:
            self.graph.add(FrameNode(key, "model", None, np.eye(4), None, elem, ctx))
        else:
            pe = pose_elem if pose_elem is not None else elem.find("pose")
            pctx = pose_ctx if pose_elem is not None else ctx
            node = FrameNode(key, "model", None, parse_pose(pe, pctx), None, elem, pctx)
            # the item's element is the <pose> itself (it may come from an <include> elsewhere)
            self._register(
                node,
                ScopedElement(
                    pe if pe is not None else elem,
                    parent_scope,
                    pctx,
                    base_dir,
                    version,
                    key,
                    parent_frame,
                ),
                pe.get("relative_to") if pe is not None else None,
                None,
            )
        first_link: str | None = None
        first_model: str | None = None
        for child in elem:
            tag = child.tag
            if tag == "link":
                name = self._name(child, ctx, scope)
                lkey = join(scope, name)
                first_link = first_link or lkey
                pe = child.find("pose")
                node = FrameNode(lkey, "link", None, parse_pose(pe, ctx), None, child, ctx)
                self._register(
                    node,
                    ScopedElement(child, scope, ctx, base_dir, version, lkey, merged),
                    pe.get("relative_to") if pe is not None else None,
                    None,
                )
                self.links.append(ScopedElement(child, scope, ctx, base_dir, version, lkey, merged))
            elif tag == "joint":
                name = self._joint_name(child, ctx, scope, version)
                jkey = join(scope, name)
                pe = child.find("pose")
                node = FrameNode(jkey, "joint", None, parse_pose(pe, ctx), None, child, ctx)
                it = ScopedElement(child, scope, ctx, base_dir, version, jkey, merged)
                self._register(
                    node, it, pe.get("relative_to") if pe is not None else None, "__child__"
                )
                self.joints.append(it)
            elif tag == "frame":
                name = self._name(child, ctx, scope)
                fkey = join(scope, name)
                pe = child.find("pose")
                node = FrameNode(fkey, "frame", None, parse_pose(pe, ctx), None, child, ctx)
                self._register(
                    node,
                    ScopedElement(child, scope, ctx, base_dir, version, fkey, merged),
                    pe.get("relative_to") if pe is not None else None,
                    child.get("attached_to") or MODEL_FRAME,
                )
            elif tag == "model":
                name = self._name(child, ctx, scope)
                first_model = first_model or join(scope, name)
                self.collect(
                    child,
                    join(scope, name),
                    ctx,
                    base_dir,
                    version,
                    parent_scope=scope,
                    parent_frame=merged,
                )
            elif tag == "include":
                mkey = self._include(child, scope, ctx, base_dir, merged)
                first_model = first_model or mkey
            elif tag == "plugin":
                plugin = contained(ctx, child, "plugin", lambda c=child: parse_plugin(c, ctx))
                if plugin is not None:
                    self.plugins.append(plugin)
            elif tag == "ros2_control":
                self.ros2_control.append(ScopedElement(child, scope, ctx, base_dir, version))
            elif tag in TRANSMISSION_TAGS:
                self.transmissions.append(ScopedElement(child, scope, ctx, base_dir, version))
        graph_node = self.graph.nodes[key]
        if canonical:
            graph_node.attached_to = join(scope, canonical)
            if graph_node.attached_to not in self.graph.nodes:
                graph_node.attached_to = None
                self.graph.lookup(scope, canonical, elem, ctx, "canonical_link")
        else:
            graph_node.attached_to = first_link or first_model

    def _name(self, elem: etree._Element, ctx: ParseContext, scope: str) -> str:
        name = elem.get("name")
        if not name:
            raise ctx.error(
                InvalidValueError,
                elem,
                f"<{elem.tag}> has no name",
                f'add name="..." to the <{elem.tag}>',
            )
        if name in (MODEL_FRAME, WORLD_LINK) or name.startswith("__") and name.endswith("__"):
            raise ctx.error(
                InvalidValueError,
                elem,
                f"name {name!r} is reserved in SDFormat",
                f"rename the <{elem.tag}> (names like 'world' and '__model__' are reserved)",
            )
        key = join(scope, name)
        if key in self.graph.nodes:
            raise ctx.error(
                DuplicateNameError,
                elem,
                f"name {name!r} is already used by another frame of model {scope or MODEL_FRAME!r}",
                "give every link, joint, frame and nested model of a model a distinct name",
            )
        return name

    def _joint_name(
        self, elem: etree._Element, ctx: ParseContext, scope: str, version: tuple[int, int]
    ) -> str:
        """The name of a ``<joint>``. SDFormat < 1.7 let a joint share a link's name: as
        libsdformat does, such a joint is renamed ``<name>_joint`` (then ``<name>_joint0``,
        ``<name>_joint1``, … while taken), with a warning; from 1.7 on it is an error.

        Raises:
            InvalidValueError, DuplicateNameError: as :meth:`_name`.
        """
        name = elem.get("name")
        if not (version < (1, 7) and name and join(scope, name) in self.graph.nodes):
            return self._name(elem, ctx, scope)
        renamed = f"{name}_joint"
        i = 0
        while join(scope, renamed) in self.graph.nodes:
            renamed = f"{name}_joint{i}"
            i += 1
        ctx.warn(
            elem,
            f"joint {name!r} has the name of another frame of model {scope or MODEL_FRAME!r} "
            f"(allowed before SDFormat 1.7): renamed {renamed!r}, as libsdformat renames it",
        )
        return renamed

    def _register(
        self, node: FrameNode, item: ScopedElement, relative_to: str | None, attached_to: str | None
    ) -> None:
        self.graph.add(node)
        self._pending.append((node, item, relative_to, attached_to))

    def _include(
        self,
        elem: etree._Element,
        scope: str,
        ctx: ParseContext,
        base_dir: Path,
        parent_frame: str | None = None,
    ) -> str:
        uri = ctx.child_text(elem, "uri")
        if not uri:
            raise ctx.error(
                InvalidValueError,
                elem,
                "<include> has no <uri>",
                "add <uri>model://name</uri> or a path",
            )
        path = resolve_include(
            uri, elem, ctx, base_dir=base_dir, paths=self.search, package_paths=self.package_paths
        )
        real = path.resolve()
        if len(self.including) >= MAX_INCLUDE_DEPTH:
            raise ctx.error(
                UnsupportedError,
                elem,
                f"includes nest more than {MAX_INCLUDE_DEPTH} files deep (at {uri!r})",
                "flatten the include chain; real models nest a few levels only",
            )
        if real in self.including:
            raise ctx.error(
                InvalidValueError,
                elem,
                f"include {uri!r} closes an include loop ({str(real)!r} is already being included)",
                "remove the <include> that closes the loop",
            )
        self.including.append(real)
        try:
            return self._include_file(elem, path, uri, scope, ctx, parent_frame)
        finally:
            self.including.pop()

    def _include_file(
        self,
        elem: etree._Element,
        path: Path,
        uri: str,
        scope: str,
        ctx: ParseContext,
        parent_frame: str | None,
    ) -> str:
        sub_ctx = ctx.included(str(path))
        root = parse_xml(read_file(path), str(path), ctx.warnings)
        if root.tag != "sdf":
            raise sub_ctx.error(
                UnsupportedError,
                root,
                f"included file's root is <{root.tag}>, not <sdf>",
                "include an SDFormat model file (URDF includes are not supported)",
            )
        version = check_version(root, sub_ctx)
        model = root.find("model")
        if model is None:
            raise sub_ctx.error(
                InvalidValueError,
                root,
                "included file holds no <model>",
                "include a file with one <model>",
            )
        name = ctx.child_text(elem, "name") or model.get("name")
        if not name:
            raise sub_ctx.error(InvalidValueError, model, "<model> has no name", 'add name="..."')
        for p in elem.findall("plugin"):
            plugin = contained(ctx, p, "plugin", lambda p=p: parse_plugin(p, ctx))
            if plugin is not None:
                self.plugins.append(plugin)
        if J.parse_sdf_bool(ctx, elem, elem.get("merge") or "false", "attribute 'merge'"):
            key = join(scope, f"_merged__{name}__model__")
            self.collect(
                model,
                scope,
                sub_ctx,
                path.parent,
                version,
                pose_elem=elem.find("pose"),
                pose_ctx=ctx,
                parent_scope=scope,
                merged=key,
                parent_frame=parent_frame,
            )
            return key
        self._name(elem if elem.get("name") else _named(elem, name), ctx, scope)
        key = join(scope, name)
        self.collect(
            model,
            key,
            sub_ctx,
            path.parent,
            version,
            pose_elem=elem.find("pose"),
            pose_ctx=ctx,
            parent_scope=scope,
            parent_frame=parent_frame,
        )
        placement = ctx.child_text(elem, "placement_frame")
        if placement:
            if elem.find("pose") is None:
                raise ctx.error(
                    InvalidValueError,
                    elem.find("placement_frame"),
                    "<placement_frame> needs a <pose> in the <include>",
                    "add the <pose> where the placement frame should go",
                )
            self.placements.append((key, placement, elem.find("placement_frame"), ctx))
        return key

    def _apply_placements(self) -> None:
        """``<include><placement_frame>``: pose the model so that frame F lands on the include
        pose, ``X_PM = X_P,pose · X_MF⁻¹`` (innermost includes first).

        Raises:
            MissingReferenceError: F is not a frame of the included model.
            KinematicTreeError: F's pose chain is a cycle.
        """
        g = self.graph
        for key, ref, elem, ctx in self.placements:
            frame = g.lookup(key, ref, elem, ctx, "placement_frame")
            x_mf = np.eye(4)
            cur: str | None = frame
            seen: set[str] = set()
            while cur is not None and cur != key:  # names in the model's scope resolve inside it
                if cur in seen:
                    g.resolve(frame)  # raises the cycle error (nothing cached yet on a cycle)
                seen.add(cur)
                node = g.nodes[cur]
                x_mf = node.pose @ x_mf
                cur = node.relative_to
            model_node = g.nodes[key]
            model_node.pose = model_node.pose @ np.linalg.inv(x_mf)

    def link_pending(self) -> None:
        """Resolve the ``relative_to``/``attached_to`` names registered in pass 1 to graph keys.

        Raises:
            MissingReferenceError: an unknown frame name.
        """
        for node, item, relative_to, attached_to in self._pending:
            g = self.graph
            if attached_to == "__child__":
                child_ref = item.ctx.child_text(item.elem, "child")
                if not child_ref:
                    raise item.ctx.error(
                        InvalidValueError,
                        item.elem,
                        "joint has no <child>",
                        "add <child>link name</child>",
                    )
                node.attached_to = item.lookup(g, child_ref, item.elem.find("child"), "child")
            elif attached_to is not None:
                node.attached_to = item.lookup(g, attached_to, item.elem, "attached_to")
            pe = item.elem.find("pose") if node.kind != "model" else None
            where = pe if pe is not None else item.elem
            if relative_to:
                node.relative_to = item.lookup(g, relative_to, where, "relative_to")
            elif node.kind in ("joint", "frame"):
                node.relative_to = node.attached_to
            else:
                node.relative_to = item.frame or model_frame(item.scope)
            if node.relative_to == node.key:
                raise item.ctx.error(
                    KinematicTreeError,
                    where,
                    f"frame {node.key!r} is relative to itself",
                    "make the pose relative to another frame",
                )

    # -- pass 2 --------------------------------------------------------------------------------

    def _sub_pose(self, elem: etree._Element, item: ScopedElement, frame_key: str) -> Pose:
        """Pose of a sub-element (visual, collision, inertial, sensor) in frame ``frame_key``."""
        pe = elem.find("pose")
        raw = parse_pose(pe, item.ctx)
        rel = pe.get("relative_to") if pe is not None else None
        if not rel:
            return Pose.from_matrix(raw)
        x_mr = self.graph.resolve(item.lookup(self.graph, rel, pe, "relative_to"))
        x_mf = self.graph.resolve(frame_key)
        return Pose.from_matrix(np.linalg.inv(x_mf) @ x_mr @ raw)

    def build(
        self,
        name: str,
        *,
        version: str,
        source_file: str | None,
        pose: Pose,
        static: bool,
        sensor_parser: Callable[..., Sensor],
        ros2_control_parser: Callable[..., HardwareComponent],
    ) -> Robot:
        """Resolve everything and return the :class:`Robot`.

        ``pose`` is the model pose in the world (the world frame of joints to ``world``);
        ``sensor_parser`` and ``ros2_control_parser`` are the shared element parsers.

        A link may be the child of several joints (a loop: libsdformat accepts it); a loop
        closed by a joint other than a gearbox is warned about (the bridge cannot simulate it).

        Raises:
            KinematicTreeError: a joint joins a link to itself, the joints form a cycle of
                parents, or frame cycles.
            MissingReferenceError: unknown parent/child/expressed_in frames.
            InvalidValueError: zero axes and bad values.
        """
        self.link_pending()
        self._apply_placements()
        self.model_pose = pose.matrix()
        g = self.graph
        for key, node in g.nodes.items():  # validate every frame, used or not, as libsdformat does
            g.resolve(key)
            if node.kind == "frame":
                g.attached_link(key)
        sensors: list[Sensor] = []
        links: dict[str, Link] = {}
        for item in self.links:
            x_ml = g.resolve(item.key)
            visuals, collisions = [], []
            inertial = None
            for child in item.elem:  # each contained: a faulty one is skipped (.contain)
                if child.tag == "inertial":
                    inertial = contained(
                        item.ctx,
                        child,
                        "inertial",
                        lambda c=child: parse_inertial(
                            c, item.ctx, self._sub_pose(c, item, item.key)
                        ),
                        name=item.key,
                    )
                elif child.tag in ("visual", "collision"):
                    parse = parse_visual if child.tag == "visual" else parse_collision
                    shape = contained(
                        item.ctx,
                        child,
                        child.tag,
                        lambda c=child, parse=parse: parse(
                            c,
                            item.ctx,
                            self._sub_pose(c, item, item.key),
                            base_dir=item.base_dir,
                            resolve=self.resolve_mesh,
                        ),
                    )
                    if shape is not None:
                        (visuals if child.tag == "visual" else collisions).append(shape)
                elif child.tag == "sensor":
                    s = contained(
                        item.ctx,
                        child,
                        "sensor",
                        lambda c=child: sensor_parser(
                            c, item.ctx, link=item.key, joint=None, origin_format="sdf"
                        ),
                    )
                    if s is None:
                        continue
                    sensors.append(
                        dataclasses.replace(
                            s,
                            name=join(item.scope, s.name),
                            pose=self._sub_pose(child, item, item.key),
                        )
                    )
            links[item.key] = Link(
                name=item.key,
                inertial=inertial,
                visuals=tuple(visuals),
                collisions=tuple(collisions),
                pose=Pose.from_matrix(x_ml),
                gravity=J.bool_element(item.ctx, item.elem.find("gravity"), True),
                source=item.ctx.source(item.elem),
            )
        joints: dict[str, Joint] = {}
        child_of: dict[str, str] = {}
        for item in self.joints:
            joint = resolve_joint(item, g, self.model_pose, child_of)
            joints[joint.name] = joint
            for child in item.elem.findall("sensor"):
                s = contained(
                    item.ctx,
                    child,
                    "sensor",
                    lambda c=child: sensor_parser(
                        c, item.ctx, link=joint.child, joint=joint.name, origin_format="sdf"
                    ),
                )
                if s is None:
                    continue
                sensors.append(
                    dataclasses.replace(
                        s, name=join(item.scope, s.name), pose=self._sub_pose(child, item, item.key)
                    )
                )
        if any(j.parent == WORLD_LINK for j in joints.values()):
            world = Link(name=WORLD_LINK, pose=Pose.from_matrix(np.linalg.inv(self.model_pose)))
            links = {WORLD_LINK: world, **links}
        check_cycles(links, joints)
        hardware = [
            h
            for it in self.ros2_control
            if (
                h := contained(
                    it.ctx,
                    it.elem,
                    "ros2_control",
                    lambda it=it: ros2_control_parser(it.elem, it.ctx),
                )
            )
            is not None
        ]
        # classic / PR2 transmissions of the models, then those of <ros2_control> blocks (as URDF)
        classic = [
            t
            for it in self.transmissions
            if (
                t := contained(
                    it.ctx,
                    it.elem,
                    "transmission",
                    lambda it=it: read_transmission(it.elem, it.ctx, it.scope),
                )
            )
            is not None
        ]
        transmissions = tuple(classic) + tuple(t for hw in hardware for t in hw.transmissions)
        return Robot(
            name=name,
            links=links,
            joints=joints,
            transmissions=transmissions,
            ros2_control=tuple(hardware),
            sensors=tuple(sensors),
            plugins=tuple(self.plugins),
            format="sdf",
            version=version,
            source_file=source_file,
            pose=pose,
            static=static,
        )


def _named(elem: etree._Element, name: str) -> etree._Element:
    """A stand-in element carrying ``name`` at ``elem``'s line, for duplicate-name messages."""
    stand_in = etree.Element("include", name=name)
    stand_in.sourceline = elem.sourceline
    return stand_in

"""The kinematic tree of a flattened SDFormat model: pass 2 of
:mod:`~sdf_bridge.description.sdf.model` for joints.

:func:`resolve_joint` turns each ``<joint>`` into a :class:`Joint` from the resolved frame graph
(parent and child links, ``X_PJ``, ``X_JC``, axes in the joint frame; a parent ``world`` is the
link :data:`WORLD_LINK`); :func:`check_cycles` checks that every link hangs from a root.
"""

from __future__ import annotations

import numpy as np
from lxml import etree

from ...errors import InvalidValueError, KinematicTreeError
from ..kinematics import tree_edges
from ..model import Joint, JointType, Link, Pose, Robot
from . import joints as J
from .frames import FrameGraph, join, model_frame
from .scoped import ScopedElement

#: Name of the link that stands for the world when a joint's parent is ``world`` (the URDF
#: convention: a root link named ``world``); its ``pose`` is the world frame in the model frame.
WORLD_LINK = "world"


def resolve_joint(
    item: ScopedElement, graph: FrameGraph, model_pose: np.ndarray, child_of: dict[str, str]
) -> Joint:
    """The :class:`Joint` of the ``<joint>`` of ``item``, from the resolved frame graph.

    Args:
        item: the joint element with its scope; its frame node's ``attached_to`` is its child
            link's frame (:meth:`~.model.ModelBuilder.link_pending`).
        graph: the model's frame graph, every ``relative_to``/``attached_to`` linked.
        model_pose: (4, 4) transform of the model frame in the world (the frame of a parent
            ``world``).
        child_of: child link → first joint whose child it is, over the joints resolved so far;
            this joint's child is added (a second joint to one child closes a loop: warned
            about unless a gearbox).

    Returns:
        The joint with ``origin`` = ``X_PJ = X_MP⁻¹·X_MJ``, ``joint_to_child`` =
        ``X_JC = X_MJ⁻¹·X_MC`` (m, rad), unit axes in the joint frame (``R_MJᵀ·R_MF·xyz`` for
        ``expressed_in="F"``, the parent model frame for ``use_parent_model_frame`` and
        SDFormat 1.4), screw thread pitch and gearbox parameters.

    Raises:
        InvalidValueError: no ``<parent>``, a zero axis, bad values.
        UnsupportedError: an unknown joint type.
        MissingReferenceError: unknown parent or ``expressed_in`` frames.
        KinematicTreeError: a joint joining a link to itself, ``attached_to`` cycles.
    """
    g = graph
    ctx, elem, scope = item.ctx, item.elem, item.scope
    jtype = J.joint_type(elem, ctx)
    parent_ref = ctx.child_text(elem, "parent")
    if not parent_ref:
        raise ctx.error(
            InvalidValueError, elem, "joint has no <parent>", "add <parent>link name</parent>"
        )
    if parent_ref == "world":
        parent = WORLD_LINK
    else:
        parent = g.attached_link(item.lookup(g, parent_ref, elem.find("parent"), "parent"))
    child = g.attached_link(
        g.nodes[item.key].attached_to,  # type: ignore[arg-type]  # (set to its <child>)
    )
    if parent == child:
        raise ctx.error(
            KinematicTreeError,
            elem,
            f"joint connects link {child!r} to itself",
            "use two different links",
        )
    # a gearbox coupling two joints' children: the norm
    if child in child_of and jtype is not JointType.GEARBOX:
        ctx.warn(
            elem,
            f"joint {item.key!r} closes a kinematic loop: link {child!r} is already the "
            f"child of joint {child_of[child]!r}. libsdformat accepts it; the bridge "
            "keeps the joint in the model but cannot simulate the loop (neither driven "
            "nor published)",
        )
    child_of.setdefault(child, item.key)
    x_mj = g.resolve(item.key)
    x_mp = np.linalg.inv(model_pose) if parent == WORLD_LINK else g.resolve(parent)
    x_mc = g.resolve(child)
    r_mj = x_mj[:3, :3]
    legacy = item.version < (1, 5)

    def express(
        vec: np.ndarray, xyz_elem: etree._Element, expressed_in: str | None, use_parent: bool
    ) -> np.ndarray:
        if expressed_in:
            r_mf = g.resolve(item.lookup(g, expressed_in, xyz_elem, "expressed_in"))[:3, :3]
            return r_mj.T @ (r_mf @ vec)
        if use_parent:
            return r_mj.T @ (g.resolve(item.frame or model_frame(scope))[:3, :3] @ vec)
        return vec

    fields: dict = {}
    if jtype in J.AXIS_TYPES:
        axis, limit, dyn, initial, mimic = J.parse_axis(
            elem.find("axis"), ctx, jtype, express, owner=elem, legacy_model_frame=legacy
        )
        fields.update(
            axis=axis,
            limit=limit,
            dynamics=dyn,
            initial_position=initial,
            mimic=J.parse_mimic(mimic, ctx, lambda n: join(scope, n)),
        )
        a2 = elem.find("axis2")
        if a2 is not None:  # (absent: None, as libsdformat reads it; SDF_DEFAULT_AXIS2 applies)
            axis2, limit2, dyn2, _init2, mimic2 = J.parse_axis(
                a2, ctx, jtype, express, owner=elem, legacy_model_frame=legacy
            )
            fields.update(axis2=axis2, limit2=limit2, dynamics2=dyn2)
            if mimic2 is not None:
                ctx.warn(mimic2, "<mimic> on <axis2> is not supported; ignored")
    if jtype is JointType.SCREW:
        pitch = ctx.child_float(elem, "screw_thread_pitch")
        if pitch is not None:
            fields.update(thread_pitch=pitch, thread_pitch_unit="m/rev")
        else:
            fields.update(
                thread_pitch=ctx.child_float(elem, "thread_pitch", 1.0),
                thread_pitch_unit="rad/m",
            )
    if jtype is JointType.GEARBOX:
        ref = ctx.child_text(elem, "gearbox_reference_body")
        fields.update(
            gearbox_ratio=ctx.child_float(elem, "gearbox_ratio", 1.0),
            gearbox_reference_body=join(scope, ref) if ref else None,
        )
    physics = elem.find("physics")
    if physics is not None:  # <physics><provide_feedback>, or <ode>'s (as urdf2sdf writes it)
        ode = physics.find("ode")
        feedback = [
            J.bool_element(ctx, e.find("provide_feedback"), False)
            for e in (physics, ode)
            if e is not None and e.find("provide_feedback") is not None
        ]
        fields.update(provide_feedback=any(feedback))
    return Joint(
        name=item.key,
        type=jtype,
        parent=parent,
        child=child,
        origin=Pose.from_matrix(np.linalg.inv(x_mp) @ x_mj),
        joint_to_child=Pose.from_matrix(np.linalg.inv(x_mj) @ x_mc),
        source=ctx.source(elem),
        **fields,
    )


def check_cycles(links: dict[str, Link], joints: dict[str, Joint]) -> None:
    """Every link hangs from a root through joints (a loop closed by a joint is allowed;
    :func:`~sdf_bridge.description.kinematics.tree_edges`).

    Raises:
        KinematicTreeError: links whose parent joints only form a cycle (no root above them).
    """
    placed = {name for name, _ in tree_edges(Robot(name="", links=links, joints=joints))[0]}
    for j in joints.values():
        if j.child not in placed:
            assert j.source is not None
            raise KinematicTreeError(
                f"the joints form a cycle through link {j.child!r}",
                file=j.source.file,
                line=j.source.line,
                element=f'<joint name="{j.name}">',
                fix="remove one joint of the cycle (every link needs a root above it)",
            )

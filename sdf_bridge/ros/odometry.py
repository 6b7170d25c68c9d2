"""Ground-truth odometry of a free-floating robot: ``odom`` (nav_msgs/Odometry) and, where
tf2_msgs is installed, the TF ``odom → <base frame>``.

The backend gives the root link's state through the port
(:class:`~sdf_bridge.backends.base.BaseState`, ``HardwareSystem.base_state()``); this module
only turns it into messages. Conventions (REP-105, nav_msgs/Odometry):

* ``header.frame_id`` = the odometry frame (parameter ``odom_frame``, default ``odom``), which
  is the simulation's world frame: the pose is the root link's pose in the world, exactly
  MuJoCo's body pose;
* ``child_frame_id`` = the base frame (``base_frame``, default the root link, e.g.
  ``base_link``), and the twist is the root link's, expressed in that frame;
* the stamp is that of the tick's other messages (simulated time on ``use_sim_time``);
* covariance: all zeros. The pose and twist are the simulator's ground truth, exact, like
  gazebo_ros_p3d without ``gaussianNoise``; an estimator that needs a positive covariance
  (robot_localization treats 0 as unknown) should set its own.

TF (tf2_msgs/TFMessage on ``/tf``) is published only when ``tf2_msgs`` can be imported (it is
not installable from PyPI: a ROS 2 installation has it); otherwise the node says so once.
"""

from __future__ import annotations

from typing import Any

from builtin_interfaces.msg import Time
from geometry_msgs.msg import Quaternion, TransformStamped, Vector3
from nav_msgs.msg import Odometry
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy

from ..backends.base import BaseState

ODOM_QOS = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE)
"""QoS of ``odom`` (reliable, keep last 10, as diff_drive_controller's odometry)."""


def odometry_msg(
    state: BaseState, stamp: Time, odom_frame: str, base_frame: str, frame_prefix: str = ""
) -> Odometry:
    """nav_msgs/Odometry of ``state`` at ``stamp`` (module docstring: frames, twist frame,
    covariance); ``base_frame`` empty: the state's link; ``frame_prefix`` (the bridge's
    parameter, as robot_state_publisher's) goes before both frames."""
    msg = Odometry()
    msg.header.stamp = stamp
    msg.header.frame_id = frame_prefix + odom_frame
    msg.child_frame_id = frame_prefix + (base_frame or state.link)
    p, q = state.position, state.orientation
    msg.pose.pose.position.x, msg.pose.pose.position.y, msg.pose.pose.position.z = (
        float(v) for v in p
    )
    msg.pose.pose.orientation = Quaternion(
        x=float(q[0]), y=float(q[1]), z=float(q[2]), w=float(q[3])
    )
    v, w = state.linear_velocity, state.angular_velocity
    msg.twist.twist.linear = Vector3(x=float(v[0]), y=float(v[1]), z=float(v[2]))
    msg.twist.twist.angular = Vector3(x=float(w[0]), y=float(w[1]), z=float(w[2]))
    return msg


def transform_msg(odom: Odometry) -> TransformStamped:
    """The ``odom_frame → base_frame`` transform of an odometry message."""
    t = TransformStamped()
    t.header = odom.header
    t.child_frame_id = odom.child_frame_id
    position = odom.pose.pose.position
    t.transform.translation = Vector3(x=position.x, y=position.y, z=position.z)
    t.transform.rotation = odom.pose.pose.orientation
    return t


class OdometryPublisher:
    """``odom`` and (where tf2_msgs is importable) ``/tf`` of one node (module docstring).

    Args:
        node: the node that owns the publishers and whose logger speaks.
        odom_frame: the odometry frame (REP-105 ``odom``).
        base_frame: the base frame (``""``: the root link, :attr:`BaseState.link`).
        tf: publish TF ``odom_frame → base_frame`` (when tf2_msgs is importable).
        frame_prefix: before both frames (the bridge's ``frame_prefix``, e.g. ``left/``).
    """

    def __init__(
        self, node: Node, odom_frame: str, base_frame: str, tf: bool, frame_prefix: str = ""
    ) -> None:
        self.node, self.odom_frame, self.base_frame = node, odom_frame, base_frame
        self.frame_prefix = frame_prefix
        self.odom_pub = node.create_publisher(Odometry, "odom", ODOM_QOS)
        self.tf_pub: Any = None
        self._tf_message: Any = None
        if tf:
            try:
                from tf2_msgs.msg import TFMessage
            except ImportError:
                node.get_logger().info(
                    f"tf2_msgs is not installed: the TF {odom_frame} → "
                    f"{base_frame or 'the root link'} is not published (the odometry is, on "
                    "'odom'). Fix: install tf2_msgs (part of a ROS 2 installation; not on "
                    "PyPI)"
                )
            else:
                self._tf_message = TFMessage
                self.tf_pub = node.create_publisher(TFMessage, "/tf", 100)

    def wanted(self) -> bool:
        """Whether anybody subscribes to ``odom`` or ``/tf`` (one subscriber count per
        topic; doc/dev/rationale.md)."""
        return bool(
            self.odom_pub.get_subscription_count()
            or (self.tf_pub is not None and self.tf_pub.get_subscription_count())
        )

    def publish(self, state: BaseState, stamp: Time) -> None:
        """Publish ``state`` at ``stamp`` on ``odom`` and, when enabled and available, on
        ``/tf``."""
        msg = odometry_msg(state, stamp, self.odom_frame, self.base_frame, self.frame_prefix)
        self.odom_pub.publish(msg)
        if self.tf_pub is not None:
            self.tf_pub.publish(self._tf_message(transforms=[transform_msg(msg)]))

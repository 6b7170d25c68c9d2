"""IMU and force-torque readings converted on access: equal to the eager formulas they replace,
taken at read time (not changed by later physics), noise independent of what is accessed.

"Equal" is exact (``==``, so a zero's sign is not compared) unless a tolerance is stated.
"""

from __future__ import annotations

import mujoco
import numpy as np
import pytest
from mujoco_helpers import G, pendulum_urdf

from sdf_bridge.backends.mujoco.noise import ImuNoise, channel_seed
from sdf_bridge.backends.mujoco.readings import SensorReadings
from sdf_bridge.backends.mujoco.samplers import ImuSampler
from sdf_bridge.backends.sensor_readings import ImuReading, WrenchReading
from sdf_bridge.description.model import ImuParams

GRAVITY = {"gravity": [0.0, 0.0, -G]}

IMU_NOISE = """<imu>
  <angular_velocity>{axes_gyro}</angular_velocity>
  <linear_acceleration>{axes_acc}</linear_acceleration></imu>"""
AXIS = (
    '<{a}><noise type="gaussian"><mean>{m}</mean><stddev>{s}</stddev><bias_mean>{bm}</bias_mean>'
    "<bias_stddev>0.01</bias_stddev></noise></{a}>"
)
GYRO_AXES = "".join(AXIS.format(a=a, m=0.001 * k, s=0.02, bm=0.003) for k, a in enumerate("xyz"))
ACC_AXES = "".join(AXIS.format(a=a, m=-0.01, s=0.1 + k, bm=0.0) for k, a in enumerate("xyz"))


def _robot(
    ft_frame: str = "child",
    direction: str = "child_to_parent",
    imus: tuple[str, ...] = ("imu",),
    gyro: str = GYRO_AXES,
    acc: str = ACC_AXES,
) -> str:
    """A swinging arm (joint j about y) with a posed force-torque sensor on j and noisy IMUs on
    the arm, all at 100 Hz."""
    sensors = "".join(
        f'<sensor name="{name}" type="imu"><update_rate>100</update_rate><pose>0.1 0 -0.2 0.2 0 '
        "0</pose>"
        f"{IMU_NOISE.format(axes_gyro=gyro, axes_acc=acc)}</sensor>"
        for name in imus
    )
    extra = f"""
  <gazebo reference="arm">{sensors}</gazebo>
  <gazebo reference="j">
    <sensor name="ft" type="force_torque"><update_rate>100</update_rate>
      <pose>0.1 0.2 -0.3 0.3 -0.2 0.5</pose>
      <force_torque><frame>{ft_frame}</frame><measure_direction>{direction}</measure_direction>
        </force_torque>
    </sensor>
  </gazebo>"""
    return pendulum_urdf(mass=2.0, com_xyz="0.5 0 -0.2", extra=extra)


def _channel(sim, name: str):
    return next(ch for ch in sim.backend.sensors.channels if ch.sensor.name == name)


def _eager_wrench(sim, name: str) -> WrenchReading:
    """The eager reader this package had, on the current data (the reference)."""
    m, d = sim.backend.model, sim.backend.data
    ch = _channel(sim, name)
    params = ch.sensor.params
    sign = -1.0 if params.measure_direction == "child_to_parent" else 1.0
    fa, ta, site = ch.ids["force"], ch.ids["torque"], ch.ids["site"]
    force = d.sensordata[fa : fa + 3] * sign
    torque = d.sensordata[ta : ta + 3] * sign
    if params.frame == "child":
        flat = np.zeros(9)
        mujoco.mju_quat2Mat(flat, m.site_quat[site])
        rot, pos = flat.reshape(3, 3), [float(v) for v in m.site_pos[site]]
        force = rot @ force
        f = force.tolist()
        t = (rot @ torque).tolist()
        cross = (
            pos[1] * f[2] - pos[2] * f[1],
            pos[2] * f[0] - pos[0] * f[2],
            pos[0] * f[1] - pos[1] * f[0],
        )
        return WrenchReading(tuple(f), (t[0] + cross[0], t[1] + cross[1], t[2] + cross[2]))
    if params.frame == "parent":
        site_world = d.site_xmat[site].reshape(3, 3)
        parent_world = d.xmat[int(m.body_parentid[ch.ids["body"]])].reshape(3, 3)
        r = parent_world.T @ site_world
        force, torque = r @ force, r @ torque
    return WrenchReading(tuple(force.tolist()), tuple(torque.tolist()))


def _eager_imu(sim, name: str, z: list[float] | None) -> ImuReading:
    """The eager IMU formula on the current data with the normal values ``z`` of the sample
    (both parts noisy): ((v + bias) + mean) + z·stddev, with the variances stddev²."""
    ch = _channel(sim, name)
    sd = sim.backend.data.sensordata
    a = ch.ids["quat"]
    w, x, y, zq, *rest = sd[a : a + 10].tolist()
    if z is None:
        return ImuReading((x, y, zq, w), tuple(rest[:3]), tuple(rest[3:]))
    rest = [v + b + m + n * s for v, (b, m, s), n in zip(rest, ch.noise.terms, z)]
    var = [s * s for _, _, s in ch.noise.terms]
    return ImuReading(
        (x, y, zq, w), tuple(rest[:3]), tuple(rest[3:]), tuple(var[:3]), tuple(var[3:])
    )


def _noise_stream(sim, name: str, seed: int) -> ImuNoise:
    """A second generator of the documented noise stream of IMU ``name``."""
    params = _channel(sim, name).sensor.params
    assert isinstance(params, ImuParams)
    return ImuNoise(
        params.angular_velocity_noise,
        params.linear_acceleration_noise,
        channel_seed(np.random.SeedSequence(seed), name),
    )


def _scramble(sim, rng: np.random.Generator) -> None:
    """Arbitrary raw data (sensordata, world rotations) in place of the physics' values."""
    d = sim.backend.data
    d.sensordata[:] = rng.normal(0.0, 50.0, d.sensordata.shape)
    d.site_xmat[:] = rng.normal(0.0, 1.0, d.site_xmat.shape)
    d.xmat[:] = rng.normal(0.0, 1.0, d.xmat.shape)


@pytest.mark.parametrize("frame", ["sensor", "child", "parent"])
@pytest.mark.parametrize("direction", ["child_to_parent", "parent_to_child"])
def test_force_torque_equals_eager_formula(make_sim, frame, direction) -> None:
    """Physics values and 200 arbitrary raw data sets: the lazy reading == the eager one."""
    sim = make_sim(_robot(frame, direction), {**GRAVITY, "noise_seed": 5})
    sim.effort([3.0])
    sim.run(0.13)
    rng = np.random.default_rng(11)
    for k in range(201):
        if k:
            _scramble(sim, rng)
        expected = _eager_wrench(sim, "ft")
        sim.backend.sensors.reset()
        readings = sim.backend.sensors.read_due(sim.backend.data.time)
        assert readings["ft"] == expected
    assert np.linalg.norm(expected.force) > 1.0  # non-trivial data


def test_imu_with_noise_equals_eager_formula(make_sim) -> None:
    """The k-th reading: the eager formula with row k of the documented stream; physics values
    then 100 arbitrary raw data sets."""
    sim = make_sim(_robot(), {**GRAVITY, "noise_seed": 5})
    taken = sum("imu" in state.sensors for state in sim.run(0.1))
    stream = _noise_stream(sim, "imu", 5)
    for _ in range(taken):
        stream.take()  # the samples of sim.run
    rng = np.random.default_rng(12)
    for k in range(101):
        if k:
            _scramble(sim, rng)
        expected = _eager_imu(sim, "imu", stream.take())
        sim.backend.sensors.reset()
        reading = sim.backend.sensors.read_due(sim.backend.data.time)["imu"]
        assert reading == expected
        assert reading.linear_acceleration != _eager_imu(sim, "imu", None).linear_acceleration


def test_imu_with_one_noisy_part(make_sim) -> None:
    """Only the acceleration noisy: the angular velocity is MuJoCo's value unchanged."""
    sim = make_sim(_robot(gyro=""), {**GRAVITY, "noise_seed": 5})
    sim.effort([3.0])
    taken = sum("imu" in state.sensors for state in sim.run(0.1))
    stream = _noise_stream(sim, "imu", 5)
    for _ in range(taken):
        stream.take()
    z = stream.take()
    ch = _channel(sim, "imu")
    reading = sim.read(0.01).sensors["imu"]
    raw = sim.backend.data.sensordata[ch.ids["quat"] : ch.ids["quat"] + 10].tolist()
    assert reading.angular_velocity == tuple(raw[4:7])
    terms = ch.noise.terms
    assert reading.linear_acceleration == tuple(
        v + b + m + n * s for v, (b, m, s), n in zip(raw[7:], terms, z)
    )
    assert max(abs(v) for v in raw[4:7]) > 0.1  # swinging: a real angular velocity


def test_readings_are_taken_at_read_time(make_sim) -> None:
    """Read, step physics 20 ms on, then access: the values of the read's instant (the eager
    formulas evaluated before the steps), while the live data has changed."""
    sim = make_sim(_robot("parent"), {**GRAVITY, "noise_seed": 5})
    sim.effort([3.0])
    taken = sum("imu" in state.sensors for state in sim.run(0.1))
    stream = _noise_stream(sim, "imu", 5)
    for _ in range(taken):
        stream.take()
    readings = sim.read(0.01).sensors
    expected_ft, expected_imu = _eager_wrench(sim, "ft"), _eager_imu(sim, "imu", stream.take())
    sim.backend.step(20)
    assert _eager_wrench(sim, "ft").force != pytest.approx(expected_ft.force, abs=1e-3)
    assert readings["ft"] == expected_ft
    assert readings["imu"] == expected_imu


def test_noise_does_not_depend_on_access(make_sim) -> None:
    """Two runs, same seed: one accesses every reading of both IMUs; the other only every third
    read's, the second IMU before the first: the readings it accessed are the same."""
    params = {**GRAVITY, "noise_seed": 9}
    urdf = _robot(imus=("imu_a", "imu_b"))
    full, sparse = make_sim(urdf, params), make_sim(urdf, params)
    for sim in (full, sparse):
        sim.effort([3.0])
    seen_full, seen_sparse = [], []
    for k in range(30):
        a = full.read(0.01).sensors
        seen_full.append((a["imu_a"], a["imu_b"]))
        b = sparse.read(0.01).sensors
        assert "imu_a" in b and len(b) == 3
        if k % 3 == 0:
            imu_b = b["imu_b"]
            seen_sparse.append((b["imu_a"], imu_b))
    assert seen_sparse == seen_full[::3]
    assert seen_full[0][0] != seen_full[0][1]  # the two IMUs have noises of their own


def test_noise_does_not_depend_on_other_sensors(make_sim) -> None:
    """IMU ``imu_b`` alone or after ``imu_a``: the same readings (its generator is seeded by
    the seed and its name)."""
    params = {**GRAVITY, "noise_seed": 9}
    alone, both = (
        make_sim(_robot(imus=("imu_b",)), params),
        make_sim(_robot(imus=("imu_a", "imu_b")), params),
    )
    for _ in range(5):
        assert alone.backend.read(0.01).sensors["imu_b"] == both.backend.read(0.01).sensors["imu_b"]


def test_noise_continues_across_reset(make_sim) -> None:
    """A backend reset makes the sensors due but does not restart their noise: the reading
    after it is the next sample of the stream."""
    sim = make_sim(_robot(), {**GRAVITY, "noise_seed": 5})
    first = sim.read(0.01).sensors["imu"]
    sim.backend.reset()
    stream = _noise_stream(sim, "imu", 5)
    stream.take()
    expected = _eager_imu(sim, "imu", stream.take())
    again = sim.backend.sensors.read_due(sim.backend.data.time)
    assert again["imu"] == expected and again["imu"] != first


def test_read_gives_sensor_readings(make_sim) -> None:
    sim = make_sim(_robot(), GRAVITY)
    assert isinstance(sim.read(0.01).sensors, SensorReadings)


def test_imu_sampler_with_scattered_offsets() -> None:
    """Values not in one run (another model's layout): read from each offset, the same reading."""
    values = np.arange(1.0, 11.0)  # quat 1..4, gyro 5..7, acc 8..10
    scattered = np.zeros(14)
    scattered[[0, 1, 2, 3]], scattered[[6, 7, 8]], scattered[[11, 12, 13]] = (
        values[:4],
        values[4:7],
        values[7:],
    )
    contiguous, spread = ImuSampler(0, 4, 7, None), ImuSampler(0, 6, 11, None)
    expected = ImuReading((2.0, 3.0, 4.0, 1.0), (5.0, 6.0, 7.0), (8.0, 9.0, 10.0))
    assert contiguous.convert(contiguous.sample(values)) == expected
    assert spread.convert(spread.sample(scattered)) == expected

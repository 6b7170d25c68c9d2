"""ament_python build for sdf_bridge (also installs with plain ``pip install .``)."""

from glob import glob

from setuptools import find_packages, setup

PACKAGE = "sdf_bridge"

setup(
    name=PACKAGE,
    version="0.1.0",
    packages=find_packages(exclude=["test", "test.*", "bench"]),
    data_files=[
        ("share/ament_index/resource_index/packages", [f"resource/{PACKAGE}"]),
        (f"share/{PACKAGE}", ["package.xml"]),
        (f"share/{PACKAGE}/launch", glob("launch/*.launch.py")),
        (f"share/{PACKAGE}/config", glob("config/*")),
        (f"share/{PACKAGE}/urdf", glob("urdf/*")),
    ],
    package_data={PACKAGE: ["data/*"]},
    include_package_data=True,
    install_requires=["setuptools", "lxml", "numpy", "PyYAML", "xacro"],
    # mujoco >= 4.0, the first release the backend's tests pass on: before 3.7 MjSpec joints take
    # no polynomial damping and mj_multiRay has no normal output (TypeErrors); 3.7-3.17 read an
    # IMU on a link welded to the world as 0 instead of +g and lack mujoco.Renderer when no GL
    # platform loads. trimesh converts the mesh formats MuJoCo cannot read (COLLADA, ASCII STL).
    extras_require={
        "mujoco": ["mujoco>=4.0", "trimesh"],
        # ruff: test/test_style.py checks the layout of ruff 0.17's ``ruff format``
        "test": ["pytest", "pytest-timeout", "hypothesis", "ruff>=0.17,<0.18", "urdfdom-py"],
        # (pytest-timeout: setup.cfg's per-test bound, so a hang fails one test, not the suite;
        # urdfdom-py: test/description/test_export_limits.py reads exports as urdfdom does)
        # the documentation (doc/, Sphinx in rosdoc2's layout; test/doc/test_doc_build.py builds
        # it): MyST for its Markdown pages, matplotlib for the pictures doc/scripts/ draws
        "doc": ["sphinx>=7", "myst-parser>=2", "matplotlib"],
    },
    zip_safe=True,
    maintainer="sdf_bridge maintainers",
    maintainer_email="maintainers@sdf-bridge.dev",
    description="Robot description + transmissions to a ROS 2 hardware-interface bridge.",
    license="Apache-2.0",
    python_requires=">=3.10",
    entry_points={
        "console_scripts": [
            "sdf-bridge = sdf_bridge.ros.command_line:main",
            "bridge = sdf_bridge.ros.main:main",
        ],
    },
)

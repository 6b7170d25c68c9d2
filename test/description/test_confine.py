"""sdf_bridge.description.confine through the loader: a description from the network
(``network=True``, as the node loads the ``robot_description`` topic and parameter) names no
local file. ``file://`` URIs and absolute paths are refused before any look-up (the same
message whether the file exists or not, nothing of it quoted); ``model://`` and ``package://``
resolve only to regular files inside the configured directories; nothing blocks."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sdf_bridge.description import load, load_with_warnings, xmlio
from sdf_bridge.description.sdf.includes import ENV_VARS
from sdf_bridge.errors import DescriptionError, PathResolutionError, UnexpandedXacroError

#: What a file the network names holds; never in any message.
SECRET = "SECRET_7f3a9c"
#: A file that is XML, with the secret where errors quote (a root name, a mismatched tag).
SECRET_XML = (
    f'<sdf version="1.9"><model name="{SECRET}_name"><link name="a"/></{SECRET}_tag></sdf>\n'
)
MODEL = (
    '<sdf version="1.9"><model name="arm"><link name="a"/><link name="b"/>'
    '<joint name="elbow" type="revolute"><parent>a</parent><child>b</child>'
    "<axis><xyz>0 0 1</xyz></axis></joint></model></sdf>"
)
#: A refusal of the rule, as the message states it (any URI).
REFUSED_LOCAL = (
    r"<include>: refused: include '.*' is (a file:// URI|an absolute path) in a "
    r"robot_description from the network, which may not name local files\. Fix: set "
    r"allow_local_files:=true"
)
REFUSED_OUTSIDE = (
    r"<include>: refused: include '.*' in a robot_description from the network resolves "
    r"outside the configured package and model directories"
)
#: Longest a refusal may take, s (it touches no file; a blocked read would never return).
QUICK = 5.0


def world_including(uri: str) -> str:
    """A network description: a world holding the include of ``uri`` (its ``<include>`` on
    line 3)."""
    return (
        '<sdf version="1.9">\n<world name="w">\n'
        f"<include><uri>{uri}</uri></include>\n</world></sdf>"
    )


def within(seconds: float, function: Callable[[], Any]) -> Any:
    """``function()`` run in a daemon thread: its result, or the exception it raised; fails the
    test when it has not returned within ``seconds`` (a read that blocks)."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(function())
        except BaseException as exc:  # handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        pytest.fail(f"still running after {seconds} s: the loader blocked")
    return outcome[0]


def refusal(uri: str, **options: Any) -> DescriptionError:
    """The error of loading :func:`world_including` ``uri`` from the network (quickly)."""
    result = within(QUICK, lambda: load(world_including(uri), network=True, **options))
    assert isinstance(result, DescriptionError), f"loaded {uri!r}: {result!r}"
    assert type(result).__name__ == "RefusedPathError", result
    assert isinstance(result, PathResolutionError)
    assert SECRET not in str(result)
    return result


@pytest.fixture(autouse=True)
def _no_resource_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search path is only what each test configures."""
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A local file outside every configured directory."""
    path = tmp_path / "private" / "secret.sdf"
    path.parent.mkdir()
    path.write_text(SECRET_XML)
    return path


@pytest.fixture
def models(tmp_path: Path) -> Path:
    """A configured model directory holding ``arm`` (model.sdf)."""
    root = tmp_path / "models"
    (root / "arm").mkdir(parents=True)
    (root / "arm" / "model.sdf").write_text(MODEL)
    return root


@pytest.mark.parametrize("form", ["file://{}", "{}", "FILE://{}", "file:{}"])
def test_a_local_file_is_refused_naming_the_uri_element_and_line(secret: Path, form: str) -> None:
    uri = form.format(secret)
    error = refusal(uri)
    assert error.line == 3 and error.element == "<include>"
    with pytest.raises(DescriptionError, match=REFUSED_LOCAL):
        raise error
    assert repr(uri) in str(error)


def test_the_refusal_is_the_same_whether_the_file_exists_or_not(secret: Path) -> None:
    missing = secret.with_name("missing.sdf")
    directory = secret.parent
    for form in ("file://{}", "{}"):
        messages = {
            str(refusal(form.format(path))).replace(str(path), "PATH")
            for path in (secret, missing, directory)
        }
        assert len(messages) == 1, messages


def test_proc_kmsg_is_refused_at_once() -> None:
    """Reading /proc/kmsg (as root) blocks until the kernel logs: the executor stalled."""
    for uri in ("/proc/kmsg", "file:///proc/kmsg"):
        with pytest.raises(DescriptionError, match=REFUSED_LOCAL):
            raise refusal(uri)


def test_a_model_path_into_proc_is_refused_at_once(tmp_path: Path) -> None:
    """A symlink inside a configured directory to /proc/kmsg, and /proc itself on the search
    path: no file of /proc is opened."""
    root = tmp_path / "models"
    (root / "evil").mkdir(parents=True)
    (root / "evil" / "model.sdf").symlink_to("/proc/kmsg")
    (root / "kmsg.sdf").symlink_to("/proc/kmsg")
    for uri, paths in (("model://evil", [root]), ("kmsg.sdf", [root]), ("model://kmsg", ["/proc"])):
        with pytest.raises(DescriptionError, match=REFUSED_OUTSIDE):
            raise refusal(uri, sdf_paths=paths)


def test_a_fifo_is_refused_and_nothing_blocks(tmp_path: Path, models: Path) -> None:
    """A FIFO blocks its reader until a writer comes: by its path it is refused as any local
    file; inside a configured directory it is no regular file, never opened."""
    fifo = tmp_path / "pipe.sdf"
    os.mkfifo(fifo)
    with pytest.raises(DescriptionError, match=REFUSED_LOCAL):
        raise refusal(f"file://{fifo}")
    (models / "piped").mkdir()
    os.mkfifo(models / "piped" / "model.sdf")
    os.mkfifo(models / "pipe.sdf")
    for uri in ("model://piped", "pipe.sdf"):
        text = world_including(uri)
        result = within(QUICK, lambda t=text: load(t, network=True, sdf_paths=[models]))
        assert isinstance(result, DescriptionError), result
        assert "not found" in str(result) or "neither model.config nor model.sdf" in str(result)


def test_a_symlink_out_of_a_package_is_refused(tmp_path: Path, secret: Path) -> None:
    """package:// and model:// resolve inside their directory with symlinks followed: a link
    (to a file, or to a directory) out of it is refused, and the target's content is not
    quoted."""
    bots = tmp_path / "bots"
    (bots / "models" / "arm").mkdir(parents=True)
    (bots / "models" / "arm" / "model.sdf").symlink_to(secret)
    (bots / "models" / "outside").symlink_to(secret.parent, target_is_directory=True)
    (secret.parent / "model.sdf").write_text(SECRET_XML)
    packages = {"bots": str(bots)}
    for uri in ("package://bots/models/arm", "package://bots/models/outside"):
        with pytest.raises(DescriptionError, match=REFUSED_OUTSIDE):
            raise refusal(uri, package_paths=packages)
    for uri in ("model://arm", "model://outside", "model://../private/secret.sdf"):
        with pytest.raises(DescriptionError, match=REFUSED_OUTSIDE):
            raise refusal(uri, sdf_paths=[bots / "models"])


def test_a_model_config_naming_a_file_outside_is_refused(models: Path, secret: Path) -> None:
    (models / "cfg").mkdir()
    (models / "cfg" / "model.config").write_text(
        f'<model><name>x</name><sdf version="1.9">{secret}</sdf></model>'
    )
    with pytest.raises(DescriptionError, match=REFUSED_OUTSIDE):
        raise refusal("model://cfg", sdf_paths=[models])


def test_an_oversized_file_is_refused_without_its_size_or_content(
    secret: Path, models: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Named by its path: the rule's refusal (no size: that tells the file exists); inside a
    configured directory: the size cap, before anything is read."""
    monkeypatch.setattr(xmlio, "MAX_XML_BYTES", 200)
    secret.write_text(SECRET_XML * 10)
    error = refusal(f"file://{secret}")
    assert "bytes" not in str(error)
    (models / "big" / "model.sdf").parent.mkdir()
    (models / "big" / "model.sdf").write_text(SECRET_XML * 10)
    with pytest.raises(DescriptionError, match=r"model\.sdf: file is \d+ bytes, over the 200-byte"):
        load(world_including("model://big"), network=True, sdf_paths=[models])


def test_package_and_model_uris_under_configured_directories_load(
    tmp_path: Path, models: Path
) -> None:
    """What the rule allows: package:// through package_paths, model:// and a bare name
    through the search path, a relative include from an included file beside it."""
    bots = tmp_path / "bots"
    (bots / "urdf").mkdir(parents=True)
    (bots / "urdf" / "arm.sdf").write_text(MODEL)
    (models / "outer").mkdir()
    (models / "outer" / "model.sdf").write_text(
        '<sdf version="1.9"><model name="outer"><link name="o"/>'
        "<include><uri>../arm/model.sdf</uri><name>inner</name></include></model></sdf>"
    )
    cases = (
        ("package://bots/urdf/arm.sdf", {"package_paths": {"bots": str(bots)}}),
        ("model://arm", {"sdf_paths": [models]}),
        ("arm", {"sdf_paths": [models]}),
    )
    for uri, options in cases:
        robot = load(world_including(uri), network=True, **options)
        assert any(name.endswith("elbow") for name in robot.joints), (uri, list(robot.joints))


def test_the_current_directory_is_not_searched(
    secret: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A relative include in network text is looked up on the search path only (for a
    string, the loader's base is the current directory)."""
    monkeypatch.chdir(secret.parent)
    result = within(QUICK, lambda: load(world_including("secret.sdf"), network=True))
    assert isinstance(result, DescriptionError) and "not found" in str(result)
    assert SECRET not in str(result) and str(secret.parent) not in str(result)


def test_allowed_local_files_load_as_before(secret: Path, models: Path) -> None:
    """``network=False`` (the default; the node's allow_local_files): today's behaviour."""
    robot = load(world_including(f"file://{models / 'arm' / 'model.sdf'}"))
    assert any(name.endswith("elbow") for name in robot.joints)


@pytest.mark.parametrize("uri", ["file://{}", "{}", "../private/x.stl"])
def test_a_local_mesh_is_left_out_with_one_warning(secret: Path, uri: str) -> None:
    """A mesh is read by the MuJoCo backend when it builds the robot: a network description's
    mesh naming a local file stays unresolved (left out), with one warning; the robot loads."""
    mesh = secret.with_suffix(".stl")
    mesh.write_text(SECRET)
    filename = uri.format(mesh)
    urdf = (
        '<robot name="r"><link name="a"><visual><geometry>'
        f'<mesh filename="{filename}"/></geometry></visual><collision><geometry>'
        f'<mesh filename="{filename}"/></geometry></collision></link></robot>'
    )
    sdf = (
        '<sdf version="1.9"><model name="r"><link name="a"><visual name="v"><geometry><mesh>'
        f"<uri>{filename}</uri></mesh></geometry></visual></link></model></sdf>"
    )
    for text in (urdf, sdf):
        robot, warnings = load_with_warnings(text, network=True)
        visuals = robot.links["a"].visuals
        assert visuals[0].geometry.resolved is None
        refused = [w for w in warnings if "refused: mesh" in w]
        if "../" in filename and text is urdf:  # a URDF string resolves no relative path
            assert refused == []
            continue
        assert len(refused) == 1, warnings
        assert "allow_local_files:=true" in refused[0] and SECRET not in refused[0]
        assert load(text).links["a"].visuals[0].geometry.resolved is not None or "../" in filename


def test_a_package_mesh_through_a_symlink_out_is_left_out(tmp_path: Path, secret: Path) -> None:
    bots = tmp_path / "bots"
    (bots / "meshes").mkdir(parents=True)
    (bots / "meshes" / "in.stl").write_text("solid")
    (bots / "meshes" / "out.stl").symlink_to(secret)
    urdf = (
        '<robot name="r"><link name="a"><visual><geometry><mesh filename="package://bots/meshes/'
        '{}"/></geometry></visual></link></robot>'
    )
    packages = {"bots": str(bots)}
    robot = load(urdf.format("in.stl"), network=True, package_paths=packages)
    assert robot.links["a"].visuals[0].geometry.resolved == str(bots / "meshes" / "in.stl")
    robot, warnings = load_with_warnings(
        urdf.format("out.stl"), network=True, package_paths=packages
    )
    assert robot.links["a"].visuals[0].geometry.resolved is None
    assert [w for w in warnings if "resolves outside the configured" in w]


def test_xacro_in_network_text_is_refused_and_reads_nothing(secret: Path) -> None:
    """xacro evaluates expressions and includes files: network text is never expanded."""
    text = (
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
        f'<xacro:include filename="{secret}"/><link name="a"/></robot>'
    )
    with pytest.raises(UnexpandedXacroError, match=r"holds the xacro element <xacro:include>"):
        load(text, network=True)


def test_a_local_description_file_must_be_a_regular_file(tmp_path: Path) -> None:
    """Files the user names keep loading, under the regular-file rule: a FIFO or a file of
    /proc is refused before it is opened."""
    fifo = tmp_path / "robot.urdf"
    os.mkfifo(fifo)
    link = tmp_path / "kmsg.urdf"
    link.symlink_to("/proc/kmsg")
    for path in (fifo, link):
        result = within(QUICK, lambda p=path: load(p))
        assert isinstance(result, PathResolutionError), result
        assert "the path is not a file" in str(result)
    including = tmp_path / "world.sdf"
    including.write_text(world_including(str(link)))
    result = within(QUICK, lambda: load(including))
    assert isinstance(result, PathResolutionError) and "not a file" in str(result), result

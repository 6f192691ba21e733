"""The start-up check names the missing Qt system library (issue 22: Qt's own abort named
libxcb-cursor0 while libxcb-icccm4 and libxcb-keysyms1 were missing). A real shared object whose
dependency is deleted, checked by the real ``ldd``; the window's own plugin on this machine."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from veil_desktop.ui import system_libs


def test_packages_for_the_libraries_of_the_issue():
    assert system_libs.packages_for(["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb-cursor.so.0"]) == [
        "libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1"]
    assert system_libs.packages_for(["libunknown.so.3"]) == ["libunknown.so.3"]


def test_wants_xcb():
    assert system_libs.wants_xcb({"DISPLAY": ":0"}) is True
    assert system_libs.wants_xcb({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}) is False
    assert system_libs.wants_xcb({"QT_QPA_PLATFORM": "xcb"}) is True
    assert system_libs.wants_xcb({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}) is False
    assert system_libs.startup_message(env={"QT_QPA_PLATFORM": "offscreen"}) == ""


@pytest.mark.skipif(shutil.which("gcc") is None or shutil.which("ldd") is None, reason="needs gcc and ldd")
def test_a_deleted_dependency_is_named_with_its_package(tmp_path):
    dep_src, user_src = tmp_path / "dep.c", tmp_path / "user.c"
    dep_src.write_text("int veil_dep(void) { return 1; }\n")
    user_src.write_text("int veil_dep(void);\nint veil_user(void) { return veil_dep(); }\n")
    dep = tmp_path / "libxcb-keysyms.so.1"
    subprocess.run(["gcc", "-shared", "-fPIC", "-Wl,-soname,libveil-keysyms-test.so.1", "-o", str(dep),
                    str(dep_src)], check=True)
    user = tmp_path / "libuser.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(user), str(user_src), str(dep)], check=True)
    dep.unlink()
    assert system_libs.missing_libraries([user]) == ["libveil-keysyms-test.so.1"]
    system_libs.PACKAGES["libveil-keysyms-test.so.1"] = "libxcb-keysyms1"
    try:
        msg = system_libs.startup_message("ko", files=[user])
        en = system_libs.startup_message("en", files=[user])
    finally:
        del system_libs.PACKAGES["libveil-keysyms-test.so.1"]
    assert "libveil-keysyms-test.so.1" in msg and "sudo apt-get install -y libxcb-keysyms1" in msg
    assert msg.startswith("veil-desktop 창을 열 수 없습니다")
    assert en.startswith("veil-desktop cannot open its window") and "libxcb-keysyms1" in en


def test_this_machines_xcb_plugin_is_checked():
    files = system_libs.platform_plugin_files()
    assert any(f.name == "libqxcb.so" for f in files)
    # whatever this machine lacks is named with a package of the README's apt line
    assert all(lib in system_libs.PACKAGES for lib in system_libs.missing_libraries(files))

"""``platform/`` is a plain folder, so the standard library's ``platform`` module stays intact."""

import platform as stdlib_platform

import pytest

from tests.platform.helpers import ROOT, manage


def test_stdlib_platform_under_pytest():
    import platform

    assert platform.system() == stdlib_platform.system() != ""
    assert not (ROOT / "platform" / "__init__.py").exists()


@pytest.mark.slow
def test_stdlib_platform_under_manage_py():
    out = manage("shell", "-v", "0", "-c", "import platform, config; print(platform.system(), config.__name__)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [stdlib_platform.system(), "config"]

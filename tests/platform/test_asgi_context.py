"""What loading the web process leaves in the context its sockets and requests inherit: no asgiref ``Local``
(each hop to a thread, a move's or a request's, re-homes every one it finds there, and back)."""

import subprocess
import sys

import pytest

from tests.platform.helpers import ROOT, child_env

pytestmark = pytest.mark.slow

PROBE = """
import contextvars
import config.asgi
from django.urls import reverse
from django.utils import translation

def locals_set():
    return sum(var.name == "asgiref.local" for var in contextvars.copy_context())

print(locals_set())
# a socket's first link in each language, as its page draws one: its language's own Local, and nothing more
for code in ("ru", "uk", "en"):
    with translation.override(code):
        before = locals_set()
        reverse("healthz")
        print(locals_set() - before)
"""


def test_loading_the_web_process_sets_no_asgiref_local_in_its_context():
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        env=child_env(),
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "0", "0", "0"]

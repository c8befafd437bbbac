"""End-to-end tests: real JupyterLab and static HTML exports in real Chromium.

Fixtures live in ``conftest.py``; helpers in ``harness.py`` (live JupyterLab)
and ``static.py`` (nbclient + nbconvert export served offline).
"""

"""The wheel's build compiles the translations' catalogs (``.po`` to ``.mo``).

Everything else about the distribution is in pyproject.toml. A source checkout (an
editable install) reads the ``.po`` files through Babel instead (``mathable_i18n``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithCatalogs(build_py):
    """``build_py``, then each ``locales/**/*.po`` compiled beside its copy in the build."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        sys.path.insert(0, str(Path(__file__).resolve().parent / "scripts"))
        import catalogs

        catalogs.compile_all(into=Path(self.build_lib))


setup(cmdclass={"build_py": BuildPyWithCatalogs})

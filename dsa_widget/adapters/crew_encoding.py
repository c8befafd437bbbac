"""The Crew's action numbering and observation layout moved to :mod:`dsa_widget.crew.encoding`
(each game keeps its encoding in its own folder); this name stays for old imports."""

from ..crew.encoding import *  # noqa: F403
from ..crew.encoding import __all__ as __all__

"""The four variants. Importing this package registers them with ``find_ruleset``.

>>> from engine.ruleset import find_ruleset
>>> [find_ruleset(n).hand_size for n in ("filipino", "visayan", "singapore", "vietnamese")]
[16, 16, 13, 13]
"""

from engine.variants.filipino import Filipino
from engine.variants.singapore import Singapore
from engine.variants.vietnam import Vietnamese
from engine.variants.visayan import Visayan

__all__ = ["Filipino", "Visayan", "Singapore", "Vietnamese"]

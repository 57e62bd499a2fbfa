"""The registered rule sets, by name."""

import difflib

from .ayoayo import AYOAYO, TAMPODUO
from .ayoyayo import AYOYAYO
from .base import RuleOptions, Variant, describe_options
from .jerin import JERIN
from .layli_goobalay import LAYLI_GOOBALAY
from .mangala import MANGALA
from .mighty_men import MIGHTY_MEN, MIGHTY_MEN_CALM
from .ncho import NCHO
from .obridjie import OBRIDJIE
from .ouri import OURI
from .oware import KPO, OWARE
from .rio_kadalis import RIO_KADALIS

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        OWARE,
        OURI,
        KPO,
        TAMPODUO,
        AYOAYO,
        OBRIDJIE,
        AYOYAYO,
        NCHO,
        JERIN,
        RIO_KADALIS,
        LAYLI_GOOBALAY,
        MANGALA,
        MIGHTY_MEN,
        MIGHTY_MEN_CALM,
    )
}


def get_variant(name: str) -> Variant:
    """The rule set called `name`; a clear error names the closest and the known ones."""
    if isinstance(name, str) and name in VARIANTS:
        return VARIANTS[name]
    close = difflib.get_close_matches(str(name), VARIANTS, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(
        f"unknown variant {name!r}{hint}; known variants: {', '.join(sorted(VARIANTS))}"
    )


__all__ = ["VARIANTS", "RuleOptions", "Variant", "describe_options", "get_variant"]

"""The registered rule sets, by name."""

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
    """The rule set called `name`; a clear error names the known ones."""
    if not isinstance(name, str) or name not in VARIANTS:
        raise ValueError(f"unknown variant {name!r}; known variants: {', '.join(sorted(VARIANTS))}")
    return VARIANTS[name]


__all__ = ["VARIANTS", "RuleOptions", "Variant", "describe_options", "get_variant"]

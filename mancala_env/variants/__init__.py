"""The registered rule sets, by name."""

from .ayoayo import AYOAYO, TAMPODUO
from .ayoyayo import AYOYAYO
from .base import RuleOptions, Variant, describe_options
from .ncho import NCHO
from .obridjie import OBRIDJIE
from .ouri import OURI
from .oware import KPO, OWARE

VARIANTS: dict[str, Variant] = {
    v.name: v for v in (OWARE, OURI, KPO, TAMPODUO, AYOAYO, OBRIDJIE, AYOYAYO, NCHO)
}


def get_variant(name: str) -> Variant:
    """The rule set called `name`; a clear error names the known ones."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(
            f"unknown variant {name!r}; known variants: {', '.join(sorted(VARIANTS))}"
        ) from None


__all__ = ["VARIANTS", "RuleOptions", "Variant", "describe_options", "get_variant"]

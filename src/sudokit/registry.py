"""Engines found through the entry-point group ``sudokit.strategies``, loaded only when first used.

The group is read once. A name registered twice keeps its first entry point and warns, naming both;
an entry point that fails to import warns, naming it and the error, and is reported by
``strategies()``; neither crashes sudokit or hides the other engines.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from sudokit.errors import StrategyError, StrategyLoadError, UnknownStrategyError
from sudokit.strategy import Strategy

__all__ = ["ENTRY_POINT_GROUP", "Registry", "StrategyInfo", "StrategyWarning", "default_registry"]

ENTRY_POINT_GROUP = "sudokit.strategies"


class StrategyWarning(UserWarning):
    """An engine that failed to load, or a name registered twice."""


@dataclass(frozen=True, slots=True)
class StrategyInfo:
    """One registered engine as ``sudoku strategies`` lists it."""

    name: str
    entry_point: str
    distribution: str | None
    loaded: bool
    description: str
    error: str | None


class Registry:
    """The engines registered under one entry-point group (or given directly, for tests)."""

    def __init__(self, group: str = ENTRY_POINT_GROUP, eps: Iterable[EntryPoint] | None = None) -> None:
        self.group = group
        self._given = None if eps is None else list(eps)
        self._eps: dict[str, EntryPoint] | None = None
        self._factories: dict[str, Callable[..., Strategy]] = {}
        self._defaults: dict[str, Strategy] = {}
        self._errors: dict[str, str] = {}

    def _entry_points(self) -> dict[str, EntryPoint]:
        if self._eps is None:
            found = self._given if self._given is not None else list(entry_points(group=self.group))
            eps: dict[str, EntryPoint] = {}
            for ep in found:
                first = eps.get(ep.name)
                if first is None:
                    eps[ep.name] = ep
                elif first.value != ep.value:
                    warnings.warn(
                        f"strategy {ep.name!r} is registered twice: keeping {first.value} "
                        f"({_dist(first) or '?'}), ignoring {ep.value} ({_dist(ep) or '?'})",
                        StrategyWarning,
                        stacklevel=3,
                    )
            self._eps = eps
        return self._eps

    def names(self) -> list[str]:
        """Every registered name, loaded or not, sorted."""
        return sorted(self._entry_points())

    def factory(self, name: str) -> Callable[..., Strategy]:
        """The loaded entry point for ``name`` (imported on first use, then kept)."""
        if name in self._factories:
            return self._factories[name]
        eps = self._entry_points()
        if name not in eps:
            known = ", ".join(self.names()) or "none"
            raise UnknownStrategyError(f"unknown strategy {name!r} (installed: {known})")
        if name in self._errors:
            raise StrategyLoadError(self._errors[name])
        ep = eps[name]
        try:
            loaded = ep.load()
        except Exception as err:  # a plugin's import can fail in any way; report, never crash
            message = f"strategy {name!r} ({ep.value}) failed to load: {type(err).__name__}: {err}"
            self._errors[name] = message
            warnings.warn(message, StrategyWarning, stacklevel=2)
            raise StrategyLoadError(message) from err
        if not callable(loaded):
            message = f"strategy {name!r} ({ep.value}) is not a class or factory"
            self._errors[name] = message
            raise StrategyLoadError(message)
        self._factories[name] = loaded
        return loaded

    def get(self, name: str, **options: Any) -> Strategy:
        """The strategy ``name`` built with ``options``; without options, one shared instance."""
        if not options and name in self._defaults:
            return self._defaults[name]
        factory = self.factory(name)
        try:
            strategy = factory(**options)
        except TypeError as err:
            if options:
                raise StrategyError(f"strategy {name!r} does not take options {sorted(options)}: {err}") from None
            raise StrategyLoadError(f"strategy {name!r} could not be built: {err}") from err
        except (ValueError, StrategyError) as err:
            raise StrategyError(f"strategy {name!r}: {err}") from None
        except Exception as err:
            raise StrategyLoadError(f"strategy {name!r} could not be built: {type(err).__name__}: {err}") from err
        if not isinstance(strategy, Strategy):
            raise StrategyLoadError(f"strategy {name!r} ({self._entry_points()[name].value}) is not a Strategy")
        if not options:
            self._defaults[name] = strategy
        return strategy

    def info(self) -> list[StrategyInfo]:
        """Every registered engine, loading each to read its description."""
        rows = []
        for name in self.names():
            ep = self._entry_points()[name]
            try:
                strategy = self.get(name)
            except StrategyError as err:
                rows.append(StrategyInfo(name, ep.value, _dist(ep), False, "", str(err)))
            else:
                rows.append(StrategyInfo(name, ep.value, _dist(ep), True, strategy.description, None))
        return rows


def _dist(ep: EntryPoint) -> str | None:
    dist = getattr(ep, "dist", None)
    return dist.name if dist is not None else None


_default: Registry | None = None


def default_registry() -> Registry:
    """The process-wide registry of installed engines."""
    global _default
    if _default is None:
        _default = Registry()
    return _default

"""Engines found through the entry-point group ``sudokit.strategies``, loaded only when first used.

The group is read once. A name registered twice keeps its first entry point and warns, naming both;
an entry point that fails to import warns, naming it and the error, and is reported by
``strategies()``; neither crashes sudokit or hides the other engines.
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from sudokit.errors import StrategyError, StrategyLoadError, UnknownStrategyError
from sudokit.strategy import Strategy

__all__ = [
    "ENTRY_POINT_GROUP",
    "EntryPointLike",
    "Registry",
    "StrategyEntryPoint",
    "StrategyInfo",
    "StrategyWarning",
    "default_registry",
    "find_entry_points",
]

ENTRY_POINT_GROUP = "sudokit.strategies"


class EntryPointLike(Protocol):
    """What the registry needs of an entry point: ``importlib.metadata.EntryPoint`` fits."""

    name: str
    value: str

    def load(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class StrategyEntryPoint:
    """One line of a distribution's ``entry_points.txt``: ``name = module:attribute``."""

    name: str
    value: str
    group: str
    dist: str | None = None

    def load(self) -> Any:
        """Import the module and return the named attribute."""
        module, _, attribute = self.value.partition(":")
        obj = importlib.import_module(module.strip())
        for part in attribute.strip().split(".") if attribute.strip() else ():
            obj = getattr(obj, part)
        return obj


def find_entry_points(group: str, path: Iterable[str] | None = None) -> Iterator[StrategyEntryPoint]:
    """The entry points of ``group`` in every distribution on ``path`` (``sys.path``), first one wins.

    This reads the ``*.dist-info/entry_points.txt`` files directly, as ``importlib.metadata`` does,
    without importing it: that import alone costs more than the rest of ``sudoku``'s start-up.
    """
    seen: set[str] = set()
    for folder in sys.path if path is None else path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for entry in names:
            if not entry.endswith((".dist-info", ".egg-info")):
                continue
            dist = entry.rpartition(".")[0].split("-")[0]
            key = dist.lower().replace("-", "_").replace(".", "_")
            if key in seen:
                continue
            seen.add(key)
            try:
                with open(os.path.join(folder or ".", entry, "entry_points.txt"), encoding="utf-8") as handle:
                    text = handle.read()
            except OSError:
                continue
            yield from _parse_entry_points(text, group, dist)


def _parse_entry_points(text: str, group: str, dist: str) -> Iterator[StrategyEntryPoint]:
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            name, _, value = line.partition("=")
            yield StrategyEntryPoint(name.strip(), value.split("[")[0].strip(), group, dist)


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

    def __init__(self, group: str = ENTRY_POINT_GROUP, eps: Iterable[EntryPointLike] | None = None) -> None:
        self.group = group
        self._given = None if eps is None else list(eps)
        self._eps: dict[str, EntryPointLike] | None = None
        self._factories: dict[str, Callable[..., Strategy]] = {}
        self._defaults: dict[str, Strategy] = {}
        self._errors: dict[str, str] = {}

    def _entry_points(self) -> dict[str, EntryPointLike]:
        if self._eps is None:
            found = self._given if self._given is not None else list(find_entry_points(self.group))
            eps: dict[str, EntryPointLike] = {}
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
        except (Exception, SystemExit) as err:  # a plugin's import can fail in any way; report, never crash
            message = _one_line(f"strategy {name!r} ({ep.value}) failed to load: {type(err).__name__}: {err}")
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
        if options:
            _check_options(name, factory, options)
        try:
            strategy = factory(**options)
        except (TypeError, ValueError, StrategyError) as err:
            raise StrategyError(_one_line(f"strategy {name!r}: {err}")) from None
        except (Exception, SystemExit) as err:
            message = f"strategy {name!r} could not be built: {type(err).__name__}: {err}"
            raise StrategyLoadError(_one_line(message)) from err
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


def _check_options(name: str, factory: Callable[..., Strategy], options: dict[str, Any]) -> None:
    """Raise a StrategyError naming the options ``factory`` does not take, and the ones it does."""
    import inspect

    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return  # a builtin or C callable: let the call itself decide
    try:
        signature.bind(**options)
    except TypeError:
        taken = [p.name for p in signature.parameters.values() if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]
        unknown = sorted(set(options) - set(taken))
        raise StrategyError(
            f"strategy {name!r} has no option {', '.join(map(repr, unknown)) or sorted(options)}"
            f" (its options: {', '.join(taken) or 'none'})"
        ) from None


def _one_line(message: str) -> str:
    """A plugin's error message on one line (an import error can run to a page)."""
    return " ".join(message.split())


def _dist(ep: EntryPointLike) -> str | None:
    dist = getattr(ep, "dist", None)
    return dist if dist is None or isinstance(dist, str) else dist.name


_default: Registry | None = None


def default_registry() -> Registry:
    """The process-wide registry of installed engines."""
    global _default
    if _default is None:
        _default = Registry()
    return _default

"""Engines found through the entry-point group ``sudokit.strategies``, loaded only when first used.

The group is read once, from the ``*.dist-info/entry_points.txt`` files on ``sys.path``. Listing the
engines imports none of them: ``Registry.info()`` gives each one's name, entry point, distribution
and version from that metadata, its description read from the engine module's source (with ``ast``),
and, for an entry point that needs extras (``name = module:attr [sat]``) whose requirements are not
installed, what is missing and the command that installs it. ``Registry.describe(name)`` and
``Registry.info(load=True)`` load engines and ask them.

A name registered twice keeps sudokit's own entry point when one of them is sudokit's (a plugin
cannot replace a built-in engine, whatever the order on ``sys.path``), else the first one found; the
other is ignored with a warning naming both. An entry point that fails to import warns, naming it
and the error, and is reported by ``describe()``; neither crashes sudokit or hides the other engines.
A name of :data:`RESERVED_NAMES` (``all``) means something else on the command line: an entry point
registered under it is listed by ``info()`` as not loaded, saying why, but is not among ``names()``
and is never imported.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from sudokit.engines.strategy import Capabilities, Strategy, capabilities_of
from sudokit.errors import StrategyError, StrategyLoadError, UnknownStrategyError

if TYPE_CHECKING:
    import ast

__all__ = [
    "ENTRY_POINT_GROUP",
    "RESERVED_NAMES",
    "EntryPointLike",
    "Registry",
    "StrategyEntryPoint",
    "StrategyInfo",
    "StrategyLoadWarning",
    "StrategyWarning",
    "default_registry",
    "find_entry_points",
    "load_isolated",
]

ENTRY_POINT_GROUP = "sudokit.strategies"
#: Names an engine cannot have, and why: a plugin registered under one is listed as unusable, never run.
RESERVED_NAMES = {"all": "'sudoku solve -s all' cross-checks every engine"}
_OWN_DISTRIBUTION = "sudokit"  # the distribution that ships sudokit: its entry points own their names


class EntryPointLike(Protocol):
    """What the registry needs of an entry point: ``importlib.metadata.EntryPoint`` fits."""

    @property
    def name(self) -> str: ...

    @property
    def value(self) -> str: ...

    def load(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class StrategyEntryPoint:
    """One line of a distribution's ``entry_points.txt``: ``name = module:attribute [extra, ...]``.

    ``dist`` and ``version`` are read from the name of the distribution's ``.dist-info`` directory,
    ``dist_info``, which holds the ``METADATA`` where the extras' requirements are listed.
    """

    name: str
    value: str
    group: str
    dist: str | None = None
    extras: tuple[str, ...] = ()
    version: str | None = None
    dist_info: str | None = None

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
    for folder, entry in _metadata_dirs(path):
        dist, version = _name_and_version(entry)
        key = _normalize(dist)
        if key in seen:
            continue
        seen.add(key)
        directory = os.path.join(folder, entry)
        try:
            with open(os.path.join(directory, "entry_points.txt"), encoding="utf-8") as handle:
                text = handle.read()
        except OSError:
            continue
        yield from _parse_entry_points(text, group, dist, version, directory)


def _metadata_dirs(path: Iterable[str] | None) -> Iterator[tuple[str, str]]:
    """(folder, name) of every ``.dist-info`` and ``.egg-info`` on ``path`` (``sys.path``), in path order."""
    for folder in sys.path if path is None else path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for entry in names:
            if entry.endswith((".dist-info", ".egg-info")):
                yield folder or ".", entry


def _name_and_version(entry: str) -> tuple[str, str | None]:
    """A distribution's name and version from its metadata directory: ``sudokit_echo-0.1.dist-info``."""
    name, _, rest = entry.rpartition(".")[0].partition("-")
    return re.sub(r"[-_.]+", "-", name), rest.split("-")[0] or None


def _normalize(name: str) -> str:
    """A distribution name as PEP 503 compares them: ``Sudokit_Echo.plugin`` is ``sudokit-echo-plugin``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _parse_entry_points(
    text: str, group: str, dist: str, version: str | None, dist_info: str
) -> Iterator[StrategyEntryPoint]:
    section = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group and "=" in line:
            name, _, target = line.partition("=")
            value, _, tail = target.partition("[")
            yield StrategyEntryPoint(name.strip(), value.strip(), group, dist, _split_extras(tail), version, dist_info)


def _split_extras(text: str) -> tuple[str, ...]:
    """The extras of ``extra1, extra2]``, the end of an entry point's value."""
    return tuple(extra.strip() for extra in text.strip().removesuffix("]").split(",") if extra.strip())


class StrategyWarning(UserWarning):
    """An engine that failed to load, or a name registered twice."""


class StrategyLoadWarning(StrategyWarning):
    """An engine that failed to load; the ``StrategyLoadError`` raised with it says the same (sudoku shows that)."""


@dataclass(frozen=True, slots=True)
class StrategyInfo:
    """One registered engine as ``sudoku strategies`` lists it.

    ``loaded`` is None when loading was not tried: ``description`` is then read from the engine's
    source (None when it cannot be). True: it loaded and described itself; False: ``error`` says why
    it did not. ``missing`` names the requirements of the entry point's ``extras`` that are not
    installed, and ``install_hint`` is the command that installs them (None when nothing is missing).
    """

    name: str
    entry_point: str
    distribution: str | None
    loaded: bool | None
    description: str | None
    error: str | None
    version: str | None = None
    extras: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    install_hint: str | None = None
    #: What the engine declares it supports (``sudokit.Capabilities``); known only once it is loaded.
    capabilities: Capabilities | None = None


class Registry:
    """The engines registered under one entry-point group (or given directly, for tests).

    ``path`` is where the distributions are looked for (``sys.path`` by default), their entry points
    and the requirements of their extras alike.
    """

    def __init__(
        self,
        group: str = ENTRY_POINT_GROUP,
        eps: Iterable[EntryPointLike] | None = None,
        *,
        path: Iterable[str] | None = None,
    ) -> None:
        self.group = group
        self.path = None if path is None else list(path)
        self._given = None if eps is None else list(eps)
        self._eps: dict[str, EntryPointLike] | None = None
        self._reserved: dict[str, EntryPointLike] = {}  # entry points under a reserved name: listed, not usable
        self._factories: dict[str, Callable[..., Strategy]] = {}
        self._defaults: dict[str, Strategy] = {}
        self._errors: dict[str, str] = {}
        self._installed: set[str] | None = None
        self._sources: dict[str, ast.Module | None] = {}

    def _entry_points(self) -> dict[str, EntryPointLike]:
        if self._eps is None:
            found = self._given if self._given is not None else list(find_entry_points(self.group, self.path))
            eps: dict[str, EntryPointLike] = {}
            for ep in found:
                first = eps.get(ep.name)
                if first is None:
                    eps[ep.name] = ep
                    continue
                keep, drop = (ep, first) if _is_own(ep) and not _is_own(first) else (first, ep)
                eps[ep.name] = keep
                if _target(keep) == _target(drop):
                    continue  # one engine seen twice, as when a distribution is on the path twice
                if _is_own(keep) and not _is_own(drop):
                    message = (
                        f"strategy {ep.name!r} is sudokit's own: ignoring the one registered by "
                        f"{_dist(drop) or 'another distribution'} ({_target(drop)})"
                    )
                else:
                    message = (
                        f"strategy {ep.name!r} is registered twice: keeping {_target(keep)} "
                        f"({_dist(keep) or '?'}), ignoring {_target(drop)} ({_dist(drop) or '?'})"
                    )
                warnings.warn(message, StrategyWarning, stacklevel=3)
            for name, why in RESERVED_NAMES.items():
                if name in eps:
                    self._reserved[name] = ep = eps.pop(name)
                    self._errors[name] = (
                        f"strategy {name!r} ({_target(ep)}) cannot be used: the name is reserved ({why}); "
                        "its distribution must register it under another name"
                    )
            self._eps = eps
        return self._eps

    def _entry_point(self, name: str) -> EntryPointLike:
        """The entry point of ``name``, a usable one or one under a reserved name."""
        eps = self._entry_points()
        return eps[name] if name in eps else self._reserved[name]

    def names(self) -> list[str]:
        """Every registered name, loaded or not, sorted."""
        return sorted(self._entry_points())

    def ready_names(self) -> list[str]:
        """The registered names whose extras' requirements are installed: the engines run when none is named.

        An engine that needs an extra that is not installed (``sat`` without ``sudokit[sat]``) is left out
        without importing anything; ``sudoku strategies`` names it with its install command.
        """
        return [name for name in self.names() if name in self._defaults or not self._metadata(name).missing]

    def factory(self, name: str) -> Callable[..., Strategy]:
        """The loaded entry point for ``name`` (imported on first use, then kept)."""
        if name in self._factories:
            return self._factories[name]
        eps = self._entry_points()
        if name in self._reserved:
            raise StrategyLoadError(self._errors[name])
        if name not in eps:
            known = ", ".join(self.names()) or "none"
            raise UnknownStrategyError(f"unknown strategy {name!r} (installed: {known})")
        if name in self._errors:
            raise StrategyLoadError(self._errors[name])
        ep = eps[name]
        try:
            loaded: Callable[..., Strategy] = ep.load()
        except (Exception, SystemExit) as err:  # a plugin's import can fail in any way; report, never crash
            message = _one_line(f"strategy {name!r} ({_target(ep)}) failed to load: {type(err).__name__}: {err}")
            missing, hint = self._missing(ep)
            if hint:
                message += f" (not installed: {', '.join(missing)}; {hint})"
            self._errors[name] = message
            warnings.warn(message, StrategyLoadWarning, stacklevel=2)
            raise StrategyLoadError(message) from err
        if not callable(loaded):
            message = f"strategy {name!r} ({_target(ep)}) is not a class or factory"
            self._errors[name] = message
            raise StrategyLoadError(message)
        self._factories[name] = loaded
        return loaded

    def warms_before_fork(self, name: str) -> bool:
        """True when ``name`` is sudokit's own engine and asks to be loaded before workers are forked.

        Its class says so with ``warm_before_fork = True`` (numba: its compiled kernel takes a second to
        load, which forked workers then inherit instead of each paying it), read from its source without
        importing anything. Only sudokit's own entry points are asked, and only when their extra's
        requirements are installed: a plugin is never imported or built in the caller's process for this.
        """
        import ast

        eps = self._entry_points()
        if name not in eps or not _is_own(eps[name]) or name in self._errors or self._metadata(name).missing:
            return False
        module, _, attribute = (part.strip() for part in _target(eps[name]).partition(":"))
        if module not in self._sources:
            self._sources[module] = _parse_module(module)
        tree = self._sources[module]
        classes = [n for n in (tree.body if tree is not None else []) if isinstance(n, ast.ClassDef)]
        for node in (n for n in classes if n.name == attribute):
            for statement in node.body:
                if (
                    isinstance(statement, ast.Assign)
                    and [getattr(t, "id", None) for t in statement.targets] == ["warm_before_fork"]
                    and isinstance(statement.value, ast.Constant)
                ):
                    return statement.value.value is True
        return False

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
            raise StrategyLoadError(f"strategy {name!r} ({_target(self._entry_points()[name])}) is not a Strategy")
        if not options:
            self._defaults[name] = strategy
        return strategy

    def info(self, load: bool = False) -> list[StrategyInfo]:
        """Every registered engine, sorted by name; with ``load``, each one loaded and asked (``describe``).

        Without ``load`` no engine is imported: the rows come from the metadata and the engines' source,
        except that an engine this registry has already loaded, or failed to, is reported as such.
        """
        names = sorted([*self.names(), *self._reserved])
        return [self.describe(name) if load else self._listed(name) for name in names]

    def describe(self, name: str) -> StrategyInfo:
        """The engine ``name`` loaded (on first use) and described by itself, or the error that stopped it."""
        try:
            strategy = self.get(name)
        except UnknownStrategyError:
            raise
        except StrategyError as err:
            return replace(self._listed(name), loaded=False, error=str(err))
        try:
            capabilities = capabilities_of(strategy)
        except StrategyError as err:
            return replace(self._listed(name), loaded=False, error=f"strategy {name!r}: {err}")
        description = getattr(strategy, "description", None)
        return replace(self._metadata(name), loaded=True, description=description, capabilities=capabilities)

    def _listed(self, name: str) -> StrategyInfo:
        """What is known of ``name`` without importing it."""
        info = self._metadata(name)
        if name in self._defaults:
            return replace(info, loaded=True, description=getattr(self._defaults[name], "description", None))
        description = self._source_description(_target(self._entry_point(name)))
        if name in self._reserved:  # why it cannot be used, not what it would need to load
            error = self._errors[name]
            return replace(info, loaded=False, description=description, error=error, missing=(), install_hint=None)
        if name in self._errors:
            return replace(info, loaded=False, description=description, error=self._errors[name])
        return replace(info, description=description)

    def _metadata(self, name: str) -> StrategyInfo:
        """``name``'s row from its distribution's metadata alone: not loaded, no description."""
        ep = self._entry_point(name)
        missing, hint = self._missing(ep)
        version = ep.version if isinstance(ep, StrategyEntryPoint) else _dist_version(ep)
        return StrategyInfo(name, _target(ep), _dist(ep), None, None, None, version, _extras(ep), missing, hint)

    def _missing(self, ep: EntryPointLike) -> tuple[tuple[str, ...], str | None]:
        """The requirements of ``ep``'s extras that no distribution on the path provides, and how to install them."""
        extras = _extras(ep)
        text = _read_metadata(ep) if extras else None
        if not text:
            return (), None
        dist, requirements = _requirements(text)
        wanted = {_normalize(extra) for extra in extras}
        if self._installed is None:
            self._installed = {_normalize(_name_and_version(entry)[0]) for _, entry in _metadata_dirs(self.path)}
        missing: list[str] = []
        for requirement, marker in requirements:
            installed = requirement in missing or _normalize(requirement) in self._installed
            if not installed and any(_marker_applies(marker, extra) for extra in wanted):
                missing.append(requirement)
        if not missing:
            return (), None
        return tuple(missing), f"pip install '{dist or _dist(ep)}[{','.join(extras)}]'"

    def _source_description(self, target: str) -> str | None:
        """The description of ``module:attr`` read from the module's source (parsed once), without running it."""
        module, _, attribute = (part.strip() for part in target.partition(":"))
        if module not in self._sources:
            self._sources[module] = _parse_module(module)
        tree = self._sources[module]
        return None if tree is None else _described(tree, attribute.split(".") if attribute else [])


def _parse_module(module: str) -> ast.Module | None:
    """The syntax tree of ``module``'s source, found on ``sys.path`` without importing anything.

    Not even its parent packages: a plugin's package whose ``__init__`` hangs or exits must not take
    the listing with it. A module only a custom importer finds (a zip, some editable installs) or
    one without its source (compiled) has no description until it is loaded.
    """
    import ast

    parts = module.split(".")
    if not all(part.isidentifier() for part in parts):
        return None
    for folder in sys.path:
        base = os.path.join(folder or ".", *parts)
        for candidate in (base + ".py", os.path.join(base, "__init__.py")):
            try:
                with open(candidate, "rb") as handle:
                    return ast.parse(handle.read())
            except (OSError, SyntaxError, ValueError):
                continue
    return None


def _described(tree: ast.Module, attribute: list[str]) -> str | None:
    """The description of the class or function ``attribute`` (a dotted path) defined in ``tree``.

    A class's ``description`` attribute when it is a string literal (in the class or a base class
    defined in the same module), else the first line of the docstring; None when it is not found.
    """
    import ast

    definitions = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    node: ast.AST | None = None
    body: list[ast.stmt] = tree.body
    for part in attribute:
        defined = [n for n in body if isinstance(n, definitions) and n.name == part]
        if not defined:
            return None
        node = defined[-1]
        body = node.body if isinstance(node, ast.ClassDef) else []
    if not isinstance(node, definitions):
        return None
    if isinstance(node, ast.ClassDef):
        classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
        _, description = _class_description(node, classes, set())
        if description is not None:
            return description
    doc = ast.get_docstring(node)
    return _one_line(doc.strip().splitlines()[0]) if doc and doc.strip() else None


def _class_description(node: ast.ClassDef, classes: dict[str, ast.ClassDef], seen: set[str]) -> tuple[bool, str | None]:
    """Whether ``node`` (or a base class in ``classes``) sets ``description``, and to which string literal."""
    import ast

    seen.add(node.name)
    found, value = False, None
    for statement in node.body:
        if isinstance(statement, ast.Assign):
            targets, assigned = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, assigned = [statement.target], statement.value
        else:
            continue
        if any(isinstance(target, ast.Name) and target.id == "description" for target in targets):
            literal = assigned.value if isinstance(assigned, ast.Constant) else None
            found, value = True, _one_line(literal) if isinstance(literal, str) else None
    if found:
        return found, value
    for base in node.bases:
        if isinstance(base, ast.Name) and base.id in classes and base.id not in seen:
            found, value = _class_description(classes[base.id], classes, seen)
            if found:
                return found, value
    return False, None


def _requirements(text: str) -> tuple[str | None, list[tuple[str, str]]]:
    """A METADATA file's ``Name`` and its ``Requires-Dist`` lines as (distribution, marker) pairs."""
    name = None
    requirements = []
    for line in text.splitlines():
        if not line.strip():
            break  # the headers end at the first blank line; the long description follows
        key, _, value = line.partition(":")
        if key.strip().lower() == "name":
            name = value.strip()
        elif key.strip().lower() == "requires-dist":
            requirement, _, marker = value.partition(";")
            match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
            if match:
                requirements.append((match.group(1), marker.strip()))
    return name, requirements


def _marker_applies(marker: str, extra: str) -> bool:
    """Whether a requirement with environment ``marker`` is one of ``extra``'s, here.

    The marker must name the extra (``extra == "sat"``); the rest of it (``sys_platform == "win32"``)
    is evaluated with ``packaging`` when it is installed, else taken as true.
    """
    named = re.findall(r"""\bextra\s*==\s*['"]([^'"]*)['"]|['"]([^'"]*)['"]\s*==\s*extra\b""", marker)
    if extra not in {_normalize(a or b) for a, b in named}:
        return False
    try:
        from packaging.markers import Marker
    except ImportError:
        return True
    try:
        return Marker(marker).evaluate({"extra": extra})
    except Exception:  # a marker packaging cannot read: the extra named is what counts
        return True


def _read_metadata(ep: EntryPointLike) -> str | None:
    """The text of ``ep``'s distribution's ``METADATA`` (``PKG-INFO`` for an egg), None when unreadable."""
    directory = getattr(ep, "dist_info", None)
    dist = getattr(ep, "dist", None)
    for filename in ("METADATA", "PKG-INFO"):
        try:
            if isinstance(directory, str):
                with open(os.path.join(directory, filename), encoding="utf-8") as handle:
                    return handle.read()
            if dist is not None and hasattr(dist, "read_text"):  # an importlib.metadata.Distribution
                text: str | None = dist.read_text(filename)
                if text is not None:
                    return text
        except (OSError, UnicodeDecodeError):
            continue
    return None


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
    """The name of the distribution that registers ``ep``, when known."""
    dist = getattr(ep, "dist", None)
    return dist if dist is None or isinstance(dist, str) else dist.name


def _dist_version(ep: EntryPointLike) -> str | None:
    """The version of an ``importlib.metadata`` entry point's distribution, when it has one."""
    dist = getattr(ep, "dist", None)
    return getattr(dist, "version", None)


def _is_own(ep: EntryPointLike) -> bool:
    """Whether ``ep`` is registered by sudokit itself."""
    dist = _dist(ep)
    return dist is not None and _normalize(dist) == _OWN_DISTRIBUTION


def _target(ep: EntryPointLike) -> str:
    """``module:attr`` of an entry point, without its extras."""
    return ep.value.partition("[")[0].strip()


def _extras(ep: EntryPointLike) -> tuple[str, ...]:
    """The extras an entry point needs: ``[sat]`` in ``name = module:attr [sat]``."""
    extras = getattr(ep, "extras", None)
    return tuple(extras) if extras is not None else _split_extras(ep.value.partition("[")[2])


@dataclass(frozen=True, eq=False, repr=False)  # no generated methods it does not use: start-up
class _DescribeTask:
    """Load and describe one engine per item, in a worker process (an import may hang or end the process)."""

    registry: Registry
    rows: dict[str, StrategyInfo]
    budget: float

    def start(self, mark: Callable[[int], None]) -> Callable[[str], StrategyInfo]:
        return self.registry.describe

    def failed(self, name: str, problem: str) -> StrategyInfo:
        if problem.startswith("still running"):
            problem = f"did not load within {self.budget:g} s: its worker process was killed"
        return replace(self.rows[name], loaded=False, error=_one_line(f"strategy {name!r} failed to load: {problem}"))

    def load_failed(self, phase: int, problem: str) -> bool:
        return False


def load_isolated(registry: Registry) -> list[StrategyInfo]:
    """Every engine of ``registry`` loaded and described in a killable worker process, one after another.

    An engine whose import hangs (past ``SUDOKIT_LOAD_TIMEOUT``, 60 s by default) or ends its process
    (``os._exit``, a crash) is reported as not loaded, with what happened; the others are not affected.
    """
    from sudokit.engines.workers import WorkerPool, load_timeout

    rows = {row.name: row for row in registry.info()}
    task = _DescribeTask(registry, rows, load_timeout())
    with warnings.catch_warnings(), WorkerPool(task, 1) as pool:
        warnings.simplefilter("ignore", StrategyWarning)  # each failure is in its row
        return list(pool.map(list(rows)))


_default: Registry | None = None


def default_registry() -> Registry:
    """The process-wide registry of installed engines."""
    global _default
    if _default is None:
        _default = Registry()
    return _default


def spawn_state() -> tuple[str, list[EntryPointLike], list[str] | None] | None:
    """What a spawned worker needs to see this process's registry as it is: None when it is the installed
    engines' (the worker finds them itself), else the group, entry points and path it was given."""
    registry = _default
    if registry is None or registry._given is None:
        return None
    return registry.group, registry._given, registry.path


def adopt_spawn_state(state: tuple[str, list[EntryPointLike], list[str] | None] | None) -> None:
    """Make :func:`spawn_state`'s registry this process's (in a spawned worker)."""
    global _default
    if state is not None:
        group, eps, path = state
        _default = Registry(group, eps, path=path)

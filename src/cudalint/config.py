"""Configuration: ``cudalint.toml``, ``.cudalint.toml`` or ``pyproject.toml [tool.cudalint]``."""

from __future__ import annotations

import difflib
import fnmatch
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from cudalint.diagnostics import Level
from cudalint.frontend.flags import FrontendConfigError, parse_arch
from cudalint.rules import RULES

CONFIG_FILES = ("cudalint.toml", ".cudalint.toml", "pyproject.toml")

_LIST_KEYS = ("select", "ignore", "extend-select", "exclude", "include", "define")
_SELECTOR_KEYS = ("select", "ignore", "extend-select")
_STRING_KEYS = ("cuda-path", "arch", "compile-commands", "profile")
KNOWN_KEYS = (
    *_LIST_KEYS,
    *_STRING_KEYS,
    "per-file-ignores",
    "max-registers",
    "ptxas",
    "time-limit",
    "project-includes",
    "min-level",
    "fix",
    "unsafe-fixes",
)
DEFAULT_TIME_LIMIT = 10.0
"""Processor seconds of analysis one translation unit may take after its parse."""


class ConfigError(Exception):
    """An unusable configuration: unknown key, wrong type, unknown rule selector."""


@dataclass
class Config:
    path: Path | None = None
    """The file it came from; relative paths in it are relative to its directory."""
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    extend_select: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)
    exclude: list[str] = field(default_factory=list)
    cuda_path: str | None = None
    arch: str | None = None
    include: list[str] = field(default_factory=list)
    define: list[str] = field(default_factory=list)
    compile_commands: str | None = None
    max_registers: int | None = None
    ptxas: bool = False
    """Compile each file with nvcc for exact register figures."""
    time_limit: float | None = DEFAULT_TIME_LIMIT
    """Processor seconds of analysis one translation unit may take after its parse; None: no limit."""
    project_includes: bool = True
    """Look inside the project for headers the include path misses."""
    min_level: Level = Level.WARNING
    """The lowest level reported: notes are plausible but unproven, so they are shown only when asked for."""
    # What to do with the findings, not how they are found: left out of the repr, which keys the cache.
    fix: bool = field(default=False, repr=False)
    """Apply the safe fixes (``--fix``)."""
    unsafe_fixes: bool = field(default=False, repr=False)
    """Apply, and count as available, the fixes that may change what the code computes (``--unsafe-fixes``)."""
    profile: str | None = field(default=None, repr=False)
    """A measured-lines file (``cudalint profile``) to join with the findings (``--profile``)."""

    @property
    def root(self) -> Path:
        return self.path.parent if self.path else Path.cwd()

    def resolve(self, value: str | None) -> str | None:
        if value is None:
            return None
        path = Path(value).expanduser()
        return str(path if path.is_absolute() else (self.root / path))


def find_config(start: Path) -> Path | None:
    """The nearest configuration file at or above ``start``."""
    start = start.resolve()
    for directory in [start, *start.parents] if start.is_dir() else start.parents:
        for name in CONFIG_FILES:
            candidate = directory / name
            if not candidate.is_file():
                continue
            if name != "pyproject.toml":
                return candidate
            try:
                if "cudalint" in tomllib.loads(candidate.read_text(encoding="utf-8")).get("tool", {}):
                    return candidate
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
    return None


def load_config(path: Path) -> Config:
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    if path.name == "pyproject.toml":
        table = document.get("tool", {}).get("cudalint", {})
        if not isinstance(table, dict):
            raise ConfigError(f"{path}: [tool.cudalint] must be a table")
        return parse_config(table, path)
    header = _table_header(document)
    if header is not None:
        raise ConfigError(
            f"{path}: the settings are under `{header}`, which only pyproject.toml uses: in {path.name} they "
            f"stand at the top of the file, so delete the line `{header}`"
        )
    return parse_config(document, path)


def _table_header(document: dict) -> str | None:
    """The table header a dedicated file was given by mistake (copied from a
    pyproject.toml): ``[tool.cudalint]`` or ``[cudalint]`` holding the settings."""
    tool = document.get("tool")
    if isinstance(tool, dict) and isinstance(tool.get("cudalint"), dict):
        return "[tool.cudalint]"
    if isinstance(document.get("cudalint"), dict):
        return "[cudalint]"
    return None


_COMMAND_LINE_NAMES = {"include-dir": "include", "compile-commands-dir": "compile-commands", "headers-dir": "include"}


def _meant(key: str) -> str:
    """`` (did you mean `select`?)`` for a key that is a known one misspelt, written with
    underscores, or named as its command-line option is; empty otherwise."""
    spelled = key.strip().lower().replace("_", "-").lstrip("-")
    guess = _COMMAND_LINE_NAMES.get(spelled) or (spelled if spelled in KNOWN_KEYS else None)
    if guess is None:
        close = difflib.get_close_matches(spelled, KNOWN_KEYS, n=1, cutoff=0.75)
        guess = close[0] if close else None
    return f" (did you mean `{guess}`?)" if guess else ""


def _toml(value) -> str:
    """``value`` as TOML writes it, to show what was read."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    return str(value)


def _quoted(value) -> str:
    """``value`` with every scalar written as a string: what a key expecting strings needs."""
    if isinstance(value, list):
        return "[" + ", ".join(_quoted(v) for v in value) + "]"
    if isinstance(value, (dict, bool)):
        return _toml(value)
    return json.dumps(str(value))


def _string_list(path: Path, key: str, value) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        wanted = _quoted(value if isinstance(value, list) else [value])
        raise ConfigError(f"{path}: `{key}` must be a list of strings: write {key} = {wanted}")
    return list(value)


def parse_config(table: dict, path: Path) -> Config:
    unknown = sorted(set(table) - set(KNOWN_KEYS))
    if unknown:
        names = ", ".join(f"`{key}`{_meant(key)}" for key in unknown)
        plural = "s" if len(unknown) > 1 else ""
        raise ConfigError(f"{path}: unknown configuration key{plural} {names} (known: {', '.join(KNOWN_KEYS)})")
    config = Config(path=path)
    _read_lists(config, table, path)
    _read_strings(config, table, path)
    if "per-file-ignores" in table:
        config.per_file_ignores = _per_file_ignores(table["per-file-ignores"], path)
    if "max-registers" in table:
        value = table["max-registers"]
        if not isinstance(value, int) or isinstance(value, bool) or not 16 <= value <= 255:
            raise ConfigError(f"{path}: `max-registers` must be an integer between 16 and 255 (found {_toml(value)})")
        config.max_registers = value
    for key in ("ptxas", "project-includes", "fix", "unsafe-fixes"):
        if key in table:
            if not isinstance(table[key], bool):
                raise ConfigError(f"{path}: `{key}` must be true or false, unquoted (found {_toml(table[key])})")
            setattr(config, key.replace("-", "_"), table[key])
    if "time-limit" in table:
        config.time_limit = parse_time_limit(table["time-limit"], f"{path}: `time-limit`")
    if "min-level" in table:
        config.min_level = parse_level(table["min-level"], f"{path}: `min-level`")
    return config


def _read_lists(config: Config, table: dict, path: Path) -> None:
    for key in _LIST_KEYS:
        if key in table:
            value = _string_list(path, key, table[key])
            if key in _SELECTOR_KEYS:
                value = parse_selectors(value, where=f"{path}: `{key}`")
            setattr(config, key.replace("-", "_"), value)


def _read_strings(config: Config, table: dict, path: Path) -> None:
    for key in _STRING_KEYS:
        if key in table:
            if not isinstance(table[key], str):
                raise ConfigError(f"{path}: `{key}` must be a string: write {key} = {_quoted(table[key])}")
            setattr(config, key.replace("-", "_"), table[key])
    if config.arch is not None:
        try:
            parse_arch(config.arch)
        except FrontendConfigError as exc:
            raise ConfigError(f"{path}: `arch`: {exc}") from None


def _per_file_ignores(raw, path: Path) -> dict[str, list[str]]:
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: `per-file-ignores` must be a table of glob = [codes]")
    ignores = {}
    for glob, codes in raw.items():
        key = f"per-file-ignores.{glob}"
        ignores[glob] = parse_selectors(_string_list(path, key, codes), where=f"{path}: `{key}`")
    return ignores


def parse_level(value, where: str) -> Level:
    """``note``, ``warning`` or ``error``."""
    try:
        return Level(value)
    except ValueError:
        raise ConfigError(f"{where} must be one of {', '.join(level.value for level in reversed(Level))}") from None


def parse_time_limit(value, where: str) -> float | None:
    """A number of seconds; 0 means no limit."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ConfigError(f"{where} must be a number of seconds (0: no limit)")
    return float(value) or None


def parse_selectors(values: list[str], where: str) -> list[str]:
    """Rule selectors in canonical form: split at commas, upper-cased, each checked against the rule table."""
    selectors = []
    for value in values:
        for text in (part.strip() for part in value.split(",")):
            if not text:
                continue
            selector = text.upper()
            if selector != "ALL" and not any(code.startswith(selector) for code in RULES):
                raise ConfigError(
                    f"{where}: unknown rule selector `{text}` (use a code such as CL401, a prefix such as CL4, or ALL)"
                )
            selectors.append(selector)
    return selectors


def selector_matches(selector: str, code: str) -> bool:
    """``ALL``, a whole code (``CL401``) or a prefix of one (``CL4``)."""
    return selector == "ALL" or code.startswith(selector)


def _match_length(code: str, selectors: list[str]) -> int:
    """Length of the most specific selector matching ``code`` (ALL counts as 0), or -1."""
    return max((0 if s == "ALL" else len(s) for s in selectors if selector_matches(s, code)), default=-1)


def _selection_length(code: str, selectors: list[str]) -> int:
    """As ``_match_length``, counting only the selectors that turn the rule on (see ``Status``)."""
    return _match_length(code, [s for s in selectors if RULES[code].selected_by(s)])


def enabled_rules(
    select: list[str] | None, extend_select: list[str], ignore: list[str], inherited: list[str] | None = None
) -> list[str]:
    """Codes enabled by one layer of selectors on top of ``inherited`` (default: what ``ALL`` selects).

    Within a layer the more specific of select and ignore wins. A layer that sets
    ``select`` starts afresh, so ``--select`` on the command line means exactly what
    it says, while ``--ignore`` and ``--extend-select`` adjust the configured set.
    """
    default = [code for code, row in RULES.items() if row.selected_by("ALL")]
    base = set(default if inherited is None else inherited) if select is None else set()
    chosen = (select or []) + extend_select
    enabled = []
    for code in RULES:
        selected = _selection_length(code, chosen)
        ignored = _match_length(code, ignore)
        if selected > ignored or (ignored < 0 and code in base):
            enabled.append(code)
    return enabled


def _relative_to_root(config: Config, path: Path) -> str:
    """``path`` relative to the configuration's directory; as given when it lies elsewhere
    or has no real path (a symbolic-link loop)."""
    try:
        return str(path.resolve().relative_to(config.root.resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


def ignored_for_file(config: Config, path: str) -> list[str]:
    """Codes that ``per-file-ignores`` switches off for ``path``."""
    relative = _relative_to_root(config, Path(path))
    codes: list[str] = []
    for pattern, selectors in config.per_file_ignores.items():
        if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(Path(path).name, pattern):
            codes.extend(selectors)
    return codes


def is_excluded(config: Config, path: Path, patterns: list[str]) -> bool:
    if not patterns:
        return False  # Making the path relative costs a real-path lookup: skip it when nothing is excluded.
    relative = _relative_to_root(config, path)
    return any(
        fnmatch.fnmatch(relative, pattern)
        or fnmatch.fnmatch(path.name, pattern)
        or fnmatch.fnmatch(relative, pattern.rstrip("/") + "/*")
        for pattern in patterns
    )

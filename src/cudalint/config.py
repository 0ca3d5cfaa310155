"""Configuration: ``cudalint.toml``, ``.cudalint.toml`` or ``pyproject.toml [tool.cudalint]``."""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from cudalint.rules import CATALOG, REGISTRY

CONFIG_FILES = ("cudalint.toml", ".cudalint.toml", "pyproject.toml")

_LIST_KEYS = ("select", "ignore", "extend-select", "exclude", "include", "define")
_STRING_KEYS = ("cuda-path", "arch", "compile-commands")
KNOWN_KEYS = (*_LIST_KEYS, *_STRING_KEYS, "per-file-ignores", "max-registers")


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
    table = document.get("tool", {}).get("cudalint", {}) if path.name == "pyproject.toml" else document
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.cudalint] must be a table")
    return parse_config(table, path)


def _string_list(path: Path, key: str, value) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: `{key}` must be a list of strings")
    return list(value)


def parse_config(table: dict, path: Path) -> Config:
    unknown = sorted(set(table) - set(KNOWN_KEYS))
    if unknown:
        raise ConfigError(f"{path}: unknown configuration key `{unknown[0]}` (known: {', '.join(KNOWN_KEYS)})")
    config = Config(path=path)
    for key in _LIST_KEYS:
        if key in table:
            value = _string_list(path, key, table[key])
            setattr(config, key.replace("-", "_"), value)
    for key in _STRING_KEYS:
        if key in table:
            if not isinstance(table[key], str):
                raise ConfigError(f"{path}: `{key}` must be a string")
            setattr(config, key.replace("-", "_"), table[key])
    if "per-file-ignores" in table:
        raw = table["per-file-ignores"]
        if not isinstance(raw, dict):
            raise ConfigError(f"{path}: `per-file-ignores` must be a table of glob = [codes]")
        config.per_file_ignores = {glob: _string_list(path, f"per-file-ignores.{glob}", codes) for glob, codes in raw.items()}
    if "max-registers" in table:
        value = table["max-registers"]
        if not isinstance(value, int) or isinstance(value, bool) or not 16 <= value <= 255:
            raise ConfigError(f"{path}: `max-registers` must be an integer between 16 and 255")
        config.max_registers = value
    for selectors in (config.select or [], config.ignore, config.extend_select, *config.per_file_ignores.values()):
        validate_selectors(selectors, where=str(path))
    return config


def validate_selectors(selectors: list[str], where: str) -> None:
    for selector in selectors:
        if selector != "ALL" and not any(code.startswith(selector) for code in CATALOG):
            raise ConfigError(f"{where}: unknown rule selector `{selector}` (use a code such as CL401, a prefix such as CL4, or ALL)")


def _match_length(code: str, selectors: list[str]) -> int:
    """Length of the most specific selector matching ``code`` (ALL counts as 0), or -1."""
    best = -1
    for selector in selectors:
        if selector == "ALL":
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


def enabled_rules(select: list[str] | None, extend_select: list[str], ignore: list[str]) -> list[str]:
    """Registered codes enabled by the selectors; the more specific of select/ignore wins."""
    chosen = (select if select is not None else ["ALL"]) + extend_select
    enabled = []
    for code in REGISTRY:
        selected = _match_length(code, chosen)
        ignored = _match_length(code, ignore)
        if selected >= 0 and selected > ignored:
            enabled.append(code)
    return enabled


def ignored_for_file(config: Config, path: str) -> list[str]:
    """Codes that ``per-file-ignores`` switches off for ``path``."""
    relative = path
    try:
        relative = str(Path(path).resolve().relative_to(config.root.resolve()))
    except ValueError:
        pass
    codes: list[str] = []
    for pattern, selectors in config.per_file_ignores.items():
        if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(Path(path).name, pattern):
            codes.extend(selectors)
    return codes


def is_excluded(config: Config, path: Path, patterns: list[str]) -> bool:
    try:
        relative = str(path.resolve().relative_to(config.root.resolve()))
    except ValueError:
        relative = str(path)
    return any(
        fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(path.name, pattern) or fnmatch.fnmatch(relative, pattern.rstrip("/") + "/*")
        for pattern in patterns
    )

"""SARIF 2.1.0 for GitHub code scanning and IDE problem panels.

The log is built from sarif-om's object model but serialized here: sarif-om's own
serializer drops every field equal to its schema default, so ``"level": "warning"``
would vanish and some viewers would then show the wrong severity.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path

import attr
import sarif_om as sarif

from cudalint import __version__
from cudalint.diagnostics import Finding, Level, NoticeKind
from cudalint.engine import RunResult
from cudalint.report import ReportOptions, display_path, source_line
from cudalint.rules import implemented

SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://github.com/cudalint/cudalint"
SRCROOT = "%SRCROOT%"
_ALWAYS_EMIT = {"level"}
_PROBLEM_SEVERITY = {Level.ERROR: "error", Level.WARNING: "warning", Level.NOTE: "recommendation"}
# Descriptors for toolExecutionNotifications, listed in driver.notifications in this order.
_NOTIFICATIONS = {
    NoticeKind.ERROR: ("file-error", "A file could not be analyzed: missing, unreadable or not CUDA source."),
    NoticeKind.INCOMPLETE: (
        "analysis-incomplete",
        "The C++ parser reported errors, or the file reached its time limit; findings cover only what was analyzed.",
    ),
    NoticeKind.NOTE: (
        "project-include",
        "A header the include path missed was found in the project; its directory was added to the include path.",
    ),
}
_NOTIFICATION_LEVEL = {NoticeKind.ERROR: "error", NoticeKind.INCOMPLETE: "warning", NoticeKind.NOTE: "note"}


def to_json(value):
    """sarif-om objects -> JSON-ready data, keeping explicit defaults such as ``level``."""
    if attr.has(type(value)):
        data = {}
        for field in attr.fields(type(value)):
            item = getattr(value, field.name)
            if item is None:
                continue
            default = field.default.factory() if isinstance(field.default, attr.Factory) else field.default
            if item == default and field.name not in _ALWAYS_EMIT:
                continue
            data[field.metadata["schema_property_name"]] = to_json(item)
        return data
    if isinstance(value, dict):
        return {key: to_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    return value


def _rule_descriptor(rule) -> sarif.ReportingDescriptor:
    doc = rule.doc
    return sarif.ReportingDescriptor(
        id=rule.code,
        name=rule.name,
        short_description=sarif.MultiformatMessageString(text=doc.summary),
        full_description=sarif.MultiformatMessageString(text=doc.sections["What it does"].replace("`", "")),
        help=sarif.MultiformatMessageString(text=doc.text, markdown=doc.markdown),
        help_uri=rule.help_uri(),
        default_configuration=sarif.ReportingConfiguration(level=rule.default_level.value),
        properties={
            # SARIF requires distinct tags; a rule's own tag may repeat its category.
            "tags": list(dict.fromkeys(["cuda", rule.category, *rule.tags])),
            "precision": rule.precision,
            "problem.severity": _PROBLEM_SEVERITY[rule.default_level],
        },
    )


def _artifact(path: str, root: str) -> sarif.ArtifactLocation:
    relative = display_path(path, root)
    if Path(relative).is_absolute():
        return sarif.ArtifactLocation(uri=Path(relative).as_uri())
    return sarif.ArtifactLocation(uri=Path(relative).as_posix(), uri_base_id=SRCROOT)


def _region(span) -> sarif.Region:
    return sarif.Region(
        start_line=span.line,
        start_column=span.column,
        end_line=span.end_line,
        end_column=(max(span.end_column, span.column + 1) if span.end_line == span.line else span.end_column),
    )


def _fingerprint(finding: Finding, occurrence: int, line_text: str) -> str:
    # Stable under edits elsewhere in the file: rule, function and the line's own text.
    material = "\0".join((finding.code, finding.function or "", " ".join(line_text.split())))
    return f"{hashlib.sha256(material.encode()).hexdigest()[:16]}:{occurrence}"


def _result(finding: Finding, rule_index: dict[str, int], root: str, fingerprint: str) -> sarif.Result:
    location = sarif.Location(
        physical_location=sarif.PhysicalLocation(
            artifact_location=_artifact(finding.span.file, root), region=_region(finding.span)
        )
    )
    fixes = None
    if finding.fix is not None:
        fixes = [
            sarif.Fix(
                description=sarif.Message(text=finding.fix.description),
                artifact_changes=[
                    sarif.ArtifactChange(
                        artifact_location=_artifact(finding.span.file, root),
                        replacements=[
                            sarif.Replacement(
                                deleted_region=_region(edit.span),
                                inserted_content=sarif.ArtifactContent(text=edit.replacement),
                            )
                            for edit in sorted(finding.fix.edits, key=lambda e: (e.span.line, e.span.column))
                        ],
                    )
                ],
            )
        ]
    properties = dict(finding.properties)
    if finding.function:
        properties["function"] = finding.function
    return sarif.Result(
        rule_id=finding.code,
        rule_index=rule_index[finding.code],
        level=finding.level.value,
        message=sarif.Message(text=finding.message),
        locations=[location],
        partial_fingerprints={"primaryLocationLineHash": fingerprint},
        fixes=fixes,
        properties=properties or None,
    )


def build_log(result: RunResult, options: ReportOptions) -> sarif.SarifLog:
    # %SRCROOT% must be an absolute URI; an unset root means the current directory.
    root = os.path.abspath(options.root or os.getcwd())
    rules = list(implemented().values())
    rule_index = {rule.code: index for index, rule in enumerate(rules)}
    cache: dict[str, list[str]] = {}
    occurrences: Counter = Counter()
    results = []
    for finding in result.findings:
        line_text = source_line(finding.span.file, finding.span.line, cache) or ""
        key = (finding.span.file, finding.code, finding.function, " ".join(line_text.split()))
        occurrences[key] += 1
        results.append(_result(finding, rule_index, root, _fingerprint(finding, occurrences[key], line_text)))
    notification_index = {kind: index for index, kind in enumerate(_NOTIFICATIONS)}
    notifications = []
    for notice in result.notices:
        region = sarif.Region(start_line=notice.line, start_column=notice.column or 1) if notice.line else None
        incomplete = notice.kind is NoticeKind.INCOMPLETE
        notifications.append(
            sarif.Notification(
                level=_NOTIFICATION_LEVEL[notice.kind],
                message=sarif.Message(text=f"analysis incomplete: {notice.message}" if incomplete else notice.message),
                descriptor=sarif.ReportingDescriptorReference(
                    id=_NOTIFICATIONS[notice.kind][0], index=notification_index[notice.kind]
                ),
                locations=[
                    sarif.Location(
                        physical_location=sarif.PhysicalLocation(
                            artifact_location=_artifact(notice.path, root), region=region
                        )
                    )
                ],
            )
        )
    invocation = sarif.Invocation(
        execution_successful=not any(r.internal_error for r in result.files),
        tool_execution_notifications=notifications or None,
    )
    run = sarif.Run(
        tool=sarif.Tool(
            driver=sarif.ToolComponent(
                name="cudalint",
                version=__version__,
                semantic_version=__version__,
                information_uri=INFORMATION_URI,
                rules=[_rule_descriptor(rule) for rule in rules],
                notifications=[
                    sarif.ReportingDescriptor(
                        id=descriptor_id, short_description=sarif.MultiformatMessageString(text=text)
                    )
                    for descriptor_id, text in _NOTIFICATIONS.values()
                ],
            )
        ),
        original_uri_base_ids={SRCROOT: sarif.ArtifactLocation(uri=Path(root).as_uri() + "/")},
        invocations=[invocation],
        results=results,
        column_kind="unicodeCodePoints",
    )
    return sarif.SarifLog(version="2.1.0", schema_uri=SCHEMA_URI, runs=[run])


def render_sarif(result: RunResult, options: ReportOptions) -> str:
    return json.dumps(to_json(build_log(result, options)), indent=2) + "\n"

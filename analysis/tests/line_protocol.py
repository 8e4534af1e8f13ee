"""A strict reader of InfluxDB line protocol, written from the specification, to check our writer.

https://docs.influxdata.com/influxdb/v2/reference/syntax/line-protocol/ :
  measurement[,tag_key=tag_value...] field_key=field_value[,field_key=field_value...] [timestamp]
Measurement: comma and space escaped. Tag keys, tag values, field keys: comma, equals sign and
space escaped. String field values: double quote and backslash escaped. A backslash escapes the
next character. Names must not begin with an underscore; tag values must not be empty; newlines
are not allowed inside a line. Lines starting with # are comments.
"""

from __future__ import annotations

import re

FLOAT = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$")
INTEGER = re.compile(r"^[-+]?\d+i$")
UINTEGER = re.compile(r"^\d+u$")
BOOLEAN = {"t", "T", "true", "True", "TRUE", "f", "F", "false", "False", "FALSE"}


class LineProtocolError(ValueError):
    pass


def _read_name(line: str, pos: int, stops: str, escapable: str) -> tuple[str, int]:
    out = []
    while pos < len(line) and line[pos] not in stops:
        ch = line[pos]
        if ch == "\\" and pos + 1 < len(line) and (line[pos + 1] in escapable or line[pos + 1] == "\\"):
            out.append(line[pos + 1])
            pos += 2
            continue
        if ch == "\\":
            out.append(ch)  # a literal backslash not followed by an escapable character
            pos += 1
            continue
        if ch in escapable and ch not in stops:
            raise LineProtocolError(f"unescaped {ch!r} at column {pos}")
        out.append(ch)
        pos += 1
    return "".join(out), pos


def _read_field_value(line: str, pos: int):
    if line[pos] == '"':
        out, pos = [], pos + 1
        while True:
            if pos >= len(line):
                raise LineProtocolError("unterminated string field")
            ch = line[pos]
            if ch == "\\" and pos + 1 < len(line) and line[pos + 1] in '"\\':
                out.append(line[pos + 1])
                pos += 2
            elif ch == '"':
                return "".join(out), pos + 1
            else:
                out.append(ch)
                pos += 1
    end = pos
    while end < len(line) and line[end] not in ", ":
        end += 1
    token = line[pos:end]
    if FLOAT.match(token):
        return float(token), end
    if INTEGER.match(token):
        return int(token[:-1]), end
    if UINTEGER.match(token):
        return int(token[:-1]), end
    if token in BOOLEAN:
        return token[0] in "tT", end
    raise LineProtocolError(f"invalid field value {token!r}")


def parse_line(line: str) -> dict:
    if "\n" in line or "\r" in line:
        raise LineProtocolError("newline inside a line")
    measurement, pos = _read_name(line, 0, ", ", ", ")
    if not measurement or measurement.startswith("_"):
        raise LineProtocolError(f"invalid measurement {measurement!r}")
    tags = {}
    while pos < len(line) and line[pos] == ",":
        key, pos = _read_name(line, pos + 1, "=", ",= ")
        if pos >= len(line) or line[pos] != "=":
            raise LineProtocolError("tag without '='")
        value, pos = _read_name(line, pos + 1, ", ", ",= ")
        if not key or key.startswith("_") or not value:
            raise LineProtocolError(f"invalid tag {key!r}={value!r}")
        if key in tags:
            raise LineProtocolError(f"duplicate tag {key!r}")
        tags[key] = value
    if pos >= len(line) or line[pos] != " ":
        raise LineProtocolError("no field set")
    fields = {}
    pos += 1
    while True:
        key, pos = _read_name(line, pos, "=", ",= ")
        if pos >= len(line) or line[pos] != "=" or not key or key.startswith("_"):
            raise LineProtocolError(f"invalid field key {key!r}")
        value, pos = _read_field_value(line, pos + 1)
        if key in fields:
            raise LineProtocolError(f"duplicate field {key!r}")
        fields[key] = value
        if pos < len(line) and line[pos] == ",":
            pos += 1
            continue
        break
    timestamp = None
    if pos < len(line):
        if line[pos] != " " or not re.fullmatch(r"-?\d+", line[pos + 1 :]):
            raise LineProtocolError(f"invalid timestamp {line[pos:]!r}")
        timestamp = int(line[pos + 1 :])
        if not -(2**63) <= timestamp < 2**63:
            raise LineProtocolError("timestamp out of the int64 range")
    return {"measurement": measurement, "tags": tags, "fields": fields, "timestamp": timestamp}


def parse(text: str) -> list[dict]:
    return [parse_line(line) for line in text.split("\n") if line and not line.startswith("#")]

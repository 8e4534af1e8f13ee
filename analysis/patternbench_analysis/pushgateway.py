"""`export --push URL`: one Pushgateway group per run, so a second run's push keeps the first's.

A Pushgateway keeps metrics per *grouping key* (the URL path after `/metrics/`); a push replaces
what its group held under the same metric names. With every run pushed to one group
(`/metrics/job/patternbench`), the second run's `patternbench_run_info` and samples replace the
first's. Here each run goes to its own group, `/metrics/job/<job>/run_id/<run_id>`, with PUT:
pushing the same run again replaces only that run (idempotent), other runs stay. Delete old runs
with `curl -X DELETE URL/metrics/job/<job>/run_id/<run_id>`. The samples carry the same `run_id`
label, so the grouping key adds nothing they do not already say.
"""

from __future__ import annotations

import base64
import re
import urllib.error
import urllib.parse
import urllib.request

from .export import openmetrics, run_ids
from .results import InputError, ResultsFolder

SAFE = re.compile(r"^[A-Za-z0-9._~-]+$")


def _label_segment(name: str, value: str) -> str:
    """`name/value` for a grouping-key URL; a value with other characters goes base64url (`name@base64/…`)."""
    if SAFE.match(value):
        return f"{name}/{value}"
    encoded = base64.urlsafe_b64encode(value.encode("utf-8")).decode("ascii")
    return f"{name}@base64/{encoded or '='}"


def group_url(base: str, job: str, run_id: str) -> str:
    return f"{base.rstrip('/')}/metrics/{_label_segment('job', job)}/{_label_segment('run_id', run_id)}"


def push(
    folders: list[ResultsFolder],
    base: str,
    job: str = "patternbench",
    timeout: float = 30.0,
) -> list[str]:
    """PUTs each run's text-format export to its own group; returns the group URLs pushed."""
    if not urllib.parse.urlsplit(base).scheme.startswith("http"):
        raise InputError(f"--push {base}: not an http(s) URL (e.g. http://127.0.0.1:9091)")
    pushed = []
    for run_id in run_ids(folders):
        url = group_url(base, job, run_id)
        body = openmetrics(folders, timestamps=False, only_run=run_id).encode("utf-8")
        request = urllib.request.Request(
            url,
            data=body,
            method="PUT",
            headers={"Content-Type": "text/plain; version=0.0.4; charset=utf-8"},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                response.read()
        except urllib.error.HTTPError as error:
            detail = " ".join(error.read().decode("utf-8", "replace").split())[:300]
            raise InputError(f"--push {url}: the Pushgateway answered {error.code}: {detail}") from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise InputError(f"--push {url}: cannot reach the Pushgateway ({reason})") from None
        pushed.append(url)
    return pushed

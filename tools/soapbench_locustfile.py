"""Locust load from one or many machines: corpus calls POSTed to a soapbench server, every answer
checked (docs/load.md "Distributed load (Locust)").

Each simulated user POSTs corpus calls over one keep-alive connection, one after another (no
wait), and marks a request failed, with the reason, when the answer is not HTTP 200 with the
corpus response's value (tools/sbtools/corpus_calls.py: decoded by `soapbench decode`, each
different answer once). Settings, from the environment of every Locust process:

  SB_FAMILY        corpus family (default soap11-doc-literal)
  SB_CALL          corpus call name(s), comma-separated; each request picks one (default getRate)
  SB_CORPUS        the corpus folder (default: corpus/ of this checkout)
  SB_SOAPBENCH     soapbench, which decodes answers for the check (default: build/soapbench)
  SB_CHECK_PARSER  the adapter it decodes with (default: the first of the format it lists)
  SB_SUMMARY       at the end, the master (or a lone Locust) writes the totals here as JSON:
                   {"requests", "failures", "errors": [{"name", "error", "occurrences"}]}

  locust -f tools/soapbench_locustfile.py --headless -u 8 -r 8 -t 30s \\
      --host http://127.0.0.1:8080
"""
import json
import os
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/
# locust puts this file's folder, tools/, on the path: the package beside it holds the corpus calls.
from sbtools import corpus_calls as cc  # noqa: E402
import gevent  # noqa: E402
import locust.runners  # noqa: E402
from locust import FastHttpUser, events, task  # noqa: E402
from locust.runners import WorkerRunner  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMILY = os.environ.get("SB_FAMILY", "soap11-doc-literal")
CALLS = [cc.load_call(FAMILY, name, os.environ.get("SB_CORPUS", cc.CORPUS))
         for name in os.environ.get("SB_CALL", "getRate").split(",") if name]
CHECK = cc.AnswerCheck(os.environ.get("SB_SOAPBENCH", os.path.join(REPO, "build", "soapbench")),
                       os.environ.get("SB_CHECK_PARSER") or None)

# Debian's python3-locust 2.12.1 has an empty version string, which a worker sends on connecting
# and a master takes for a pre-2.0 worker it refuses ("That's not going to work"): every process
# of a run loads this file, so they agree on this one.
if not locust.runners.__version__:
    locust.runners.__version__ = "0+debian-empty-version"

# Locust times --run-time from the event loop's cached clock, which stands still until the loop
# first runs: on a busy machine a slow start (seconds to import Locust) ate a short run whole.
gevent.get_hub().loop.update_now()


class SoapbenchUser(FastHttpUser):
    """A client POSTing corpus calls back to back and checking each answer."""

    @task
    def corpus_call(self):
        """One corpus call, named <family>/<call> in Locust's statistics."""
        call = random.choice(CALLS)
        with self.client.post(call.path, data=call.body, headers=call.headers,
                              name=f"{call.family}/{call.name}", catch_response=True) as resp:
            problem = CHECK.problem(call, resp.status_code, resp.content or b"")
            if problem:
                resp.failure(problem)
            else:
                resp.success()


@events.quitting.add_listener
def write_summary(environment, **_kwargs):
    """SB_SUMMARY: the run's totals and failure reasons, from the master or a lone Locust (a
    worker's own statistics are only its share)."""
    path = os.environ.get("SB_SUMMARY")
    if not path or isinstance(environment.runner, WorkerRunner):
        return
    stats = environment.runner.stats
    doc = {"requests": stats.total.num_requests, "failures": stats.total.num_failures,
           "errors": [{"name": e.name, "error": str(e.error), "occurrences": e.occurrences}
                      for e in stats.errors.values()]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)

"""Loaded by schemathesis in the API proof (tools/api/fuzz.mjs sets SCHEMATHESIS_HOOKS to this file).

Idempotency-Key: a client sends a key of its own with each request it means (docs/api.md,
Idempotency): the same key again means "the same request again", so the server replays the stored
answer, or refuses another body with 422 `idempotency_key_reused` and a request still running with
409. Values drawn from the header's schema repeat across operations and bodies ("", "0", ...), so
each request goes out with a fresh key, as a client's would. A key that breaks the documented rule
(over 255 characters, sent by the negative phases) is left as generated, so its 400 is still tested;
the replay and conflict rules are tested by libs/testing/test/integration/idempotency.integration-spec.ts.

The key is replaced on the wire (requests' Session.send), not in schemathesis's test case: editing the
case makes schemathesis re-label it (a "missing header" case of the coverage phase would then be
judged as if its other headers were missing too).
"""

import uuid

import requests

HEADER = "Idempotency-Key"
MAX_LENGTH = 255

_send = requests.Session.send


def _send_with_fresh_key(self, request, **kwargs):
    value = request.headers.get(HEADER)
    if isinstance(value, (str, bytes)) and len(value) <= MAX_LENGTH:
        request.headers[HEADER] = f"fuzz-{uuid.uuid4()}"
    return _send(self, request, **kwargs)


requests.Session.send = _send_with_fresh_key

"""The generated Python client (openapi-generator, .stack/api-clients/python/<service>) against a running
stack: what an adopter writes with it works end to end. Every request body is built from JSON by its
generated model and every answer decoded by its generated model, strictly (a field the document does
not declare, or a value of another type, fails the step).

Run by tools/api/prove.mjs: python prove.py <stack.json>. Prints one line per step, "ok <step>",
"FAIL <step>: <why>" or "skip <step>: <why>"; exits 1 when a step failed.
"""

import json
import sys
import time

import kyc_checks
import kyc_customers
import kyc_engagement
import kyc_identity
import kyc_validations

stack = json.load(open(sys.argv[1]))
failed = False


def client(package, service):
    configuration = package.Configuration(host=stack["services"][service])
    configuration.api_key["api-key"] = stack["api_key"]
    return package.ApiClient(configuration)


def step(name, fn, *needs):
    global failed
    missing = [n for n in needs if n is None]
    if missing:
        print(f"skip {name}: an earlier step failed", flush=True)
        return None
    try:
        result = fn()
        print(f"ok {name}", flush=True)
        return result
    except Exception as err:  # the step's failure is reported, the others still run
        failed = True
        detail = f"{getattr(err, 'status', '')} {getattr(err, 'body', '')}" if hasattr(err, "body") else str(err)
        reason = " ".join(detail.split())[:400]
        print(f"FAIL {name}: {type(err).__name__}: {reason}", flush=True)
        return None


def body(package, model, data):
    """The request body `data` as the generated model `model`, strictly; a document that publishes the
    body as an empty object generates no model: the dict itself then."""
    cls = getattr(package, model, None)
    return cls.from_dict(data) if cls is not None else data


def eventually(fn, what, timeout=60):
    deadline = time.time() + timeout
    while True:
        value = fn()
        if value:
            return value
        if time.time() > deadline:
            raise TimeoutError(f"{what} not reached in {timeout} s")
        time.sleep(0.5)


checks = kyc_checks.ChecksApi(client(kyc_checks, "checks"))
flows = kyc_identity.FlowsApi(client(kyc_identity, "identity"))
keys = kyc_identity.ApiKeysApi(client(kyc_identity, "identity"))
engagement = client(kyc_engagement, "engagement")
lines = kyc_engagement.MessagingLinesApi(engagement)
outbounds = kyc_engagement.OutboundMessagesApi(engagement)
customers = client(kyc_customers, "customers")
contacts = kyc_customers.ContactsApi(customers)
segments = kyc_customers.SegmentsApi(customers)
validations_client = client(kyc_validations, "validations")
validation_accounts = kyc_validations.AccountsApi(validations_client)
enrollments = kyc_validations.EnrollmentsApi(validations_client)
validations = kyc_validations.ValidationsApi(validations_client)
run = str(int(time.time() * 1000))

# A background check, then its scores once it has finished.
check = step(
    "check.create",
    lambda: checks.checks_create(
        kyc_checks.CreateCheckDto.from_dict(
            {"country": "CO", "type": "person", "user_authorized": True, "national_id": "79111222", "first_name": "Ana"}
        )
    ).check,
)
step(
    "check.scores",
    lambda: eventually(
        lambda: checks.checks_details(check.check_id).details is not None
        and checks.checks_get(check.check_id).check.status != "in_progress",
        "the check finished",
    ),
    check,
)

# An identity flow and a web key for it.
flow = step(
    "flow.create",
    lambda: flows.flows_create(
        kyc_identity.CreateFlowDto.from_dict(
            {"name": f"python client {run}", "steps": [{"type": "email"}], "redirect_url": "https://example.com/done"}
        )
    ),
)
step(
    "webkey.create",
    lambda: keys.api_keys_create(
        kyc_identity.CreateApiKeyDto.from_dict(
            {
                "key_type": "web",
                "grant": "digital-identity",
                "flow_id": flow.flow_id,
                "country": "CO",
                "redirect_url": "https://example.com/done",
            }
        )
    ).api_key,
    flow,
)

# A message through the sandbox WhatsApp provider: an outbound template, approved, then sent.
line = step("message.line", lambda: lines.lines_list()[0].waba_line)
outbound = step(
    "message.outbound",
    lambda: outbounds.outbounds_create(
        body(
            kyc_engagement,
            "SaveOutboundDto",
            {
                "outbound_name": f"python client {run}",
                "waba_phone_number": line,
                "category": "MARKETING",
                "language_code": "es",
                "template_type": "TEXT",
                "is_notification": True,
                "content": "Hola {{.name}}, tu pedido llega hoy.",
                "var": {"name": {"value": "Ana"}},
            }
        )
    ),
    line,
)
step(
    "message.send",
    lambda: (
        eventually(lambda: outbounds.outbounds_get(outbound.outbound_id).status == "APPROVED", "outbound approved"),
        outbounds.messages_send(
            body(
                kyc_engagement,
                "SendOutboundDto",
                {
                    "phone_country_code": "+57",
                    "phone_number": "3001234567",
                    "outbound_id": outbound.outbound_id,
                    "user_authorized": True,
                    "var": {"name": "Ana"},
                }
            )
        ),
    ),
    outbound,
)

# A contact and a segment of customers.
step(
    "contact.create",
    lambda: contacts.contacts_create(
        kyc_customers.CreateContactDto.from_dict(
            {"phone_number": "+573001110002", "external_id": f"python-{run}", "name": "Ana Python"}
        )
    ).contact,
)
step(
    "segment.create",
    lambda: segments.segments_create(
        kyc_customers.CreateSegmentDto.from_dict(
            {"name": f"python client {run}", "rule": {">=": [{"var": "checks_count"}, 1]}}
        )
    ).segment,
)

# An e-mail validation of an enrolled account.
account_id = f"python-{run}"
enrolled = step(
    "validation.enroll",
    lambda: (
        validation_accounts.accounts_create(
            kyc_validations.CreateAccountDto.from_dict({"account_id": account_id, "first_name": "Ana"})
        ),
        enrollments.enrollments_create(
            kyc_validations.CreateEnrollmentDto.from_dict(
                {
                    "type": "email-verification",
                    "user_authorized": True,
                    "account_id": account_id,
                    "email": f"{account_id}@mail.test",
                }
            )
        ),
    ),
)
validation = step(
    "validation.create",
    lambda: validations.validations_create(
        kyc_validations.CreateValidationDto.from_dict(
            {"type": "email-verification", "user_authorized": True, "account_id": account_id}
        )
    ),
    enrolled,
)
step("validation.read", lambda: validations.validations_get(validation.validation_id), validation)

sys.exit(1 if failed else 0)

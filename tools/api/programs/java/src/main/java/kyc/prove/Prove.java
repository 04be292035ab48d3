// The generated Java clients (openapi-generator, okhttp-gson, .stack/api-clients/java/<service>) against
// a running stack: what an adopter writes with them works end to end. Every request body is built from
// JSON by its generated model (fromJson) and every answer decoded by its generated model, strictly
// (a field the document does not declare fails; a value of another type fails).
//
// Run by tools/api/prove.mjs: java kyc.prove.Prove <stack.json>. Prints one line per step, "ok <step>",
// "FAIL <step>: <why>" or "skip <step>: <why>"; exits 1 when a step failed.
package kyc.prove;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.nio.file.Files;
import java.nio.file.Path;

public final class Prove {
  interface Step<T> {
    T run() throws Exception;
  }

  interface Condition {
    boolean done() throws Exception;
  }

  private static boolean failed = false;

  /** Runs a step; null when it failed or an earlier step it needs did. */
  static <T> T step(String name, boolean ready, Step<T> fn) {
    if (!ready) {
      System.out.println("skip " + name + ": an earlier step failed");
      return null;
    }
    try {
      T value = fn.run();
      System.out.println("ok " + name);
      return value;
    } catch (Exception err) {
      failed = true;
      String reason = err.getClass().getSimpleName() + ": " + err.getMessage();
      String body = bodyOf(err);
      if (body != null) reason += " " + body;
      reason = reason.replaceAll("\\s+", " ");
      System.out.println("FAIL " + name + ": " + (reason.length() > 400 ? reason.substring(0, 400) : reason));
      return null;
    }
  }

  /** The response body of an ApiException of any of the generated clients. */
  static String bodyOf(Exception err) {
    try {
      return (String) err.getClass().getMethod("getResponseBody").invoke(err);
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }

  static void eventually(String what, Condition condition) throws Exception {
    eventually(what, condition, () -> "");
  }

  static void eventually(String what, Condition condition, java.util.function.Supplier<String> state)
      throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (!condition.done()) {
      if (System.currentTimeMillis() > deadline)
        throw new IllegalStateException(what + " not reached in 60 s " + state.get());
      Thread.sleep(500);
    }
  }

  public static void main(String[] args) throws Exception {
    JsonObject stack = JsonParser.parseString(Files.readString(Path.of(args[0]))).getAsJsonObject();
    JsonObject services = stack.getAsJsonObject("services");
    String key = stack.get("api_key").getAsString();
    String run = String.valueOf(System.currentTimeMillis());

    kyc.client.checks.ApiClient checksClient = new kyc.client.checks.ApiClient();
    checksClient.setBasePath(services.get("checks").getAsString());
    checksClient.setApiKey(key);
    kyc.client.identity.ApiClient identityClient = new kyc.client.identity.ApiClient();
    identityClient.setBasePath(services.get("identity").getAsString());
    identityClient.setApiKey(key);
    kyc.client.engagement.ApiClient engagementClient = new kyc.client.engagement.ApiClient();
    engagementClient.setBasePath(services.get("engagement").getAsString());
    engagementClient.setApiKey(key);
    kyc.client.customers.ApiClient customersClient = new kyc.client.customers.ApiClient();
    customersClient.setBasePath(services.get("customers").getAsString());
    customersClient.setApiKey(key);
    kyc.client.validations.ApiClient validationsClient = new kyc.client.validations.ApiClient();
    validationsClient.setBasePath(services.get("validations").getAsString());
    validationsClient.setApiKey(key);

    var checks = new kyc.client.checks.api.ChecksApi(checksClient);
    var flows = new kyc.client.identity.api.FlowsApi(identityClient);
    var keys = new kyc.client.identity.api.ApiKeysApi(identityClient);
    var lines = new kyc.client.engagement.api.MessagingLinesApi(engagementClient);
    var outbounds = new kyc.client.engagement.api.OutboundMessagesApi(engagementClient);
    var contacts = new kyc.client.customers.api.ContactsApi(customersClient);
    var segments = new kyc.client.customers.api.SegmentsApi(customersClient);
    var accounts = new kyc.client.validations.api.AccountsApi(validationsClient);
    var enrollments = new kyc.client.validations.api.EnrollmentsApi(validationsClient);
    var validations = new kyc.client.validations.api.ValidationsApi(validationsClient);

    // A background check, then its scores once it has finished.
    var check =
        step(
            "check.create",
            true,
            () ->
                checks
                    .checksCreate(
                        kyc.client.checks.model.CreateCheckDto.fromJson(
                            "{\"country\":\"CO\",\"type\":\"person\",\"user_authorized\":true,\"national_id\":\"79111222\",\"first_name\":\"Ana\"}"),
                        null)
                    .getCheck());
    step(
        "check.scores",
        check != null,
        () -> {
          eventually(
              "the check finished",
              () ->
                  !"in_progress"
                      .equals(String.valueOf(checks.checksGet(check.getCheckId()).getCheck().getStatus())));
          return checks.checksDetails(check.getCheckId(), null, null);
        });

    // An identity flow and a web key for it.
    var flow =
        step(
            "flow.create",
            true,
            () ->
                flows.flowsCreate(
                    kyc.client.identity.model.CreateFlowDto.fromJson(
                        "{\"name\":\"java client " + run + "\",\"steps\":[{\"type\":\"email\"}],\"redirect_url\":\"https://example.com/done\"}"),
                    null));
    step(
        "webkey.create",
        flow != null,
        () ->
            keys.apiKeysCreate(
                kyc.client.identity.model.CreateApiKeyDto.fromJson(
                    "{\"key_type\":\"web\",\"grant\":\"digital-identity\",\"flow_id\":\""
                        + flow.getFlowId()
                        + "\",\"country\":\"CO\",\"redirect_url\":\"https://example.com/done\"}"),
                null));

    // A message through the sandbox WhatsApp provider: an outbound template, approved, then sent.
    var line = step("message.line", true, () -> lines.linesList().get(0).getWabaLine());
    var outbound =
        step(
            "message.outbound",
            line != null,
            () ->
                outbounds.outboundsCreate(
                    kyc.client.engagement.model.SaveOutboundDto.fromJson(
                        "{\"outbound_name\":\"java client " + run + "\",\"waba_phone_number\":\"" + line
                            + "\",\"category\":\"MARKETING\",\"language_code\":\"es\",\"template_type\":\"TEXT\","
                            + "\"is_notification\":true,\"content\":\"Hola {{.name}}, tu pedido llega hoy.\","
                            + "\"var\":{\"name\":{\"value\":\"Ana\"}}}"),
                    null));
    step(
        "message.send",
        outbound != null,
        () -> {
          String[] last = {null};
          eventually(
              "outbound approved",
              () -> {
                var read = outbounds.outboundsGet(outbound.getOutboundId());
                last[0] = read.getStatus() + " " + read.getStatusReason();
                return "APPROVED".equals(String.valueOf(read.getStatus()));
              },
              () -> "the outbound is " + last[0]);
          return outbounds.messagesSend(
              kyc.client.engagement.model.SendOutboundDto.fromJson(
                  "{\"phone_country_code\":\"+57\",\"phone_number\":\"3001234567\",\"outbound_id\":\""
                      + outbound.getOutboundId()
                      + "\",\"user_authorized\":true,\"var\":{\"name\":\"Ana\"}}"),
              null);
        });

    // A contact and a segment of customers.
    step(
        "contact.create",
        true,
        () ->
            contacts
                .contactsCreate(
                    kyc.client.customers.model.CreateContactDto.fromJson(
                        "{\"phone_number\":\"+573001110004\",\"external_id\":\"java-" + run + "\",\"name\":\"Ana Java\"}"),
                    null)
                .getContact());
    step(
        "segment.create",
        true,
        () ->
            segments
                .segmentsCreate(
                    kyc.client.customers.model.CreateSegmentDto.fromJson(
                        "{\"name\":\"java client " + run + "\",\"rule\":{\">=\":[{\"var\":\"checks_count\"},1]}}"),
                    null)
                .getSegment());

    // An e-mail validation of an enrolled account.
    String accountId = "java-" + run;
    var enrolled =
        step(
            "validation.enroll",
            true,
            () -> {
              accounts.accountsCreate(
                  kyc.client.validations.model.CreateAccountDto.fromJson(
                      "{\"account_id\":\"" + accountId + "\",\"first_name\":\"Ana\"}"),
                  null);
              return enrollments.enrollmentsCreate(
                  kyc.client.validations.model.CreateEnrollmentDto.fromJson(
                      "{\"type\":\"email-verification\",\"user_authorized\":true,\"account_id\":\"" + accountId
                          + "\",\"email\":\"" + accountId + "@mail.test\"}"),
                  null,
                  null);
            });
    var validation =
        step(
            "validation.create",
            enrolled != null,
            () ->
                validations.validationsCreate(
                    kyc.client.validations.model.CreateValidationDto.fromJson(
                        "{\"type\":\"email-verification\",\"user_authorized\":true,\"account_id\":\"" + accountId + "\"}"),
                    null));
    step(
        "validation.read",
        validation != null,
        () -> validations.validationsGet(validation.getValidationId(), null));

    System.exit(failed ? 1 : 0);
  }

  private Prove() {}
}

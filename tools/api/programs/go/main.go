// The generated Go client (openapi-generator, .stack/api-clients/go/<service>) against a running
// stack: what an adopter writes with it works end to end. Every request body is decoded from JSON
// into its generated model and every answer by its generated model, strictly (the models refuse a
// field the document does not declare; a value of another type fails).
//
// Run by tools/api/prove.mjs: go run . <stack.json>. Prints one line per step, "ok <step>",
// "FAIL <step>: <why>" or "skip <step>: <why>"; exits 1 when a step failed.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	checks "kyc.local/clients/checks"
	customers "kyc.local/clients/customers"
	engagement "kyc.local/clients/engagement"
	identity "kyc.local/clients/identity"
	validations "kyc.local/clients/validations"
)

type stackInfo struct {
	Services map[string]string `json:"services"`
	APIKey   string            `json:"api_key"`
}

var failed = false

// step runs one step; a step whose input an earlier failed step should have given is skipped.
func step(name string, ready bool, fn func() error) bool {
	if !ready {
		fmt.Printf("skip %s: an earlier step failed\n", name)
		return false
	}
	if err := fn(); err != nil {
		failed = true
		var open interface{ Body() []byte }
		reason := err.Error()
		if errors.As(err, &open) {
			reason += " " + string(open.Body())
		}
		reason = strings.Join(strings.Fields(reason), " ")
		if len(reason) > 400 {
			reason = reason[:400]
		}
		fmt.Printf("FAIL %s: %s\n", name, reason)
		return false
	}
	fmt.Printf("ok %s\n", name)
	return true
}

// decode builds a request model from JSON, strictly (the model's UnmarshalJSON refuses unknown fields).
func decode[T any](raw string) (T, error) {
	var v T
	err := json.Unmarshal([]byte(raw), &v)
	return v, err
}

func eventually(what string, fn func() (bool, error)) error {
	deadline := time.Now().Add(60 * time.Second)
	for {
		done, err := fn()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not reached in 60 s", what)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func main() {
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var stack stackInfo
	if err := json.Unmarshal(raw, &stack); err != nil {
		panic(err)
	}
	run := fmt.Sprint(time.Now().UnixMilli())

	checksCfg := checks.NewConfiguration()
	checksCfg.Servers = checks.ServerConfigurations{{URL: stack.Services["checks"]}}
	checksAPI := checks.NewAPIClient(checksCfg)
	identityCfg := identity.NewConfiguration()
	identityCfg.Servers = identity.ServerConfigurations{{URL: stack.Services["identity"]}}
	identityAPI := identity.NewAPIClient(identityCfg)
	engagementCfg := engagement.NewConfiguration()
	engagementCfg.Servers = engagement.ServerConfigurations{{URL: stack.Services["engagement"]}}
	engagementAPI := engagement.NewAPIClient(engagementCfg)
	customersCfg := customers.NewConfiguration()
	customersCfg.Servers = customers.ServerConfigurations{{URL: stack.Services["customers"]}}
	customersAPI := customers.NewAPIClient(customersCfg)
	validationsCfg := validations.NewConfiguration()
	validationsCfg.Servers = validations.ServerConfigurations{{URL: stack.Services["validations"]}}
	validationsAPI := validations.NewAPIClient(validationsCfg)
	// The key goes in every request's context, under each client's own key type.
	key := func(ctx context.Context) context.Context {
		ctx = context.WithValue(ctx, checks.ContextAPIKeys, map[string]checks.APIKey{"api-key": {Key: stack.APIKey}})
		ctx = context.WithValue(ctx, identity.ContextAPIKeys, map[string]identity.APIKey{"api-key": {Key: stack.APIKey}})
		ctx = context.WithValue(ctx, engagement.ContextAPIKeys, map[string]engagement.APIKey{"api-key": {Key: stack.APIKey}})
		ctx = context.WithValue(ctx, customers.ContextAPIKeys, map[string]customers.APIKey{"api-key": {Key: stack.APIKey}})
		return context.WithValue(ctx, validations.ContextAPIKeys, map[string]validations.APIKey{"api-key": {Key: stack.APIKey}})
	}
	ctx := key(context.Background())

	// A background check, then its scores once it has finished.
	var checkID string
	created := step("check.create", true, func() error {
		body, err := decode[checks.CreateCheckDto](`{"country":"CO","type":"person","user_authorized":true,"national_id":"79111222","first_name":"Ana"}`)
		if err != nil {
			return err
		}
		res, _, err := checksAPI.ChecksAPI.ChecksCreate(ctx).CreateCheckDto(body).Execute()
		if err == nil {
			checkID = res.Check.GetCheckId()
		}
		return err
	})
	step("check.scores", created, func() error {
		return eventually("the check finished", func() (bool, error) {
			read, _, err := checksAPI.ChecksAPI.ChecksGet(ctx, checkID).Execute()
			if err != nil || read.Check.GetStatus() == "in_progress" {
				return false, err
			}
			_, _, err = checksAPI.ChecksAPI.ChecksDetails(ctx, checkID).Execute()
			return err == nil, err
		})
	})

	// An identity flow and a web key for it.
	var flowID string
	flowCreated := step("flow.create", true, func() error {
		body, err := decode[identity.CreateFlowDto](fmt.Sprintf(`{"name":"go client %s","steps":[{"type":"email"}],"redirect_url":"https://example.com/done"}`, run))
		if err != nil {
			return err
		}
		res, _, err := identityAPI.FlowsAPI.FlowsCreate(ctx).CreateFlowDto(body).Execute()
		if err == nil {
			flowID = res.GetFlowId()
		}
		return err
	})
	step("webkey.create", flowCreated, func() error {
		body, err := decode[identity.CreateApiKeyDto](fmt.Sprintf(`{"key_type":"web","grant":"digital-identity","flow_id":%q,"country":"CO","redirect_url":"https://example.com/done"}`, flowID))
		if err != nil {
			return err
		}
		_, _, err = identityAPI.ApiKeysAPI.ApiKeysCreate(ctx).CreateApiKeyDto(body).Execute()
		return err
	})

	// A message through the sandbox WhatsApp provider: an outbound template, approved, then sent.
	var line, outboundID string
	lined := step("message.line", true, func() error {
		lines, _, err := engagementAPI.MessagingLinesAPI.LinesList(ctx).Execute()
		if err == nil && len(lines) > 0 {
			line = lines[0].GetWabaLine()
		} else if err == nil {
			err = errors.New("no messaging line")
		}
		return err
	})
	outbound := step("message.outbound", lined, func() error {
		body, err := decode[engagement.SaveOutboundDto](fmt.Sprintf(`{"outbound_name":"go client %s","waba_phone_number":%q,"category":"MARKETING","language_code":"es","template_type":"TEXT","is_notification":true,"content":"Hola {{.name}}, tu pedido llega hoy.","var":{"name":{"value":"Ana"}}}`, run, line))
		if err != nil {
			return err
		}
		res, _, err := engagementAPI.OutboundMessagesAPI.OutboundsCreate(ctx).SaveOutboundDto(body).Execute()
		if err == nil {
			outboundID = res.GetOutboundId()
		}
		return err
	})
	step("message.send", outbound, func() error {
		err := eventually("outbound approved", func() (bool, error) {
			read, _, err := engagementAPI.OutboundMessagesAPI.OutboundsGet(ctx, outboundID).Execute()
			return err == nil && read.GetStatus() == "APPROVED", err
		})
		if err != nil {
			return err
		}
		body, err := decode[engagement.SendOutboundDto](fmt.Sprintf(`{"phone_country_code":"+57","phone_number":"3001234567","outbound_id":%q,"user_authorized":true,"var":{"name":"Ana"}}`, outboundID))
		if err != nil {
			return err
		}
		_, _, err = engagementAPI.OutboundMessagesAPI.MessagesSend(ctx).SendOutboundDto(body).Execute()
		return err
	})

	// A contact and a segment of customers.
	step("contact.create", true, func() error {
		body, err := decode[customers.CreateContactDto](fmt.Sprintf(`{"phone_number":"+573001110003","external_id":"go-%s","name":"Ana Go"}`, run))
		if err != nil {
			return err
		}
		_, _, err = customersAPI.ContactsAPI.ContactsCreate(ctx).CreateContactDto(body).Execute()
		return err
	})
	step("segment.create", true, func() error {
		body, err := decode[customers.CreateSegmentDto](fmt.Sprintf(`{"name":"go client %s","rule":{">=":[{"var":"checks_count"},1]}}`, run))
		if err != nil {
			return err
		}
		_, _, err = customersAPI.SegmentsAPI.SegmentsCreate(ctx).CreateSegmentDto(body).Execute()
		return err
	})

	// An e-mail validation of an enrolled account.
	accountID := "go-" + run
	var validationID string
	enrolled := step("validation.enroll", true, func() error {
		account, err := decode[validations.CreateAccountDto](fmt.Sprintf(`{"account_id":%q,"first_name":"Ana"}`, accountID))
		if err != nil {
			return err
		}
		if _, _, err = validationsAPI.AccountsAPI.AccountsCreate(ctx).CreateAccountDto(account).Execute(); err != nil {
			return err
		}
		enrollment, err := decode[validations.CreateEnrollmentDto](fmt.Sprintf(`{"type":"email-verification","user_authorized":true,"account_id":%q,"email":"%s@mail.test"}`, accountID, accountID))
		if err != nil {
			return err
		}
		_, _, err = validationsAPI.EnrollmentsAPI.EnrollmentsCreate(ctx).CreateEnrollmentDto(enrollment).Execute()
		return err
	})
	validated := step("validation.create", enrolled, func() error {
		body, err := decode[validations.CreateValidationDto](fmt.Sprintf(`{"type":"email-verification","user_authorized":true,"account_id":%q}`, accountID))
		if err != nil {
			return err
		}
		res, _, err := validationsAPI.ValidationsAPI.ValidationsCreate(ctx).CreateValidationDto(body).Execute()
		if err == nil {
			validationID = res.GetValidationId()
		}
		return err
	})
	step("validation.read", validated, func() error {
		_, _, err := validationsAPI.ValidationsAPI.ValidationsGet(ctx, validationID).Execute()
		return err
	})

	if failed {
		os.Exit(1)
	}
}

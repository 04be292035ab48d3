import { RULE_EVENT_TYPE_NAMES } from '@kyc/contracts';
import { OPERATOR_NAMES } from '@kyc/json-logic';
import { ApiEnvelopeErrors, ApiSuccess, BackendKeys, RequirePermissions } from '@kyc/platform';
import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { CHECK_FINISHED_VARIABLES } from './engine/check-variables';
import { RULES_PERMISSION } from './rules.permissions';
import { TEMPLATE_FILTERS } from './templates/template';

const SPEC = {
  event_types: RULE_EVENT_TYPE_NAMES.map((event_type) => ({ event_type, variables: CHECK_FINISHED_VARIABLES })),
  condition: {
    language: 'JSON-Logic',
    operators: OPERATOR_NAMES,
    example: { and: [{ '==': [{ var: 'country' }, 'CO'] }, { '<': [{ var: 'score' }, 0.5] }] },
  },
  templates: {
    syntax:
      '{{.name}} (an event variable, else an env var of the action), {{.env.NAME}} (an env var), {{.name | json}}',
    filters: TEMPLATE_FILTERS,
    example: '{"check": {{.check_id | json}}, "score": {{.score}}}',
  },
};

/** The variables rule conditions and action templates can use. */
@ApiTags('rules engine')
@RequirePermissions(RULES_PERMISSION)
@BackendKeys()
@Controller('v1/bre/variables-spec')
export class VariablesController {
  @Get()
  @ApiSuccess({
    description: 'The variables of each event type, the condition operators and the template syntax',
    schema: {
      type: 'object',
      properties: {
        event_types: { type: 'array', items: { type: 'object', additionalProperties: true } },
        condition: { type: 'object', additionalProperties: true },
        templates: { type: 'object', additionalProperties: true },
      },
    },
    example: SPEC,
  })
  @ApiEnvelopeErrors(403)
  get() {
    return SPEC;
  }
}

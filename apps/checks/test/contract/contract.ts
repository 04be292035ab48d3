import { type ContractDeviation, PublishedContract } from '@kyc/testing';

import published from './truora-checks-openapi.json';

/**
 * Where the checks service knowingly answers differently from Truora's published document
 * (truora-checks-openapi.json, a verbatim copy). docs/services/checks.md lists the same entries
 * with the same reasons: keep them in step.
 */
const LIST_CHECK_FIELDS = ['statuses', 'country', 'score', 'summary', 'type', 'id_score'] as const;

export const deviations: ContractDeviation[] = [
  {
    pointer: '/components/schemas/Error/properties/code',
    schema: { type: 'integer' },
    reason:
      'Error bodies are the platform service envelope shared by every service (code = integer HTTP status, ' +
      'status, message, error_code, fields). The published Error is self-contradictory: it types `code` as a string ' +
      'while its own description documents numeric codes (10404) and shows an integer http_code.',
  },
  {
    pointer: '/components/schemas/ListContinuousChecksOutput/properties/continuous_checks/items',
    schema: {
      allOf: [
        { $ref: '#/components/schemas/ContinuousCheck' },
        {
          type: 'object',
          required: [...LIST_CHECK_FIELDS],
          properties: Object.fromEntries(
            LIST_CHECK_FIELDS.map((name) => [name, published.components.schemas.Check.properties[name]]),
          ),
        },
      ],
    },
    reason:
      'The published document is self-contradictory: it types the items of the continuous-check list as Check ' +
      '(whose `status` enum has no enabled/disabled) while every other continuous-check route returns ' +
      'ContinuousCheck. Each item is the ContinuousCheck of those routes and carries the required Check fields ' +
      "of the monitored check (statuses, country, score, summary, type, id_score) as published; only `status` is the continuous check's.",
  },
  {
    pointer: '/components/schemas/Check/properties/type',
    schema: { type: 'string' },
    reason:
      "Spec 1: a check's type is person, vehicle, company or the name of a custom type of the tenant " +
      '(POST /v1/config); the published enum lists only the three built-in types.',
  },
  {
    pointer: '/components/schemas/Check/properties/region',
    schema: { type: 'string', enum: [...published.components.schemas.Check.properties.region.enum, 'ALL'] },
    reason: "Spec 1: a Brazilian check's region may also be ALL (nation-wide search), which the published enum omits.",
  },
];

/** The published checks OpenAPI as the response contract of the checks integration suites. */
export const contract = new PublishedContract(published, deviations);

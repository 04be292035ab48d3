// How the API proof reads schemathesis's log and judges its findings against the allow-list's reasons
// (node --test tools/api; `npm test` runs it before the integration suites).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { allowed, findingsOf, refusalsOf } from './fuzz.mjs';

const envelope = (fields) =>
  JSON.stringify({ code: 400, status: 'Bad Request', message: 'Invalid request parameters', fields });

/** A failure section as schemathesis 4 prints it (`--output-truncate false`). */
const section = (operation, cases) =>
  [
    `______________________________ ${operation} _______________________________`,
    ...cases.flatMap((body, i) => [
      `${i + 1}. Test Case ID: case${i}`,
      '',
      '- ST202 Schema-valid request rejected',
      '',
      '    Valid data should have been accepted',
      '    Expected: 2xx, 3xx, 401, 403, 404, 409, 429, 5xx',
      '',
      '[400] Bad Request:',
      '',
      `    \`${body}\``,
      '',
      'Reproduce with:',
      '',
      `    curl -X POST http://127.0.0.1:1/v1/things`,
      '',
    ]),
  ].join('\n');

const log = [
  '=================================== FAILURES ===================================',
  section('GET /v1/things', [envelope([{ field: 'start_key', message: 'start_key is not a valid pagination key' }])]),
  section('POST /v1/things', [
    envelope([{ field: 'products.0.price', message: 'price must be a number with at most 2 decimals' }]),
    envelope([
      { field: 'products.1.price', message: 'price must be a number with at most 2 decimals' },
      { field: 'name', message: 'name must be shorter than or equal to 10 characters' },
    ]),
  ]),
  section('PUT /v1/things/{id}', [
    JSON.stringify({ code: 400, message: 'the body must be JSON', error_code: 'invalid_body' }),
  ]),
  section('DELETE /v1/things/{id}', ['{"code":400,"message":"cut // Output truncated...']),
  '=================================== SUMMARY ====================================',
].join('\n');

const reasons = [
  { code: 'ST202', field: 'start_key', message: 'not a valid pagination key', why: 'opaque' },
  { code: 'ST202', field: 'products.*.price', message: 'at most 2 decimals', why: 'floats' },
  { code: 'ST202', error_code: 'invalid_body', operation: 'PATCH /v1/other', why: 'another route' },
];

test('reads every ST202 test case of an operation, with the fields its answer names', () => {
  const refusals = refusalsOf(log);
  assert.deepEqual(refusals.get('GET /v1/things'), [
    [{ field: 'start_key', message: 'start_key is not a valid pagination key' }],
  ]);
  assert.equal(refusals.get('POST /v1/things').length, 2);
  assert.deepEqual(refusals.get('PUT /v1/things/{id}'), [
    [{ field: '', error_code: 'invalid_body', message: 'the body must be JSON' }],
  ]);
  assert.ok(refusals.get('DELETE /v1/things/{id}')[0][0].unreadable);
});

test('accepts a finding only when every field of every refusal has a reason', () => {
  const findings = findingsOf(
    {
      failures: [
        {
          code: 'ST202',
          title: 'Schema-valid request rejected',
          operations: [
            'GET /v1/things',
            'POST /v1/things',
            'PUT /v1/things/{id}',
            'DELETE /v1/things/{id}',
            'GET /v1/x',
          ],
        },
      ],
    },
    log,
  );
  const verdict = Object.fromEntries(findings.map((f) => [f.operation, allowed(reasons, f)]));
  assert.deepEqual(verdict, {
    'GET /v1/things': true,
    // the second test case also names `name`, for which no reason is listed
    'POST /v1/things': false,
    // the reason is stated for another operation
    'PUT /v1/things/{id}': false,
    // an answer the log cut is never accepted
    'DELETE /v1/things/{id}': false,
    // a finding whose refusals the log does not show is never accepted
    'GET /v1/x': false,
  });
  assert.equal(
    allowed([...reasons, { code: 'ST202', field: 'name', message: 'shorter than', why: 'x' }], findings[1]),
    true,
  );
});

test('other findings are named by operation and code', () => {
  const finding = { operation: 'GET /v1/things', code: 'ST301', title: 'x' };
  assert.equal(allowed([{ code: 'ST301', operation: '*', why: 'x' }], finding), true);
  assert.equal(allowed([{ code: 'ST301', operation: 'GET /v1/other', why: 'x' }], finding), false);
  assert.equal(allowed(reasons, finding), false);
});

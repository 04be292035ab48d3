import { BadRequestException, HttpException, NotFoundException as NestNotFound } from '@nestjs/common';

import { PlatformErrorCode, PlatformException, ValidationFailedException } from './app.exception';
import { toErrorEnvelope } from './error-envelope';

describe('toErrorEnvelope', () => {
  it('maps a domain exception to its status, reason phrase, code and fields', () => {
    const env = toErrorEnvelope(new ValidationFailedException([{ field: 'country', message: 'bad' }]), 'id');
    expect(env).toEqual({
      code: 400,
      status: 'Bad Request',
      message: 'Invalid request parameters',
      error_code: 'validation_failed',
      fields: [{ field: 'country', message: 'bad' }],
    });
  });

  it('maps platform codes to their HTTP status', () => {
    expect(toErrorEnvelope(new PlatformException(PlatformErrorCode.RevokedApiKey, 'x'), 'id').code).toBe(401);
    expect(toErrorEnvelope(new PlatformException(PlatformErrorCode.Forbidden, 'x'), 'id').code).toBe(403);
    expect(toErrorEnvelope(new PlatformException(PlatformErrorCode.IdempotencyKeyReused, 'x'), 'id').code).toBe(422);
  });

  it("maps Nest's own HTTP exceptions (unknown routes, bad bodies)", () => {
    expect(toErrorEnvelope(new NestNotFound('Cannot GET /x'), 'id')).toEqual({
      code: 404,
      status: 'Not Found',
      message: 'Cannot GET /x',
      error_code: 'not_found',
    });
    expect(toErrorEnvelope(new BadRequestException('Unexpected end of JSON input'), 'id').code).toBe(400);
  });

  it('maps a request body the client stopped sending to a 400, not an internal error', () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
    expect(toErrorEnvelope(aborted, 'id')).toMatchObject({ code: 400, message: 'aborted' });
    // A reset from the database is still an internal error.
    expect(toErrorEnvelope(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'id').code).toBe(500);
  });

  it('hides the details of unknown errors behind an error id', () => {
    const env = toErrorEnvelope(new Error('relation "checks" does not exist at /app/x.js:1'), 'abc-123');
    expect(env).toEqual({
      code: 500,
      status: 'Internal Server Error',
      message: 'Internal error (id abc-123)',
      error_code: 'internal_error',
    });
    expect(toErrorEnvelope(new HttpException('boom with internals', 502), 'e1').message).toBe('Internal error (id e1)');
  });

  it('maps a value PostgreSQL refuses (class 22, a null in a required column) to a 400 without the SQL', () => {
    const refused = (code: string) =>
      Object.assign(new Error('invalid input syntax for type uuid: "x" in SELECT ...'), {
        name: 'QueryFailedError',
        driverError: { code },
      });
    expect(toErrorEnvelope(refused('22P02'), 'id')).toEqual({
      code: 400,
      status: 'Bad Request',
      message: 'A value of the request is not valid for its field',
      error_code: 'invalid_value',
    });
    expect(toErrorEnvelope(refused('22021'), 'id').code).toBe(400);
    expect(toErrorEnvelope(refused('23502'), 'id').code).toBe(400);
    // A unique violation or a lost connection is still the server's problem.
    expect(toErrorEnvelope(refused('23505'), 'id').code).toBe(500);
    expect(toErrorEnvelope(refused('57P01'), 'id').code).toBe(500);
  });
});

export interface FieldError {
  field: string;
  message: string;
}

/**
 * Base of every domain exception. `errorCode` is the machine code clients switch on; `status`
 * the HTTP status the platform filter answers with. Modules declare their own subclasses with an
 * enum of codes (see CheckException) so a code is never a loose string.
 */
export class AppException extends Error {
  /** Seconds the client should wait before trying again: sent as Retry-After (a 429, a lockout). */
  retryAfterSeconds?: number;

  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    readonly fields: FieldError[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** Answers with Retry-After: `seconds` (rounded up, at least 1). */
  retryAfter(seconds: number): this {
    this.retryAfterSeconds = Math.max(1, Math.ceil(seconds));
    return this;
  }
}

/** Platform-level error codes (auth, validation, routing, idempotency). */
export enum PlatformErrorCode {
  ValidationFailed = 'validation_failed',
  MissingApiKey = 'missing_api_key',
  InvalidApiKey = 'invalid_api_key',
  ExpiredApiKey = 'expired_api_key',
  RevokedApiKey = 'revoked_api_key',
  UserDisabled = 'user_disabled',
  Forbidden = 'forbidden',
  KeyTypeNotAllowed = 'key_type_not_allowed',
  NotFound = 'not_found',
  IdempotencyKeyReused = 'idempotency_key_reused',
  IdempotencyKeyInProgress = 'idempotency_key_in_progress',
  TooManyRequests = 'too_many_requests',
  Unavailable = 'service_unavailable',
  Internal = 'internal_error',
}

const PLATFORM_STATUS: Record<PlatformErrorCode, number> = {
  [PlatformErrorCode.ValidationFailed]: 400,
  [PlatformErrorCode.MissingApiKey]: 401,
  [PlatformErrorCode.InvalidApiKey]: 401,
  [PlatformErrorCode.ExpiredApiKey]: 401,
  [PlatformErrorCode.RevokedApiKey]: 401,
  [PlatformErrorCode.UserDisabled]: 401,
  [PlatformErrorCode.Forbidden]: 403,
  [PlatformErrorCode.KeyTypeNotAllowed]: 403,
  [PlatformErrorCode.NotFound]: 404,
  [PlatformErrorCode.IdempotencyKeyReused]: 422,
  [PlatformErrorCode.IdempotencyKeyInProgress]: 409,
  [PlatformErrorCode.TooManyRequests]: 429,
  [PlatformErrorCode.Unavailable]: 503,
  [PlatformErrorCode.Internal]: 500,
};

export class PlatformException extends AppException {
  constructor(code: PlatformErrorCode, message: string, fields: FieldError[] = []) {
    super(PLATFORM_STATUS[code], code, message, fields);
  }
}

export class ValidationFailedException extends PlatformException {
  constructor(fields: FieldError[], message = 'Invalid request parameters') {
    super(PlatformErrorCode.ValidationFailed, message, fields);
  }
}

export class NotFoundException extends PlatformException {
  constructor(what: string) {
    super(PlatformErrorCode.NotFound, `${what} not found`);
  }
}

/**
 * The exception class of a module: `class CheckException extends domainException(STATUS) {}`,
 * where STATUS maps each of the module's error codes to its HTTP status (an exhaustive Record, so
 * a new code without a status does not compile).
 */
export function domainException<C extends string>(statuses: Record<C, number>) {
  return class extends AppException {
    constructor(code: C, message: string, fields: FieldError[] = []) {
      super(statuses[code], code, message, fields);
    }
  };
}

import {
  ApiEnvelopeErrors,
  ApiSuccess,
  BackendKeys,
  Caller,
  Clock,
  CurrentCaller,
  RequirePermissions,
} from '@kyc/platform';
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { RULES_PERMISSION } from '../rules.permissions';
import { RotateSigningSecretDto } from './dto/rotate-signing-secret.dto';
import { SIGNING_SECRET_EXAMPLE, SigningSecretResponse } from './dto/signing-secret.response';
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER } from './signature';
import { SigningSecretsService, SigningSecretView } from './signing-secrets.service';

const present = (v: SigningSecretView, now: Date) => ({
  signing_secret: {
    secret: v.secret,
    algorithm: 'HMAC-SHA256',
    header: SIGNATURE_HEADER,
    format: 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">[,v1=<signature with the previous secret>]',
    recommended_tolerance_seconds: DEFAULT_TOLERANCE_SECONDS,
    creation_date: v.creationDate.toISOString(),
    rotated_at: v.rotatedAt?.toISOString() ?? null,
    previous_secret_valid_until:
      v.previousValidUntil && v.previousValidUntil > now ? v.previousValidUntil.toISOString() : null,
  },
});

/** The tenant's webhook signing secret, which http_request actions sign with (X-Signature). */
@ApiTags('rules engine')
@RequirePermissions(RULES_PERMISSION)
@BackendKeys()
@Controller('v1/bre/signing-secret')
export class SigningSecretsController {
  constructor(
    private readonly secrets: SigningSecretsService,
    private readonly clock: Clock,
  ) {}

  @Get()
  @ApiSuccess({
    wrap: 'signing_secret',
    type: SigningSecretResponse,
    example: { signing_secret: SIGNING_SECRET_EXAMPLE },
  })
  @ApiEnvelopeErrors(403)
  async get(@CurrentCaller() caller: Caller) {
    return present(await this.secrets.get(caller), this.clock.now());
  }

  @Post('rotate')
  @ApiSuccess({
    wrap: 'signing_secret',
    type: SigningSecretResponse,
    example: {
      signing_secret: {
        ...SIGNING_SECRET_EXAMPLE,
        rotated_at: '2026-11-25T07:00:00.000Z',
        previous_secret_valid_until: '2026-11-26T07:00:00.000Z',
      },
    },
  })
  @ApiEnvelopeErrors(400, 403, 413)
  @HttpCode(200)
  async rotate(@CurrentCaller() caller: Caller, @Body() dto: RotateSigningSecretDto) {
    return present(await this.secrets.rotate(caller, dto.grace_period_seconds), this.clock.now());
  }
}

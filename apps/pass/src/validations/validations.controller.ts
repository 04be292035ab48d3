import { ApiEnvelopeErrors, ApiPublic, ApiSuccess, NoRateLimit, Public } from '@kyc/platform';
import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { EXTERNAL_VALIDATION_SCHEMA } from '../openapi/pass-schemas';
import { WriteValidationsDto } from './dto/write-validations.dto';
import { ValidationsService } from './validations.service';

/** Externally done validations, written by allow-listed applications (Bearer token with validations:write). */
@ApiTags('oauth2')
@Public()
@NoRateLimit()
@Controller('v1/oauth2/validations')
export class ValidationsController {
  constructor(private readonly validations: ValidationsService) {}

  @Post()
  @HttpCode(200)
  @ApiPublic()
  @ApiBearerAuth()
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['validations'],
      properties: { validations: { type: 'array', items: EXTERNAL_VALIDATION_SCHEMA } },
    },
    example: {
      validations: [
        {
          validation_id: '8d2f4b6a-1c3e-4f5a-9b7d-0e2c4a6b8d1f',
          type: 'document',
          resource_id: 'r1',
          verified: true,
          process_id: 'p-1',
          document: { document_number: '1020304050', document_type: 'national-id', country: 'co' },
          created_at: '2026-11-25T07:00:00.000Z',
        },
      ],
    },
    description: 'The written validations (a replay whose process_ids are all recorded answers an empty list)',
  })
  @ApiEnvelopeErrors(
    400,
    { 401: ['missing or invalid bearer token', 'invalid_token'] },
    { 403: ['the token needs the restricted scope validations:write', 'insufficient_scope'] },
  )
  async write(@Headers('authorization') authorization: string | undefined, @Body() dto: WriteValidationsDto) {
    return this.validations.write(authorization, dto);
  }
}

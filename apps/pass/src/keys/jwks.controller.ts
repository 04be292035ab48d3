import { ApiPublic, ApiSuccess, Public } from '@kyc/platform';
import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';

import { SigningKeysService } from './signing-keys.service';

/** The provider's public key set (the discovery document's `jwks_uri`): verifies the id_tokens' signatures. */
@ApiTags('oauth2')
@Public()
@Controller('v1/oauth2/jwks')
export class JwksController {
  constructor(private readonly keys: SigningKeysService) {}

  @Get()
  @ApiPublic()
  @Header('cache-control', 'public, max-age=300')
  @Header('access-control-allow-origin', '*')
  @ApiOperation({
    summary: 'JSON Web Key Set (RFC 7517)',
    description:
      'The RS256 keys id_tokens are signed with (the `kid` of an id_token header is one of them): the active ' +
      'key and, for an hour after a rotation, the retired ones, so that tokens signed before it still verify.',
  })
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['keys'],
      properties: {
        keys: {
          type: 'array',
          items: {
            type: 'object',
            required: ['kty', 'use', 'alg', 'kid', 'n', 'e'],
            properties: {
              kty: { type: 'string', enum: ['RSA'] },
              use: { type: 'string', enum: ['sig'] },
              alg: { type: 'string', enum: ['RS256'] },
              kid: { type: 'string' },
              n: { type: 'string' },
              e: { type: 'string' },
            },
          },
        },
      },
    },
    example: { keys: [{ kty: 'RSA', use: 'sig', alg: 'RS256', kid: '0b6f…', n: 'sXch…', e: 'AQAB' }] },
  })
  async keySet() {
    return { keys: await this.keys.publishedKeys() };
  }
}

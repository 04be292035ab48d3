import { ApiSuccess, PlatformAdmin } from '@kyc/platform';
import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { SigningKeysService } from './signing-keys.service';

/** Operator: rotate the provider's signing key (the new key signs from now on in this replica). */
@ApiTags('signing keys')
@PlatformAdmin()
@Controller('v1/admin/signing-keys')
export class SigningKeysController {
  constructor(private readonly keys: SigningKeysService) {}

  @Post('rotate')
  @HttpCode(200)
  @ApiSuccess({
    schema: {
      type: 'object',
      required: ['kid', 'retired'],
      properties: { kid: { type: 'string' }, retired: { type: 'array', items: { type: 'string' } } },
    },
    example: { kid: '3fb1c0de9a2b', retired: ['1ac0ffee42d7'] },
    description: 'The new signing key; the previous ones are retired',
  })
  /**
   * This replica signs with the new key at once, the others within SIGNING_KEY_REFRESH_MS; the key
   * set publishes both the new key and, for the overlap, the retired ones.
   */
  async rotate() {
    return this.keys.rotate();
  }
}

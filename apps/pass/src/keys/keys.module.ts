import { Module } from '@nestjs/common';

import { JwksController } from './jwks.controller';
import { SigningKeysController } from './signing-keys.controller';
import { SigningKeysService } from './signing-keys.service';

/** The provider's signing keys: rotation (`/v1/admin/signing-keys/rotate`) and the public JWKS. */
@Module({
  controllers: [SigningKeysController, JwksController],
  providers: [SigningKeysService],
  exports: [SigningKeysService],
})
export class KeysModule {}

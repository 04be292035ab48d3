import { Global, Module } from '@nestjs/common';

import { PassConfig } from '../config/pass.config';
import { SecretBox } from './secret-box';

/** One SecretBox per process, keyed by PASS_SECRETS_KEY. */
@Global()
@Module({
  providers: [
    { provide: SecretBox, inject: [PassConfig], useFactory: (c: PassConfig) => new SecretBox(c.PASS_SECRETS_KEY) },
  ],
  exports: [SecretBox],
})
export class CryptoModule {}

import { Provider } from '@nestjs/common';

import { AccountConfig } from '../../config/account.config';
import { SecretBox } from './secret-box';

/** One SecretBox per process, keyed by ACCOUNT_SECRETS_KEY. */
export const SecretBoxProvider: Provider = {
  provide: SecretBox,
  inject: [AccountConfig],
  useFactory: (config: AccountConfig) => new SecretBox(config.ACCOUNT_SECRETS_KEY),
};

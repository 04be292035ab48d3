import { Module } from '@nestjs/common';

import { MessagingProvider } from './messaging-provider';
import { ProviderHttpClient } from './provider-http.client';

/** The messaging-provider adapter (the tenants' credentials for it: CredentialsModule). */
@Module({
  providers: [ProviderHttpClient, MessagingProvider],
  exports: [MessagingProvider],
})
export class ProviderModule {}

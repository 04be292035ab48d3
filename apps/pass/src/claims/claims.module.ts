import { Module } from '@nestjs/common';

import { CheckFinishedConsumer } from './check-finished.consumer';
import { ClaimStoreService } from './claim-store.service';
import { IdentityClaimsService } from './identity-claims.service';
import { IdentityEventsConsumer } from './identity-events.consumer';

/** The claim store: the checks' and identity's events turned into a person's verified claims. */
@Module({
  controllers: [CheckFinishedConsumer, IdentityEventsConsumer],
  providers: [ClaimStoreService, IdentityClaimsService],
})
export class ClaimsModule {}

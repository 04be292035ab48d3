import { Module } from '@nestjs/common';

import { AccessStatePublisher } from '../access/access-state.publisher';
import { BillingHubsController } from './billing-hubs.controller';
import { TenantsController } from './tenants.controller';
import { TenantsService } from './tenants.service';

@Module({ controllers: [TenantsController, BillingHubsController], providers: [TenantsService, AccessStatePublisher] })
export class TenantsModule {}

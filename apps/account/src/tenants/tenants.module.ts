import { Module } from '@nestjs/common';
import { AccessStatePublisher } from '../access/access-state.publisher';
import { TenantsController } from './tenants.controller';
import { TenantsService } from './tenants.service';

@Module({ controllers: [TenantsController], providers: [TenantsService, AccessStatePublisher] })
export class TenantsModule {}

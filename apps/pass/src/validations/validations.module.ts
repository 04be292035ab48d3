import { Module } from '@nestjs/common';

import { ApplicationsModule } from '../applications/applications.module';
import { ProviderModule } from '../provider/provider.module';
import { ValidationsController } from './validations.controller';
import { ValidationsService } from './validations.service';

/** `/v1/oauth2/validations`: validations an application writes about a person (claim provenance). */
@Module({
  imports: [ApplicationsModule, ProviderModule],
  controllers: [ValidationsController],
  providers: [ValidationsService],
})
export class ValidationsModule {}

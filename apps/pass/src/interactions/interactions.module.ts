import { Module } from '@nestjs/common';

import { ApplicationsModule } from '../applications/applications.module';
import { MailModule } from '../mail/mail.module';
import { ProviderModule } from '../provider/provider.module';
import { UsersModule } from '../users/users.module';
import { InteractionsController } from './interactions.controller';
import { InteractionsService } from './interactions.service';

/** The sign-in and consent pages of an authorization request (`/interaction/:uid`). */
@Module({
  imports: [ApplicationsModule, MailModule, ProviderModule, UsersModule],
  controllers: [InteractionsController],
  providers: [InteractionsService],
})
export class InteractionsModule {}

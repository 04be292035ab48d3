import { Module } from '@nestjs/common';

import { ProviderModule } from '../provider/provider.module';
import { UsersModule } from '../users/users.module';
import { UserinfoController } from './userinfo.controller';
import { UserinfoService } from './userinfo.service';

/** `/v1/oauth2/userinfo`: the claims of the person behind an access token. */
@Module({
  imports: [ProviderModule, UsersModule],
  controllers: [UserinfoController],
  providers: [UserinfoService],
})
export class UserinfoModule {}

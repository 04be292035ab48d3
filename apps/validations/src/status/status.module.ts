import { Module } from '@nestjs/common';

import { OtpModule } from '../otp/otp.module';
import { StatusController } from './status.controller';
import { StatusService } from './status.service';

@Module({ imports: [OtpModule], controllers: [StatusController], providers: [StatusService] })
export class StatusModule {}

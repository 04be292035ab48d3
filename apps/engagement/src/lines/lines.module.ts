import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { CredentialsModule } from '../credentials/credentials.module';
import { ProviderModule } from '../provider/provider.module';
import { LineEntity } from './line.entity';
import { LinesController } from './lines.controller';
import { LinesService } from './lines.service';

@Module({
  imports: [TypeOrmModule.forFeature([LineEntity]), ProviderModule, CredentialsModule],
  controllers: [LinesController],
  providers: [LinesService],
  exports: [LinesService, ProviderModule, CredentialsModule],
})
export class LinesModule {}

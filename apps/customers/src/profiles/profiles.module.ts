import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ProfileEventsConsumer } from './consumers/profile-events.consumer';
import { CustomersController } from './customers.controller';
import { CustomersService } from './customers.service';
import { ProfileEntity } from './profile.entity';
import { ProfileStore } from './profile.store';
import { ProfileFoldingStore } from './profile-folding.store';
import { ProfileIdentifierEntity } from './profile-identifier.entity';
import { ProfileLineEntity } from './profile-line.entity';
import { ProfileMergeEntity } from './profile-merge.entity';
import { TagHistoryEntity } from './tag-history.entity';
import { TransactionEntity } from './transaction.entity';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      ProfileEntity,
      TransactionEntity,
      TagHistoryEntity,
      ProfileLineEntity,
      ProfileIdentifierEntity,
      ProfileMergeEntity,
    ]),
  ],
  controllers: [CustomersController, ProfileEventsConsumer],
  providers: [CustomersService, ProfileFoldingStore, ProfileStore],
  exports: [ProfileFoldingStore, ProfileStore],
})
export class ProfilesModule {}

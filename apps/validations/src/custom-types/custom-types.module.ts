import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { CustomTypeEntity } from './custom-type.entity';
import { CustomTypesConsumer } from './custom-types.consumer';
import { CustomTypesService } from './custom-types.service';

/** The checks service's custom types, kept from its events. */
@Module({
  imports: [TypeOrmModule.forFeature([CustomTypeEntity])],
  controllers: [CustomTypesConsumer],
  providers: [CustomTypesService],
  exports: [CustomTypesService],
})
export class CustomTypesModule {}

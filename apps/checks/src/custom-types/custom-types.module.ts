import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { CustomTypeEntity } from './custom-type.entity';
import { CustomTypesController } from './custom-types.controller';
import { CustomTypesService } from './custom-types.service';

@Module({
  imports: [TypeOrmModule.forFeature([CustomTypeEntity])],
  controllers: [CustomTypesController],
  providers: [CustomTypesService],
})
export class CustomTypesModule {}

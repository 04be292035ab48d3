import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CheckWorkerService } from './check-worker.service';
import { CheckEntity } from './check.entity';
import { ChecksController } from './checks.controller';
import { ChecksService } from './checks.service';

@Module({
  imports: [TypeOrmModule.forFeature([CheckEntity])],
  controllers: [ChecksController],
  providers: [ChecksService, CheckWorkerService],
})
export class ChecksModule {}

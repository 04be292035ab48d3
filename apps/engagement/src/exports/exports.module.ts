import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ChatStore } from '../chats/chat.store';
import { ChatsModule } from '../chats/chats.module';
import { ChatExportEntity } from './chat-export.entity';
import { ExportsController } from './exports.controller';
import { ExportsService } from './exports.service';

/** TSV exports of chats as durable jobs, downloaded by signed expiring links. */
@Module({
  imports: [TypeOrmModule.forFeature([ChatExportEntity]), ChatsModule],
  controllers: [ExportsController],
  providers: [ChatStore, ExportsService],
})
export class ExportsModule {}

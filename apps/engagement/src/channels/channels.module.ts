import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ChatStore } from '../chats/chat.store';
import { LineEntity } from '../lines/line.entity';
import { ChannelsController } from './channels.controller';
import { ChannelsService } from './channels.service';

@Module({
  imports: [TypeOrmModule.forFeature([LineEntity])],
  controllers: [ChannelsController],
  providers: [ChatStore, ChannelsService],
})
export class ChannelsModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { OutboundsModule } from '../outbounds/outbounds.module';
import { MessageEntity } from './message.entity';
import { MessageStore } from './message.store';
import { MessagesController } from './messages.controller';
import { MessagesService } from './messages.service';
import { SendTargetStore } from './send-target.store';

@Module({
  imports: [TypeOrmModule.forFeature([MessageEntity]), OutboundsModule],
  controllers: [MessagesController],
  providers: [MessagesService, MessageStore, SendTargetStore],
  exports: [MessagesService, OutboundsModule],
})
export class MessagesModule {}

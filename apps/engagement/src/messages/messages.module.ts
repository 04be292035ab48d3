import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { OutboundsModule } from '../outbounds/outbounds.module';
import { MessageEntity } from './message.entity';
import { MessagesController } from './messages.controller';
import { MessagesService } from './messages.service';

@Module({
  imports: [TypeOrmModule.forFeature([MessageEntity]), OutboundsModule],
  controllers: [MessagesController],
  providers: [MessagesService],
  exports: [MessagesService, OutboundsModule],
})
export class MessagesModule {}

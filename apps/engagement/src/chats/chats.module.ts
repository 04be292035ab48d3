import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { CredentialsModule } from '../credentials/credentials.module';
import { MessagesModule } from '../messages/messages.module';
import { ProviderModule } from '../provider/provider.module';
import { ChatActivityEntity, ChatEntity } from './chat.entity';
import { ChatStore } from './chat.store';
import { ChatOwnerService } from './chat-owner.service';
import { ChatSendService } from './chat-send.service';
import { ChatsController } from './chats.controller';
import { ChatsService } from './chats.service';

/** Chats opened by users' messages, their activities, search, owners and statuses, and agents' messages into them. */
@Module({
  imports: [
    TypeOrmModule.forFeature([ChatEntity, ChatActivityEntity]),
    MessagesModule,
    ProviderModule,
    CredentialsModule,
  ],
  controllers: [ChatsController],
  providers: [ChatStore, ChatsService, ChatSendService, ChatOwnerService],
  exports: [ChatsService],
})
export class ChatsModule {}

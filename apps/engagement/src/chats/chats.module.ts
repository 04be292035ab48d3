import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { AssignmentModule } from '../assignment/assignment.module';
import { CredentialsModule } from '../credentials/credentials.module';
import { MessagesModule } from '../messages/messages.module';
import { ProviderModule } from '../provider/provider.module';
import { ChatActivityEntity, ChatEntity } from './chat.entity';
import { ChatStore } from './chat.store';
import { ChatSendService } from './chat-send.service';
import { ChatsController } from './chats.controller';
import { ChatsService } from './chats.service';

/** Chats opened by users' messages, their activities, search, and agents' messages into them. */
@Module({
  imports: [
    TypeOrmModule.forFeature([ChatEntity, ChatActivityEntity]),
    AssignmentModule,
    MessagesModule,
    ProviderModule,
    CredentialsModule,
  ],
  controllers: [ChatsController],
  providers: [ChatStore, ChatsService, ChatSendService],
  exports: [ChatsService],
})
export class ChatsModule {}

import { Caller, Clock, FieldError, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import { CredentialsService, viaProvider } from '../credentials/credentials.service';
import { MessagesService, sendRuleErrors } from '../messages/messages.service';
import { OutboundsService } from '../outbounds/outbounds.service';
import { MessagingProvider } from '../provider/messaging-provider';
import { newId } from '../shared/phones';
import { ChatActivityEntity, ChatEntity } from './chat.entity';
import { requireChatOwner } from './chat-access';
import { addActivity } from './chat-activities';
import { ChatErrorCode, ChatException } from './chats.exception';
import { ChatsService } from './chats.service';
import { SendChatMessageDto } from './dto/send-chat-message.dto';

/** The provider's customer-service window: free-form messages only this long after the user's last message. */
export const SESSION_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * An agent's message into a chat, through the provider adapter: a session text inside the 24-hour
 * window, an approved template at any time. The message is recorded (status `accepted`) with its
 * activity; the provider's statuses for it come back as activities of the chat.
 */
@Injectable()
export class ChatSendService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly chats: ChatsService,
    private readonly outbounds: OutboundsService,
    private readonly messages: MessagesService,
    private readonly credentials: CredentialsService,
    private readonly provider: MessagingProvider,
    private readonly clock: Clock,
  ) {}

  async send(caller: Caller, chatId: string, dto: SendChatMessageDto): Promise<ChatActivityEntity> {
    const chat = await this.chats.get(caller, chatId);
    requireChatOwner(caller, chat);
    if (chat.status !== 'open') throw new ChatException(ChatErrorCode.ChatClosed, `chat ${chatId} is closed`);
    const actor = caller.username ?? caller.userId;
    const messageId = newId('MSG');
    const to = chat.contactPhone.slice(1);
    if (dto.outbound_id) {
      const outbound = await this.outbounds.sendable(caller.tenantId, dto.outbound_id);
      const values = dto.var ?? {};
      const errors: FieldError[] = sendRuleErrors(outbound, undefined, values).filter((e) => e.field !== 'flow_id');
      if (outbound.lineId !== chat.lineId)
        errors.push({ field: 'outbound_id', message: "the outbound belongs to another line than the chat's" });
      for (const [k, v] of Object.entries(values))
        if (typeof v !== 'string' || v.length > 1024)
          errors.push({ field: `var.${k}`, message: 'a value is a text of at most 1024 characters' });
      if (errors.length) throw new ValidationFailedException(errors);
      const creds = await this.credentials.open(caller.tenantId);
      const request = { messageId, phone: chat.contactPhone, values };
      const providerId = await viaProvider(() => this.messages.callProvider(creds, outbound, request));
      return this.dataSource.transaction(async (m) => {
        await this.messages.recordSent(m, outbound, { ...request, text: outbound.content }, providerId);
        return addActivity(
          m,
          chat,
          {
            actorType: 'agent',
            actor,
            activityType: 'message',
            text: outbound.content,
            messageId,
            messageStatus: 'accepted',
          },
          this.clock.now(),
        );
      });
    }
    const text = dto.text!;
    const now = this.clock.now();
    if (!chat.lastUserMessageAt || now.getTime() - chat.lastUserMessageAt.getTime() > SESSION_WINDOW_MS)
      throw new ChatException(
        ChatErrorCode.SessionWindowClosed,
        "the user's last message is more than 24 hours old: send an approved template (outbound_id)",
      );
    const creds = await this.credentials.open(caller.tenantId);
    const providerId = await viaProvider(() => this.provider.sendText(creds, chat.lineId, to, text, messageId));
    return this.dataSource.transaction(async (m) => {
      const at = this.clock.now();
      await this.messages.recordChatText(m, {
        messageId,
        tenantId: chat.tenantId,
        lineId: chat.lineId,
        linePhone: chat.linePhone,
        phone: chat.contactPhone,
        text,
        providerMessageId: providerId,
        at,
      });
      const current = await m.findOneByOrFail(ChatEntity, { id: chat.id });
      return addActivity(
        m,
        current,
        { actorType: 'agent', actor, activityType: 'message', text, messageId, messageStatus: 'accepted' },
        at,
      );
    });
  }
}

import { Caller, Page, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';

import { ChatStore } from '../chats/chat.store';
import { LineEntity } from '../lines/line.entity';
import { ListChannelsQuery } from './dto/list-channels.query';

/** The workspace's channels: the tenant's messaging lines, with their open chats. */
@Injectable()
export class ChannelsService {
  constructor(
    @InjectRepository(LineEntity) private readonly lines: Repository<LineEntity>,
    private readonly chatStore: ChatStore,
  ) {}

  async list(caller: Caller, q: ListChannelsQuery): Promise<Page<{ line: LineEntity; openChats: number }>> {
    const qb = this.lines.createQueryBuilder('l').where('l.tenantId = :tenantId', { tenantId: caller.tenantId });
    const page = await paginate(qb, { startKey: q.start_key, limit: q.limit ?? 20 });
    const counts: { line_id: string; n: number }[] = page.items.length
      ? await this.chatStore.openChatsByLine<{ line_id: string; n: number }[]>(this.lines.manager, [
          caller.tenantId,
          page.items.map((l) => l.id),
        ])
      : [];
    return {
      items: page.items.map((line) => ({ line, openChats: counts.find((c) => c.line_id === line.id)?.n ?? 0 })),
      nextKey: page.nextKey,
    };
  }
}

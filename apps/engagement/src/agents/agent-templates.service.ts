import { Caller, Clock, decodeStartKey, encodeStartKey, Page } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, QueryFailedError, Repository } from 'typeorm';

import { AgentTemplateEntity } from './agent-template.entity';
import { AgentErrorCode, AgentException } from './agents.exception';
import { CreateAgentTemplateDto, ListAgentTemplatesQuery, UpdateAgentTemplateDto } from './dto/agent-template.dto';

/** Agent templates: canned texts of the workspace, by name. */
@Injectable()
export class AgentTemplatesService {
  constructor(
    @InjectRepository(AgentTemplateEntity) private readonly templates: Repository<AgentTemplateEntity>,
    private readonly clock: Clock,
  ) {}

  async create(caller: Caller, dto: CreateAgentTemplateDto): Promise<AgentTemplateEntity> {
    const now = this.clock.now();
    const t = this.templates.create({
      tenantId: caller.tenantId,
      name: dto.template_name,
      templateType: dto.template_type,
      content: dto.content ?? null,
      createdAt: now,
      updatedAt: now,
    });
    try {
      await this.templates.insert(t);
    } catch (err) {
      if (err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23505')
        throw new AgentException(AgentErrorCode.TemplateExists, `agent template ${dto.template_name} already exists`);
      throw err;
    }
    return t;
  }

  async update(caller: Caller, name: string, dto: UpdateAgentTemplateDto): Promise<AgentTemplateEntity> {
    const t = await this.get(caller, name);
    t.templateType = dto.template_type;
    if (dto.content !== undefined) t.content = dto.content;
    t.updatedAt = this.clock.now();
    await this.templates.update(
      { tenantId: caller.tenantId, name },
      { templateType: t.templateType, content: t.content, updatedAt: t.updatedAt },
    );
    return t;
  }

  async list(caller: Caller, q: ListAgentTemplatesQuery): Promise<Page<AgentTemplateEntity>> {
    const qb = this.templates.createQueryBuilder('t').where('t.tenantId = :tenantId', { tenantId: caller.tenantId });
    // A prefix range on the primary key: name >= prefix AND name < prefix + U+FFFF (no LIKE escaping needed).
    if (q.prefix) qb.andWhere('t.name >= :p AND t.name < :pEnd', { p: q.prefix, pEnd: `${q.prefix}\uffff` });
    const start = decodeStartKey(q.start_key);
    if (start) qb.andWhere('t.name > :after', { after: String(start[1]) });
    const limit = q.limit ?? 20;
    const rows = await qb
      .orderBy('t.name', 'ASC')
      .take(limit + 1)
      .getMany();
    const items = rows.slice(0, limit);
    return { items, nextKey: rows.length > limit ? encodeStartKey(['name', items[items.length - 1].name]) : undefined };
  }

  async remove(caller: Caller, name: string): Promise<void> {
    const res = await this.templates.delete({ tenantId: caller.tenantId, name });
    if (!res.affected) throw new AgentException(AgentErrorCode.TemplateNotFound, `agent template ${name} not found`);
  }

  /** Deletes the named templates; answers which were deleted and which did not exist. */
  async removeMany(caller: Caller, names: string[]): Promise<{ deleted: string[]; not_found: string[] }> {
    const unique = [...new Set(names)];
    const found = await this.templates.findBy({ tenantId: caller.tenantId, name: In(unique) });
    if (found.length) await this.templates.delete({ tenantId: caller.tenantId, name: In(found.map((t) => t.name)) });
    const deleted = found.map((t) => t.name).sort();
    return { deleted, not_found: unique.filter((n) => !deleted.includes(n)) };
  }

  private async get(caller: Caller, name: string): Promise<AgentTemplateEntity> {
    const t = await this.templates.findOneBy({ tenantId: caller.tenantId, name });
    if (!t) throw new AgentException(AgentErrorCode.TemplateNotFound, `agent template ${name} not found`);
    return t;
  }
}

import { Caller, Clock, decodeStartKey, encodeStartKey, newId, Page, paginate } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';

import { ProfileEntity } from '../profiles/profile.entity';
import { ComputeSegmentDto } from './dto/compute-segment.dto';
import { CreateSegmentDto } from './dto/create-segment.dto';
import { ListSegmentsQuery } from './dto/list-segments.query';
import { UpdateSegmentDto } from './dto/update-segment.dto';
import { SegmentEntity } from './segment.entity';
import { SegmentComputeStore } from './segment-compute.store';
import { csvLine, EXPORT_COLUMNS, memberLine } from './segment-export';
import { SEGMENT_VARIABLE_CATALOG, SegmentVariableInfo } from './segment-variable-catalog';
import { SegmentErrorCode, SegmentException } from './segments.exception';

const DEFAULT_LIMIT = 20;
/** Members read per query of an export. */
const EXPORT_PAGE = 1_000;

/** Segments of a tenant: CRUD, compute requests (a durable job) and the computed members. */
@Injectable()
export class SegmentsService {
  constructor(
    @InjectRepository(SegmentEntity) private readonly segments: Repository<SegmentEntity>,
    private readonly dataSource: DataSource,
    private readonly computes: SegmentComputeStore,
    private readonly clock: Clock,
  ) {}

  async create(caller: Caller, dto: CreateSegmentDto): Promise<SegmentEntity> {
    const now = this.clock.now();
    const segment = this.segments.create({
      id: newId('SEG'),
      tenantId: caller.tenantId,
      name: dto.name,
      description: dto.description ?? null,
      rule: dto.rule,
      computeId: null,
      computeStatus: 'not_computed',
      computeEvaluation: null,
      computeFallbackReason: null,
      computeProcessed: 0,
      computeTotal: 0,
      computeMatched: 0,
      computeCursor: null,
      computeError: null,
      computeRequestedAt: null,
      computeStartedAt: null,
      computeFinishedAt: null,
      membersComputeId: null,
      membersCount: 0,
      computedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.segments.insert({ ...segment, rule: segment.rule as object });
    return segment;
  }

  /** The variables a rule may read (the same for every tenant). */
  variables(): readonly SegmentVariableInfo[] {
    return SEGMENT_VARIABLE_CATALOG;
  }

  async list(caller: Caller, query: ListSegmentsQuery): Promise<Page<SegmentEntity>> {
    const qb = this.segments.createQueryBuilder('s').where('s.tenantId = :tenantId', { tenantId: caller.tenantId });
    if (query.name) qb.andWhere(`strpos(lower(s.name), lower(:name)) > 0`, { name: query.name });
    return paginate(qb, { startKey: query.start_key, limit: query.limit ?? DEFAULT_LIMIT });
  }

  async get(caller: Caller, id: string): Promise<SegmentEntity> {
    const segment = await this.segments.findOneBy({ id, tenantId: caller.tenantId });
    if (!segment) throw new SegmentException(SegmentErrorCode.SegmentNotFound, `segment ${id} not found`);
    return segment;
  }

  async update(caller: Caller, id: string, dto: UpdateSegmentDto): Promise<SegmentEntity> {
    const segment = await this.get(caller, id);
    // A compute reads the rule at each of its steps: the rule stays as it is until the compute finishes.
    // name and rule sent as null are not given (the document's nullable: a segment always has both)
    if (dto.rule != null && (segment.computeStatus === 'queued' || segment.computeStatus === 'running'))
      throw new SegmentException(
        SegmentErrorCode.ComputeInProgress,
        `segment ${id} is being computed (compute ${segment.computeId}); change its rule when it finishes`,
      );
    if (dto.name != null) segment.name = dto.name;
    if (dto.description !== undefined) segment.description = dto.description;
    if (dto.rule != null) segment.rule = dto.rule;
    segment.updatedAt = this.clock.now();
    await this.segments.update(
      { id, tenantId: caller.tenantId },
      {
        name: segment.name,
        description: segment.description,
        rule: segment.rule as object,
        updatedAt: segment.updatedAt,
      },
    );
    return segment;
  }

  async delete(caller: Caller, id: string): Promise<SegmentEntity> {
    const segment = await this.get(caller, id);
    await this.dataSource.transaction(async (m) => {
      await m.delete(SegmentEntity, { id, tenantId: caller.tenantId });
      await this.computes.deleteMembers(m, id);
    });
    return segment;
  }

  /** Starts a compute (202): a durable job with progress; a compute still queued or running answers 409. */
  async compute(caller: Caller, id: string, dto: ComputeSegmentDto): Promise<SegmentEntity> {
    return this.dataSource.transaction(async (m) => {
      const segment = await m
        .getRepository(SegmentEntity)
        .createQueryBuilder('s')
        .setLock('pessimistic_write')
        .where('s.id = :id AND s.tenantId = :tenantId', { id, tenantId: caller.tenantId })
        .getOne();
      if (!segment) throw new SegmentException(SegmentErrorCode.SegmentNotFound, `segment ${id} not found`);
      if (segment.computeStatus === 'queued' || segment.computeStatus === 'running')
        throw new SegmentException(
          SegmentErrorCode.ComputeInProgress,
          `segment ${id} is being computed (compute ${segment.computeId}); wait until it finishes`,
        );
      const now = this.clock.now();
      Object.assign(segment, {
        computeId: newId('CMP'),
        computeStatus: 'queued',
        computeEvaluation: null,
        computeFallbackReason: null,
        computeProcessed: 0,
        computeTotal: 0,
        computeMatched: 0,
        computeCursor: null,
        computeError: null,
        computeRequestedAt: now,
        computeStartedAt: null,
        computeFinishedAt: null,
      } satisfies Partial<SegmentEntity>);
      await m.save(segment);
      await this.computes.enqueue(m, caller.tenantId, {
        segmentId: segment.id,
        computeId: segment.computeId!,
        evaluation: dto.evaluation ?? 'auto',
      });
      return segment;
    });
  }

  /** The profiles of the segment's last completed compute, in id order, paged by start_key. */
  async profiles(
    caller: Caller,
    id: string,
    startKey: string | undefined,
    limit: number,
  ): Promise<Page<ProfileEntity>> {
    const segment = await this.get(caller, id);
    if (!segment.membersComputeId) return { items: [] };
    const after = decodeStartKey(startKey);
    const items = await this.memberPage(caller.tenantId, segment.membersComputeId, after?.[1] as string, limit + 1);
    const page = items.slice(0, limit);
    return {
      items: page,
      nextKey: items.length > limit ? encodeStartKey([segment.membersComputeId, page[page.length - 1].id]) : undefined,
    };
  }

  /**
   * The members of the last completed compute as CSV text (header first), read in pages of
   * EXPORT_PAGE from that compute. The segment is looked up before the first byte (404 in the
   * envelope); a compute that completes during the export drops these members, ending it early.
   */
  async exportMembers(caller: Caller, id: string): Promise<{ segment: SegmentEntity; csv: AsyncIterable<string> }> {
    const segment = await this.get(caller, id);
    const computeId = segment.membersComputeId;
    const tenantId = caller.tenantId;
    const page = (after: string | undefined) => this.memberPage(tenantId, computeId!, after, EXPORT_PAGE);
    async function* csv(): AsyncIterable<string> {
      yield csvLine([...EXPORT_COLUMNS]);
      let after: string | undefined;
      while (computeId) {
        const items = await page(after);
        if (items.length) yield items.map(memberLine).join('');
        if (items.length < EXPORT_PAGE) return;
        after = items[items.length - 1].id;
      }
    }
    return { segment, csv: csv() };
  }

  /** Profiles of one compute's members after `after`, in id order. */
  private memberPage(
    tenantId: string,
    computeId: string,
    after: string | undefined,
    limit: number,
  ): Promise<ProfileEntity[]> {
    return this.dataSource
      .getRepository(ProfileEntity)
      .createQueryBuilder('p')
      .innerJoin('segment_members', 'sm', 'sm.profile_id = p.id')
      .where('sm.compute_id = :computeId AND p.tenantId = :tenantId', { computeId, tenantId })
      .andWhere(after ? 'sm.profile_id > :after' : 'TRUE', { after })
      .orderBy('sm.profile_id')
      .limit(limit)
      .getMany();
  }
}

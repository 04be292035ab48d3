import { Clock } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';

import { ValidationsConfig } from '../config/validations.config';
import { budgetPixels, ImageStructureError, readImageHeader } from '../engines/image/image-header';
import { newId } from '../shared/ids';
import { Secrets } from '../shared/link-signer';
import { MediaEntity, MediaOwner, MediaSlot } from './media.entity';
import { MediaErrorCode, MediaException } from './media.exception';
import { decodeBase64Body, SLOT_CONTENT_TYPES, sniffContentType } from './media-sniffer';

/** show_details media links are valid this long (spec Limits). */
export const MEDIA_LINK_TTL_MS = 15 * 60_000;
export const UPLOAD_ROUTE = '/v1/uploads/:media_id';

/** What the owner of media says about an upload (validations and enrollments register one each). */
export interface MediaOwnerHooks {
  /** Until when the owner accepts files (undefined: not any more, e.g. finished). */
  acceptsUntil(manager: EntityManager, ownerId: string): Promise<Date | undefined>;
  /** Called in the upload's transaction once every slot of the owner is in. */
  complete(manager: EntityManager, tenantId: string, ownerId: string): Promise<void>;
  /** Whether its files may be served (a deleted validation's are not). */
  visible(manager: EntityManager, ownerId: string): Promise<boolean>;
}

/**
 * Uploaded files of validations and enrollments: signed, expiring upload links (PUT, Base64
 * body), strict decoding, a size limit and the content type proven by the file's bytes; files
 * are kept in PostgreSQL (bytea) and deleted with their owner.
 */
@Injectable()
export class MediaService {
  private readonly owners = new Map<MediaOwner, MediaOwnerHooks>();

  constructor(
    @InjectRepository(MediaEntity) private readonly media: Repository<MediaEntity>,
    private readonly dataSource: DataSource,
    private readonly secrets: Secrets,
    private readonly config: ValidationsConfig,
    private readonly clock: Clock,
  ) {}

  registerOwner(kind: MediaOwner, hooks: MediaOwnerHooks): void {
    this.owners.set(kind, hooks);
  }

  /** The slots an owner waits for, created in the owner's transaction. */
  async createSlots(
    manager: EntityManager,
    tenantId: string,
    ownerKind: MediaOwner,
    ownerId: string,
    slots: MediaSlot[],
  ): Promise<MediaEntity[]> {
    const now = this.clock.now();
    const rows = slots.map((slot) =>
      this.media.create({ id: newId('MED'), tenantId, ownerKind, ownerId, slot, createdAt: now, uploadedAt: null }),
    );
    if (rows.length) await manager.getRepository(MediaEntity).insert(rows);
    return rows;
  }

  slotsOf(ownerKind: MediaOwner, ownerIds: string[], manager?: EntityManager): Promise<MediaEntity[]> {
    if (!ownerIds.length) return Promise.resolve([]);
    const repo = manager ? manager.getRepository(MediaEntity) : this.media;
    return repo
      .createQueryBuilder('m')
      .where('m.ownerKind = :kind AND m.ownerId IN (:...ids)', { kind: ownerKind, ids: ownerIds })
      .orderBy('m.createdAt')
      .getMany();
  }

  uploadLink(base: string, media: MediaEntity, expiresAt: Date): string {
    return this.secrets.link(base, `/v1/uploads/${media.id}`, 'upload', media.id, expiresAt);
  }

  viewLink(base: string, media: MediaEntity): { url: string; expires_at: string } {
    const expiresAt = new Date(this.clock.now().getTime() + MEDIA_LINK_TTL_MS);
    return {
      url: this.secrets.link(base, `/v1/media/${media.id}`, 'media', media.id, expiresAt),
      expires_at: expiresAt.toISOString(),
    };
  }

  /** PUT {file_upload_url}: the file as Base64 text, authenticated by the link's signature. */
  async upload(mediaId: string, expires: number, signature: string, body: unknown): Promise<MediaEntity> {
    this.checkSignature('upload', mediaId, expires, signature);
    const data = typeof body === 'string' || Buffer.isBuffer(body) ? decodeBase64Body(body.toString()) : undefined;
    if (!data) throw new MediaException(MediaErrorCode.InvalidBase64, 'The body must be the file encoded in Base64');
    if (data.length > this.config.VALIDATIONS_MEDIA_MAX_BYTES)
      throw new MediaException(
        MediaErrorCode.MediaTooLarge,
        `The file is ${data.length} bytes; the limit is ${this.config.VALIDATIONS_MEDIA_MAX_BYTES}`,
      );
    return this.dataSource.transaction(async (m) => {
      const media = await m
        .getRepository(MediaEntity)
        .createQueryBuilder('m')
        .setLock('pessimistic_write')
        .where('m.id = :id', { id: mediaId })
        .getOne();
      if (!media) throw new MediaException(MediaErrorCode.InvalidUploadLink, 'This upload link is not valid');
      const contentType = sniffContentType(data);
      const allowed = SLOT_CONTENT_TYPES[media.slot];
      if (!contentType || !allowed.includes(contentType))
        throw new MediaException(
          MediaErrorCode.UnsupportedMedia,
          `The ${media.slot} file must be one of ${allowed.join(', ')}${contentType ? `, not ${contentType}` : ''}`,
        );
      if (contentType.startsWith('image/')) this.checkImage(media.slot, data);
      const hooks = this.owners.get(media.ownerKind)!;
      const until = await hooks.acceptsUntil(m, media.ownerId);
      if (!until || until.getTime() <= this.clock.now().getTime())
        throw new MediaException(
          MediaErrorCode.UploadLinkExpired,
          'The validation or enrollment no longer accepts files',
        );
      if (media.uploadedAt)
        throw new MediaException(MediaErrorCode.MediaAlreadyUploaded, `The ${media.slot} file is already in`);
      const now = this.clock.now();
      await m
        .getRepository(MediaEntity)
        .update({ id: media.id }, { data, contentType, size: data.length, uploadedAt: now });
      Object.assign(media, { contentType, size: data.length, uploadedAt: now });
      const missing = await m
        .getRepository(MediaEntity)
        .createQueryBuilder('m')
        .where('m.ownerKind = :kind AND m.ownerId = :owner AND m.uploadedAt IS NULL', {
          kind: media.ownerKind,
          owner: media.ownerId,
        })
        .getCount();
      if (missing === 0) await hooks.complete(m, media.tenantId, media.ownerId);
      return media;
    });
  }

  /** GET of a show_details link: the file and its content type. */
  async view(mediaId: string, expires: number, signature: string): Promise<{ contentType: string; data: Buffer }> {
    this.checkSignature('media', mediaId, expires, signature);
    const media = await this.media
      .createQueryBuilder('m')
      .addSelect('m.data')
      .where('m.id = :id AND m.uploadedAt IS NOT NULL', { id: mediaId })
      .getOne();
    if (!media?.data || !(await this.owners.get(media.ownerKind)!.visible(this.dataSource.manager, media.ownerId)))
      throw new MediaException(MediaErrorCode.MediaNotFound, 'media not found');
    return { contentType: media.contentType!, data: media.data };
  }

  /** The owner's files by slot (engine jobs). */
  async read(ownerKind: MediaOwner, ownerId: string): Promise<Partial<Record<MediaSlot, Buffer>>> {
    const rows = await this.media
      .createQueryBuilder('m')
      .addSelect('m.data')
      .where('m.ownerKind = :kind AND m.ownerId = :owner AND m.uploadedAt IS NOT NULL', {
        kind: ownerKind,
        owner: ownerId,
      })
      .getMany();
    return Object.fromEntries(rows.map((r) => [r.slot, r.data!]));
  }

  async deleteOf(manager: EntityManager, ownerKind: MediaOwner, ownerIds: string[]): Promise<void> {
    if (ownerIds.length)
      await manager
        .getRepository(MediaEntity)
        .createQueryBuilder()
        .delete()
        .where('owner_kind = :kind AND owner_id IN (:...ids)', { kind: ownerKind, ids: ownerIds })
        .execute();
  }

  /**
   * An image is measured from its header before anything decodes it (400 image_too_large over the pixel budget)
   * and must be only an image (415 for a PNG with data after its end or any markup a browser would run).
   */
  private checkImage(slot: MediaSlot, data: Buffer): void {
    let header;
    try {
      header = readImageHeader(data);
    } catch (err) {
      if (!(err instanceof ImageStructureError)) throw err;
      throw new MediaException(MediaErrorCode.UnsupportedMedia, `The ${slot} file is refused: ${err.message}`);
    }
    const max = this.config.VALIDATIONS_IMAGE_MAX_MEGAPIXELS;
    const megapixels = budgetPixels(header) / 1e6;
    if (megapixels > max)
      throw new MediaException(
        MediaErrorCode.ImageTooLarge,
        `The ${slot} image is ${header.width}x${header.height} at ${header.bitDepth} bits (${Math.round(megapixels * 10) / 10} megapixels${header.bitDepth > 8 ? ', counted twice above 8 bits' : ''}); the limit is ${max} megapixels: send a smaller picture`,
        [{ field: 'file', message: `at most ${max} megapixels` }],
      );
  }

  private checkSignature(purpose: string, id: string, expires: number, signature: string): void {
    if (!this.secrets.verify(purpose, id, expires, signature))
      throw new MediaException(MediaErrorCode.InvalidUploadLink, 'This link is not valid');
    if (expires * 1000 <= this.clock.now().getTime())
      throw new MediaException(MediaErrorCode.UploadLinkExpired, 'This link has expired');
  }
}

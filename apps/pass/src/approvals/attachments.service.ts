import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

import { Clock, ValidationFailedException } from '@kyc/platform';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';

import { ApplicationsService } from '../applications/applications.service';
import { PassConfig } from '../config/pass.config';
import { SecretBox } from '../crypto/secret-box';
import { AttachmentCheck } from '../provider/attachment-check';
import { ApprovalAttachmentEntity } from './approval-attachment.entity';
import type { AttachmentView } from './approval-page';
import { ApprovalErrorCode, ApprovalException } from './approvals.exception';
import { ATTACHMENT_TYPES, StageAttachmentDto } from './dto/stage-attachment.dto';

export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
const UPLOAD_URL_TTL_MS = 10 * 60 * 1000;

/** Leading bytes each binary type must start with (what the file really is, whatever its name says). */
const MAGIC: Record<string, Buffer[]> = {
  'image/png': [Buffer.from([0x89, 0x50, 0x4e, 0x47])],
  'image/jpeg': [Buffer.from([0xff, 0xd8, 0xff])],
  'image/gif': [Buffer.from('GIF87a'), Buffer.from('GIF89a')],
  'image/webp': [Buffer.from('RIFF')],
  'application/pdf': [Buffer.from('%PDF-')],
};
/** Markers of active content: scripts in PDFs, markup or scripts in text. */
const PDF_ACTIVE = /\/(JavaScript|JS|Launch|EmbeddedFile|OpenAction|AA)\b/;
const TEXT_ACTIVE = /<\s*(script|html|iframe|object|embed|svg)\b|javascript:/i;

/**
 * Approval attachments: staged by the application (client credentials), uploaded through a signed URL valid
 * 10 minutes (10 MiB max), checked for their real type and refused when they carry active content. The
 * object store is a sandbox one: the bytes are kept in pass's database under the returned s3_key.
 */
@Injectable()
export class AttachmentsService implements AttachmentCheck {
  constructor(
    @InjectRepository(ApprovalAttachmentEntity) private readonly attachments: Repository<ApprovalAttachmentEntity>,
    private readonly applications: ApplicationsService,
    private readonly box: SecretBox,
    private readonly config: PassConfig,
    private readonly clock: Clock,
  ) {}

  async stage(dto: StageAttachmentDto): Promise<{ upload_url: string; s3_key: string; expires_in: number }> {
    if (!(await this.applications.authenticate(dto.client_id, dto.client_secret)))
      throw new ApprovalException(ApprovalErrorCode.BadCredentials, 'invalid client credentials');
    const name = dto.file_name.trim();
    const dot = name.lastIndexOf('.');
    if (dot > 0) {
      const extension = name.slice(dot + 1).toLowerCase();
      if (!ATTACHMENT_TYPES[dto.content_type].includes(extension))
        throw new ValidationFailedException([
          {
            field: 'file_name',
            message: `the extension .${extension} does not match content_type ${dto.content_type}`,
          },
        ]);
    }
    const now = this.clock.now();
    const s3Key = `approvals/${dto.client_id}/${randomUUID()}`;
    const expiresAt = new Date(now.getTime() + UPLOAD_URL_TTL_MS);
    await this.attachments.insert({
      s3Key,
      clientId: dto.client_id,
      loginHint: dto.login_hint.toLowerCase(),
      fileName: name,
      contentType: dto.content_type,
      uploadExpiresAt: expiresAt,
      content: null,
      size: null,
      uploadedAt: null,
      createdAt: now,
    });
    const expires = Math.floor(expiresAt.getTime() / 1000);
    const url = `${this.config.issuer}/v1/oauth2/approval-attachments/uploads/${encodeURIComponent(s3Key)}?expires=${expires}&sig=${this.sign(s3Key, expires)}`;
    return { upload_url: url, s3_key: s3Key, expires_in: UPLOAD_URL_TTL_MS / 1000 };
  }

  /** PUT on the signed upload URL: stores the bytes once they pass the type and active-content checks. */
  async upload(s3Key: string, expires: string, sig: string, body: unknown): Promise<{ s3_key: string; size: number }> {
    const expiresAt = Number(expires);
    const expected = Buffer.from(this.sign(s3Key, expiresAt));
    const given = Buffer.from(sig ?? '');
    const valid =
      Number.isInteger(expiresAt) &&
      expiresAt * 1000 > this.clock.now().getTime() &&
      expected.length === given.length &&
      timingSafeEqual(expected, given);
    const attachment = valid ? await this.attachments.findOneBy({ s3Key }) : null;
    if (!attachment || attachment.uploadedAt)
      throw new ApprovalException(ApprovalErrorCode.UploadLinkInvalid, 'the upload link is invalid, expired or used');
    if (!Buffer.isBuffer(body) || body.length === 0)
      throw new ValidationFailedException([{ field: 'body', message: 'the file content is required' }]);
    if (body.length > ATTACHMENT_MAX_BYTES)
      throw new ApprovalException(ApprovalErrorCode.TooLarge, 'attachments are at most 10 MiB');
    this.refuseActiveContent(attachment.contentType, body);
    await this.attachments.update({ s3Key }, { content: body, size: body.length, uploadedAt: this.clock.now() });
    return { s3_key: s3Key, size: body.length };
  }

  /**
   * Why the attachments referenced by a CIBA request cannot be used, or null: each must have been staged by
   * the same application for the same approver and uploaded (an unknown key and another application's key
   * get the same answer).
   */
  async unusable(clientId: string, loginHint: string, keys: string[]): Promise<string | null> {
    if (!keys.length) return null;
    const rows = await this.attachments.findBy({ s3Key: In(keys) });
    for (const key of keys) {
      const row = rows.find((r) => r.s3Key === key);
      if (!row || row.clientId !== clientId)
        return `attachment ${key.slice(0, 300)} was not staged by this application`;
      if (row.loginHint !== loginHint.trim().toLowerCase()) return `attachment ${key} was staged for another approver`;
      if (!row.uploadedAt) return `attachment ${key} has not been uploaded`;
    }
    return null;
  }

  /** What the approval page shows of each attachment. */
  async describe(keys: string[]): Promise<Map<string, AttachmentView>> {
    const rows = keys.length ? await this.attachments.findBy({ s3Key: In(keys) }) : [];
    return new Map(
      rows.map((r) => [r.s3Key, { s3_key: r.s3Key, file_name: r.fileName, content_type: r.contentType, size: r.size }]),
    );
  }

  /** The bytes of an uploaded attachment. */
  async content(s3Key: string): Promise<{ content: Buffer; contentType: string; fileName: string } | null> {
    const row = await this.attachments
      .createQueryBuilder('a')
      .addSelect('a.content')
      .where('a.s3Key = :s3Key', { s3Key })
      .getOne();
    return row?.content ? { content: row.content, contentType: row.contentType, fileName: row.fileName } : null;
  }

  private refuseActiveContent(contentType: string, body: Buffer): void {
    const magic = MAGIC[contentType];
    if (magic && !magic.some((m) => body.subarray(0, m.length).equals(m)))
      throw new ApprovalException(ApprovalErrorCode.ActiveContent, `the content is not a ${contentType} file`);
    const text = body.toString('latin1');
    if (contentType === 'application/pdf' && PDF_ACTIVE.test(text))
      throw new ApprovalException(ApprovalErrorCode.ActiveContent, 'PDF files with scripts or actions are refused');
    if (!magic && TEXT_ACTIVE.test(text))
      throw new ApprovalException(ApprovalErrorCode.ActiveContent, 'text with markup or scripts is refused');
  }

  private sign(s3Key: string, expires: number): string {
    return createHmac('sha256', this.box.derive('attachment-uploads'))
      .update(`${s3Key}:${expires}`)
      .digest('base64url');
  }
}

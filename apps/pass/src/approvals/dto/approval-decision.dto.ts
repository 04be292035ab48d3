import { IsIn, IsString, MaxLength } from 'class-validator';

/** The approval page's form (the requested fields travel as `field_<name>`, see requestedFieldAnswers). */
export class ApprovalDecisionDto {
  @IsString()
  @MaxLength(200)
  sig!: string;

  @IsIn(['approve', 'decline'])
  decision!: 'approve' | 'decline';
}

/** GET /approvals/{auth_req_id}/attachments */
export class ApprovalAttachmentQuery {
  @IsString()
  @MaxLength(200)
  sig!: string;

  @IsString()
  @MaxLength(300)
  s3_key!: string;
}

/** The `field_<name>` answers of a posted approval form (at most 20 fields of 1000 characters are read). */
export function requestedFieldAnswers(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null) return {};
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>).filter(([k]) => /^field_[a-z][a-z0-9_]{0,63}$/.test(k)),
  );
}

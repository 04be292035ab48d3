import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The user's decision on a CIBA request, read by the application through GET /v1/oauth2/approval-outcome. */
@Entity({ name: 'approval_outcomes' })
export class ApprovalOutcomeEntity {
  @PrimaryColumn({ name: 'auth_req_id', type: 'text' })
  authReqId!: string;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ type: 'text' })
  decision!: 'approved' | 'declined';

  @Column({ name: 'form_data', type: 'jsonb' })
  formData!: Record<string, string | number | boolean>;

  @Column({ name: 'decided_at', type: 'timestamptz' })
  decidedAt!: Date;
}

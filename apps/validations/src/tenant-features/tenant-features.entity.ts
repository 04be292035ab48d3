import { Column, Entity, PrimaryColumn } from 'typeorm';

/** What platform operators enabled for a tenant (features the spec puts behind an authorization). */
@Entity({ name: 'tenant_features' })
export class TenantFeaturesEntity {
  @PrimaryColumn({ name: 'tenant_id', type: 'text' }) tenantId!: string;
  /** confirmation=none enrollments: allowed for API keys issued after this moment. */
  @Column({ name: 'confirmation_none_authorized_at', type: 'timestamptz', nullable: true })
  confirmationNoneAuthorizedAt!: Date | null;
  /** use_manual_review for face-recognition needs this activation. */
  @Column({ name: 'face_manual_review', type: 'boolean' }) faceManualReview!: boolean;
  /** "On request" document-validation countries enabled for the tenant (BR, CR). */
  @Column({ name: 'on_request_countries', type: 'text', array: true }) onRequestCountries!: string[];
  /** "On request" document types enabled for the tenant (ppt). */
  @Column({ name: 'on_request_document_types', type: 'text', array: true }) onRequestDocumentTypes!: string[];
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt!: Date;
}

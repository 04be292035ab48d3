/**
 * What the provider asks of the attachments a CIBA request references. The approvals' AttachmentsService,
 * which stages and serves them, answers it (bound in ApprovalsModule), so the provider does not depend on approvals.
 */
export abstract class AttachmentCheck {
  /** Why the referenced attachments cannot be used by this application for this approver, or null. */
  abstract unusable(clientId: string, loginHint: string, keys: string[]): Promise<string | null>;
}

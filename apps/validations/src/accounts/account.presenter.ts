import { iso } from '../shared/ids';
import { ValidatorAccountEntity } from './validator-account.entity';

export function presentAccount(a: ValidatorAccountEntity) {
  return {
    account_id: a.accountId,
    email: a.email ?? undefined,
    first_name: a.firstName ?? undefined,
    last_name: a.lastName ?? undefined,
    phone_number: a.phoneNumber ?? undefined,
    country: a.country ?? undefined,
    document_number: a.documentNumber ?? undefined,
    document_type: a.documentType ?? undefined,
    document_issue_date: a.documentIssueDate ?? undefined,
    facebook_user: a.facebookUser ?? undefined,
    twitter_user: a.twitterUser ?? undefined,
    creation_date: iso(a.createdAt),
    update_date: iso(a.updatedAt),
  };
}

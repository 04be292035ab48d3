import { CursorPageQuery } from '@kyc/platform';

export class ListUsersQuery extends CursorPageQuery {}

import { CursorPageQuery } from '@kyc/platform';

export class ListRolesQuery extends CursorPageQuery {}

import { CursorPageQuery } from '@kyc/platform';

/** GET /v1/engagement/channels: `start_key` and `limit` (1..100, default 20). */
export class ListChannelsQuery extends CursorPageQuery {}

import { CursorPageQuery } from '@kyc/platform';

export class SegmentProfilesQuery extends CursorPageQuery {}

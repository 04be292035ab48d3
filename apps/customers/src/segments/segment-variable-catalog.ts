import { SEGMENT_VARIABLES } from '../profiles/segment-variables';

/** What a rule builder needs of a segment variable: its name, the type of its values and its group. */
export interface SegmentVariableInfo {
  name: string;
  /** `date`: `YYYY-MM-DD` text (compare as strings); `array`: a list of strings (`in`). */
  type: 'string' | 'number' | 'date' | 'array';
  /** `profile`: an attribute of the profile; `decision`: derived from the profile's transactions. */
  group: 'profile' | 'decision';
}

const DATES = new Set(['birthday', 'document_issue_date', 'first_transaction_date', 'last_transaction_date']);
const PROFILE = new Set([
  'customer_id',
  'name',
  'first_name',
  'last_name',
  'country',
  'phone_number',
  'email',
  'document_number',
  'document_type',
  'birthday',
  'document_issue_date',
  'gender',
  'tags',
]);

/** Every variable a segment rule may read (SEGMENT_VARIABLES), in their order, described for a builder. */
export const SEGMENT_VARIABLE_CATALOG: readonly SegmentVariableInfo[] = Object.entries(SEGMENT_VARIABLES).map(
  ([name, v]) => ({
    name,
    type: v.type === 'json' ? 'array' : DATES.has(name) ? 'date' : v.type === 'number' ? 'number' : 'string',
    group: PROFILE.has(name) ? 'profile' : 'decision',
  }),
);

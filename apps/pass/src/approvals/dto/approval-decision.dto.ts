import { IsIn, IsString, MaxLength } from 'class-validator';

/** The approval page's form. */
export class ApprovalDecisionDto {
  @IsString()
  @MaxLength(200)
  sig: string;

  @IsIn(['approve', 'decline'])
  decision: 'approve' | 'decline';
}
